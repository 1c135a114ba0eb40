import { Link, useNavigate } from 'react-router-dom';
import { App, Button, Input } from 'antd';
import { Controller, useForm } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { authApi, forgotPasswordSchema, isApiError, type ForgotPasswordInput } from '@finishline/shared';
import { FormField, FormCard } from '@finishline/shared/react';

/** /forgot-password: one email field and Submit. The passcode is mailed; the browser never sees it. */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { control, handleSubmit, formState } = useForm<ForgotPasswordInput>({
    resolver: yupResolver(forgotPasswordSchema),
    defaultValues: { email: '' },
    mode: 'onTouched',
  });

  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      const answer = await authApi.passwordCode({ email });
      message.success(answer.message, 3);
      navigate('/reset-password', { state: { email: answer.result.email } });
    } catch (error) {
      message.warning(isApiError(error) ? error.message : 'Something Went Wrong', 3);
    }
  });

  return (
    <FormCard title="Forgot Password" subtitle="Enter the email of your account and we will mail you a passcode.">
      <form onSubmit={onSubmit} noValidate aria-label="Forgot password">
        <Controller
          name="email"
          control={control}
          render={({ field, fieldState }) => (
            <FormField label="Email" htmlFor="forgot-email" error={fieldState.error?.message}>
              <Input id="forgot-email" type="email" autoComplete="email" {...field} />
            </FormField>
          )}
        />
        <Button type="primary" htmlType="submit" block size="large" loading={formState.isSubmitting}>
          Submit
        </Button>
      </form>
      <p style={{ textAlign: 'center', marginTop: 16, marginBottom: 0 }}>
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </FormCard>
  );
}
