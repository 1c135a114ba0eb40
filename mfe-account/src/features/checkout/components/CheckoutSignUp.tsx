import { useState } from 'react';
import { App, Button, Input } from 'antd';
import { Controller, useForm } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { authApi, DEFAULT_ISD_CODE, isApiError, signUpSchema, STORAGE_KEYS, type SignUpInput } from '@finishline/shared';
import { CaptchaField, FormField } from '@finishline/shared/react';

/** Sign up tab of checkout: a new account, then the Sign in tab with the email filled in. */
export function CheckoutSignUp({ onSignedUp }: { onSignedUp: (email: string) => void }) {
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
  const submit = handleSubmit(async (values) => {
    try {
      const answer = await authApi.register({ ...values, newUserFlg: 1 });
      message.success(answer.message, 3);
      onSignedUp(values.email);
    } catch (error) {
      message.warning(isApiError(error) && !error.isNetworkError ? error.message : 'Error', 3);
      setValue('gCaptchToken', '');
      setCaptchaReset((n) => n + 1);
    }
  });
  const text = (name: 'firstName' | 'lastName' | 'email' | 'isdCode' | 'primaryPhone', label: string) => (
    <Controller name={name} control={control} render={({ field, fieldState }) => (
      <FormField label={label} htmlFor={`co-signup-${name}`} error={fieldState.error?.message}>
        <Input id={`co-signup-${name}`} {...field} />
      </FormField>
    )} />
  );
  const secret = (name: 'password' | 'confirmPassword', label: string) => (
    <Controller name={name} control={control} render={({ field, fieldState }) => (
      <FormField label={label} htmlFor={`co-signup-${name}`} error={fieldState.error?.message}>
        <Input.Password id={`co-signup-${name}`} autoComplete="new-password" {...field} />
      </FormField>
    )} />
  );
  return (
    <form onSubmit={submit} noValidate aria-label="Sign up">
      {text('firstName', 'First name')}
      {text('lastName', 'Last name')}
      {text('email', 'Email')}
      {text('isdCode', 'ISD code')}
      {text('primaryPhone', 'Phone')}
      {secret('password', 'Password')}
      {secret('confirmPassword', 'Confirm password')}
      <CaptchaField resetKey={captchaReset} onChange={(payload) => setValue('gCaptchToken', payload ?? '', { shouldValidate: !!payload })} />
      <Button type="primary" htmlType="submit" block size="large" disabled={!watch('gCaptchToken')} loading={formState.isSubmitting}>
        Sign Up
      </Button>
    </form>
  );
}
