import { Link, useLocation, useNavigate } from 'react-router-dom';
import { App, Button } from 'antd';
import { useForm } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { ACCOUNT_MESSAGES, authApi, isApiError, resetPasswordSchema, type ResetPasswordInput } from '@finishline/shared';
import { FormCard, TextFields, type TextFieldSpec } from '@finishline/shared/react';

const FIELDS: Array<TextFieldSpec<ResetPasswordInput>> = [
  { name: 'passCode', label: 'Passcode', autoComplete: 'one-time-code', inputMode: 'numeric' },
  { name: 'email', label: 'Email', autoComplete: 'email' },
  { name: 'newPassword', label: 'New password', password: true, autoComplete: 'new-password', deps: ['confirmPassword'] },
  { name: 'confirmPassword', label: 'Confirm password', password: true, autoComplete: 'new-password' },
];

/** /reset-password: passcode (from the mail), email (from navigation state), new password and confirmation. */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const { message } = App.useApp();
  const stateEmail = (location.state as { email?: string } | null)?.email ?? '';
  const { control, handleSubmit, formState } = useForm<ResetPasswordInput>({
    resolver: yupResolver(resetPasswordSchema),
    defaultValues: { passCode: '', email: stateEmail, newPassword: '', confirmPassword: '' },
    mode: 'onTouched',
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await authApi.passwordReset(values);
      message.success(answer.message, 3);
      setTimeout(() => navigate('/sign-in'), 1000);
    } catch (error) {
      // The server checks the passcode; a wrong one reads as the spec's warning.
      message.warning(isApiError(error) && !error.isNetworkError ? error.message : ACCOUNT_MESSAGES.invalidPasscode, 3);
    }
  });

  return (
    <FormCard title="Reset Password" subtitle="Enter the passcode we mailed you and choose a new password.">
      <form onSubmit={onSubmit} noValidate aria-label="Reset password">
        <TextFields fields={FIELDS} control={control} idPrefix="reset" submitted={formState.isSubmitted} />
        <Button type="primary" htmlType="submit" block size="large" loading={formState.isSubmitting}>
          Reset Password
        </Button>
      </form>
      <p style={{ textAlign: 'center', marginTop: 16, marginBottom: 0 }}>
        No mail? <Link to="/forgot-password">Send a new passcode</Link>
      </p>
    </FormCard>
  );
}
