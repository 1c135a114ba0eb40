import { useState } from 'react';
import { App, Button } from 'antd';
import { Controller, useForm } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { authApi } from '../api/authApi';
import { isApiError } from '@finishline/shared/runtime';
import { signUpSchema, type SignUpInput } from '../schemas/accounts';
import type { LoginResult } from '../types/accounts';
import { emptySignUpForm } from '../storage/formDefaults';
import { CaptchaField } from './CaptchaField';
import { shownError } from './FormField';
import { PhoneField } from './PhoneField';
import { TextFields, type TextFieldSpec } from './TextFields';

const SIGN_UP_FIELDS: Array<TextFieldSpec<SignUpInput>> = [
  { name: 'firstName', label: 'First name', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last name', autoComplete: 'family-name' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
];
const PASSWORD_FIELDS: Array<TextFieldSpec<SignUpInput>> = [
  { name: 'password', label: 'Password', password: true, autoComplete: 'new-password', deps: ['confirmPassword'] },
  { name: 'confirmPassword', label: 'Confirm password', password: true, autoComplete: 'new-password' },
];

/**
 * The sign-up form (names, email, ISD code and phone, password and confirmation, captcha) of the
 * /sign-up page and of checkout's Sign up tab. On success the server's message is shown and
 * `onSignedUp` decides where the visitor goes; a refusal shows the server's Message (the spec's
 * "Error" when the server could not be reached) and asks for the captcha again.
 */
export function SignUpForm({
  idPrefix,
  onSignedUp,
  signIn = false,
}: {
  idPrefix: string;
  onSignedUp: (email: string, session?: LoginResult) => void;
  signIn?: boolean;
}) {
  const { message } = App.useApp();
  const [captchaReset, setCaptchaReset] = useState(0);
  const { control, handleSubmit, setValue, watch, formState } = useForm<SignUpInput>({
    resolver: yupResolver(signUpSchema),
    defaultValues: emptySignUpForm(),
    mode: 'onTouched',
  });
  const submit = handleSubmit(async (values) => {
    try {
      const answer = await authApi.register({ ...values, newUserFlg: 1, signIn });
      message.success(answer.message, 3);
      onSignedUp(values.email, answer.result.session);
    } catch (error) {
      message.warning(isApiError(error) && !error.isNetworkError ? error.message : 'Error', 3);
      setCaptchaReset((n) => n + 1);
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Sign up">
      <TextFields fields={SIGN_UP_FIELDS} control={control} idPrefix={idPrefix} submitted={formState.isSubmitted} />
      <Controller
        name="primaryPhone"
        control={control}
        render={({ field, fieldState }) => (
          <PhoneField
            idPrefix={idPrefix}
            phone={field}
            isdCode={watch('isdCode')}
            onIsdCodeChange={(code) => setValue('isdCode', code)}
            error={shownError(fieldState, formState.isSubmitted)}
          />
        )}
      />
      <TextFields fields={PASSWORD_FIELDS} control={control} idPrefix={idPrefix} submitted={formState.isSubmitted} />
      <CaptchaField resetKey={captchaReset} onChange={(payload) => setValue('gCaptchToken', payload ?? '', { shouldValidate: !!payload })} />
      <Button type="primary" htmlType="submit" block size="large" disabled={!watch('gCaptchToken')} loading={formState.isSubmitting}>
        Sign Up
      </Button>
    </form>
  );
}
