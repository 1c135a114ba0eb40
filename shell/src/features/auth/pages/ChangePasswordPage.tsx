import { useEffect } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { App, Button } from 'antd';
import { useForm } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { authApi, changePasswordSchema, forgetSession, isApiError, readLocalSession, type ChangePasswordInput } from '@finishline/shared';
import { FormCard, TextFields, type TextFieldSpec } from '@finishline/shared/react';

/** Spec: success shows the message, then goes home after 2 seconds. */
export const CHANGE_PASSWORD_REDIRECT_MS = 2000;

// The confirmation is re-checked whenever the new password changes.
const FIELDS: Array<TextFieldSpec<ChangePasswordInput>> = [
  { name: 'currentPassword', label: 'Old password', password: true, autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New password', password: true, autoComplete: 'new-password', deps: ['confirmPassword'] },
  { name: 'confirmPassword', label: 'Confirm password', password: true, autoComplete: 'new-password' },
];

/** /change-password for a signed-in user: old, new and confirm; submit only when changed and valid. */
export function ChangePasswordPage() {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const session = readLocalSession();
  const { control, handleSubmit, formState, trigger } = useForm<ChangePasswordInput>({
    resolver: yupResolver(changePasswordSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    mode: 'onChange',
  });
  useEffect(() => {
    // Validity is known from the start so the button reflects it.
    void trigger();
  }, [trigger]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await authApi.changePassword({ ...values, userID: session.userId });
      message.success(answer.message, 3);
      setTimeout(() => navigate('/'), CHANGE_PASSWORD_REDIRECT_MS);
    } catch (error) {
      if (!isApiError(error) || error.isNetworkError) return void message.error('Something Went Wrong', 4);
      if (error.statusCode === 401) {
        forgetSession();
        navigate('/sign-in', { state: { redirectTo: '/change-password' } });
      }
      message.warning(error.message, 3);
    }
  });

  if (!session.signedIn) return <Navigate to="/sign-in" replace state={{ redirectTo: '/change-password' }} />;

  return (
    <FormCard title="Change Password" subtitle="Use at least eight characters with an uppercase letter, a lowercase letter and a number.">
      <form onSubmit={onSubmit} noValidate aria-label="Change password">
        <TextFields fields={FIELDS} control={control} idPrefix="change" submitted={formState.isSubmitted} />
        <Button type="primary" htmlType="submit" block size="large" disabled={!formState.isDirty || !formState.isValid} loading={formState.isSubmitting}>
          Submit
        </Button>
      </form>
    </FormCard>
  );
}
