import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { App, Button, Input } from 'antd';
import { Controller, useForm } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { authApi, DEFAULT_ISD_CODE, isApiError, STORAGE_KEYS, signUpSchema, type SignUpInput } from '@finishline/shared';
import { CaptchaField, FormField, shownError } from '@finishline/shared/react';
import { FormCard } from '../../../components/form/FormCard';
import { IsdCodeSelect } from '../../../components/form/IsdCodeSelect';
import { GoogleSignInButton } from '../components/GoogleSignInButton';
import { readCurrPage } from '../redirects';

/** Spec: success goes to /sign-in after 1 second (or reloads when the current page was NotLoggedIn). */
export const SIGN_UP_REDIRECT_MS = 1000;

type TextField = 'firstName' | 'lastName' | 'email' | 'password' | 'confirmPassword';
const TEXT_FIELDS: Array<{ name: TextField; label: string; type?: string; autoComplete: string }> = [
  { name: 'firstName', label: 'First name', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last name', autoComplete: 'family-name' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
];

/** /sign-up: names, email, ISD code and phone, password and confirmation, captcha, link to sign in. */
export function SignUpPage() {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [captchaReset, setCaptchaReset] = useState(0);
  const { control, handleSubmit, setValue, watch, formState } = useForm<SignUpInput>({
    resolver: yupResolver(signUpSchema),
    defaultValues: {
      firstName: '',
      lastName: '',
      email: '',
      isdCode: localStorage.getItem(STORAGE_KEYS.isdCode) || DEFAULT_ISD_CODE,
      primaryPhone: '',
      password: '',
      confirmPassword: '',
      gCaptchToken: '',
    },
    mode: 'onTouched',
  });
  const captchaSolved = !!watch('gCaptchToken');

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await authApi.register({ ...values, newUserFlg: 1 });
      message.success(answer.message, 3);
      if (readCurrPage() === 'NotLoggedIn') window.location.reload();
      else setTimeout(() => navigate('/sign-in'), SIGN_UP_REDIRECT_MS);
    } catch (error) {
      message.warning(isApiError(error) && !error.isNetworkError ? error.message : 'Error', 3);
      setCaptchaReset((n) => n + 1);
    }
  });

  return (
    <FormCard title="Create your account" subtitle="Sign up to keep your race photos and orders in one place." width={520}>
      <GoogleSignInButton onSignedIn={(_login, text) => {
        message.success(text, 3);
        navigate('/');
      }} />
      <form onSubmit={onSubmit} noValidate aria-label="Sign up">
        {TEXT_FIELDS.map((spec) => (
          <Controller
            key={spec.name}
            name={spec.name}
            control={control}
            render={({ field, fieldState }) => (
              <FormField label={spec.label} htmlFor={`signup-${spec.name}`} error={shownError(fieldState, formState.isSubmitted)}>
                <Input id={`signup-${spec.name}`} type={spec.type ?? 'text'} autoComplete={spec.autoComplete} {...field} />
              </FormField>
            )}
          />
        ))}
        <Controller
          name="primaryPhone"
          control={control}
          render={({ field, fieldState }) => (
            <FormField label="Phone" htmlFor="signup-primaryPhone" error={shownError(fieldState, formState.isSubmitted)}>
              <div style={{ display: 'flex', gap: 8 }}>
                <Controller
                  name="isdCode"
                  control={control}
                  render={({ field: isd }) => <IsdCodeSelect id="signup-isdCode" value={isd.value} onChange={isd.onChange} />}
                />
                <Input id="signup-primaryPhone" type="tel" inputMode="tel" autoComplete="tel-national" {...field} />
              </div>
            </FormField>
          )}
        />
        {(['password', 'confirmPassword'] as const).map((name) => (
          <Controller
            key={name}
            name={name}
            control={control}
            rules={name === 'password' ? { deps: ['confirmPassword'] } : undefined}
            render={({ field, fieldState }) => (
              <FormField label={name === 'password' ? 'Password' : 'Confirm password'} htmlFor={`signup-${name}`} error={shownError(fieldState, formState.isSubmitted)}>
                <Input.Password id={`signup-${name}`} autoComplete="new-password" {...field} />
              </FormField>
            )}
          />
        ))}
        <CaptchaField resetKey={captchaReset} onChange={(payload) => setValue('gCaptchToken', payload ?? '', { shouldValidate: !!payload })} />
        <Button type="primary" htmlType="submit" block size="large" disabled={!captchaSolved} loading={formState.isSubmitting}>
          Sign Up
        </Button>
      </form>
      <p style={{ textAlign: 'center', marginTop: 16, marginBottom: 0 }}>
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </p>
    </FormCard>
  );
}
