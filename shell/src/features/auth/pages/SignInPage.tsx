import { Link, useLocation, useNavigate } from 'react-router-dom';
import { App, Button, Input } from 'antd';
import { Controller, useForm } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { authApi, isApiError, rememberSignIn, signInSchema, type SignInInput } from '@finishline/shared';
import { CaptchaField, FormCard, FormField, useRequestedCaptcha } from '@finishline/shared/react';
import { GoogleSignInButton } from '../components/GoogleSignInButton';
import { afterSignInPath, readCurrPage } from '../redirects';

/** /sign-in: social sign-in, email, password, captcha, forgot-password and create-account links. */
export function SignInPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const { message } = App.useApp();
  // Standard at first; strong once the server says the account had several failed sign-ins.
  const captcha = useRequestedCaptcha('standard');
  const { control, handleSubmit, setValue, watch, formState } = useForm<SignInInput>({
    resolver: yupResolver(signInSchema),
    defaultValues: { email: '', password: '', gCaptchToken: '' },
    mode: 'onTouched',
  });
  const captchaSolved = !!watch('gCaptchToken');
  const goOn = () => navigate(afterSignInPath(location.state, readCurrPage()), { replace: true });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await authApi.login({ email: values.email, password: values.password, gCaptchToken: values.gCaptchToken, newUserFlg: 0 });
      rememberSignIn(answer.result);
      goOn();
    } catch (error) {
      // Spec: a non-200 answer shows the server Message; a network failure stays silent.
      if (isApiError(error) && !error.isNetworkError) message.warning(error.message, 3);
      captcha.afterTry(error);
    }
  });

  return (
    <FormCard title="Sign In" subtitle="Welcome back! Sign in to see your orders and check out faster.">
      <GoogleSignInButton onSignedIn={goOn} />
      <form onSubmit={onSubmit} noValidate aria-label="Sign in">
        <Controller
          name="email"
          control={control}
          render={({ field, fieldState }) => (
            <FormField label="Email" htmlFor="signin-email" error={fieldState.error?.message}>
              <Input id="signin-email" type="email" autoComplete="email" {...field} />
            </FormField>
          )}
        />
        <Controller
          name="password"
          control={control}
          render={({ field, fieldState }) => (
            <FormField label="Password" htmlFor="signin-password" error={fieldState.error?.message}>
              <Input.Password id="signin-password" autoComplete="current-password" {...field} />
            </FormField>
          )}
        />
        <div style={{ textAlign: 'right', marginTop: -6, marginBottom: 8 }}>
          <Link to="/forgot-password" className="fl-touch-link">
            Forgot password?
          </Link>
        </div>
        <CaptchaField
          resetKey={captcha.resetKey}
          strength={captcha.strength ?? 'standard'}
          onChange={(payload) => setValue('gCaptchToken', payload ?? '', { shouldValidate: !!payload })}
        />
        <Button type="primary" htmlType="submit" block size="large" disabled={!captchaSolved} loading={formState.isSubmitting}>
          Sign In
        </Button>
      </form>
      <p style={{ textAlign: 'center', marginTop: 16, marginBottom: 0 }}>
        New to Finishline?{' '}
        <Link to="/sign-up" className="fl-touch-link">
          Create an account
        </Link>
      </p>
    </FormCard>
  );
}
