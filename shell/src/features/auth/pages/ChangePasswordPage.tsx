import { useEffect } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { App, Button, Input } from 'antd';
import { Controller, useForm } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { authApi, changePasswordSchema, forgetSession, isApiError, readLocalSession, type ChangePasswordInput } from '@finishline/shared';
import { FormField, shownError } from '@finishline/shared/react';
import { FormCard } from '../../../components/form/FormCard';

/** Spec: success shows the message, then goes home after 2 seconds. */
export const CHANGE_PASSWORD_REDIRECT_MS = 2000;

const FIELDS: Array<{ name: 'currentPassword' | 'newPassword' | 'confirmPassword'; label: string; autoComplete: string }> = [
  { name: 'currentPassword', label: 'Old password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'Confirm password', autoComplete: 'new-password' },
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
        {FIELDS.map((spec) => (
          <Controller
            key={spec.name}
            name={spec.name}
            control={control}
            // The confirmation is re-checked whenever the new password changes.
            rules={spec.name === 'newPassword' ? { deps: ['confirmPassword'] } : undefined}
            render={({ field, fieldState }) => (
              <FormField label={spec.label} htmlFor={`change-${spec.name}`} error={shownError(fieldState, formState.isSubmitted)}>
                <Input.Password id={`change-${spec.name}`} autoComplete={spec.autoComplete} {...field} />
              </FormField>
            )}
          />
        ))}
        <Button type="primary" htmlType="submit" block size="large" disabled={!formState.isDirty || !formState.isValid} loading={formState.isSubmitting}>
          Submit
        </Button>
      </form>
    </FormCard>
  );
}
