import { App, Button, Input } from 'antd';
import { Controller, useForm } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { authApi, isApiError, rememberSignIn, signInSchema, type SignInInput } from '@finishline/shared';
import { CaptchaField, FormField, useRequestedCaptcha } from '@finishline/shared/react';

/** Sign in tab of checkout: on success the page turns into the signed-in checkout form. */
export function CheckoutSignIn({ email, onSignedIn }: { email?: string; onSignedIn: () => void }) {
  const { message } = App.useApp();
  const captcha = useRequestedCaptcha('standard');
  const { control, handleSubmit, setValue, watch, formState } = useForm<SignInInput>({
    resolver: yupResolver(signInSchema),
    defaultValues: { email: email ?? '', password: '', gCaptchToken: '' },
    mode: 'onTouched',
  });
  const submit = handleSubmit(async (values) => {
    try {
      const { result } = await authApi.login({ email: values.email, password: values.password, gCaptchToken: values.gCaptchToken, newUserFlg: 0 });
      rememberSignIn(result);
      onSignedIn();
    } catch (error) {
      if (isApiError(error) && !error.isNetworkError) message.warning(error.message, 3);
      setValue('gCaptchToken', '');
      captcha.afterTry(error); // strong once the server asks for it
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Sign in">
      <Controller
        name="email"
        control={control}
        render={({ field, fieldState }) => (
          <FormField label="Email" htmlFor="co-signin-email" error={fieldState.error?.message}>
            <Input id="co-signin-email" type="email" autoComplete="email" {...field} />
          </FormField>
        )}
      />
      <Controller
        name="password"
        control={control}
        render={({ field, fieldState }) => (
          <FormField label="Password" htmlFor="co-signin-password" error={fieldState.error?.message}>
            <Input.Password id="co-signin-password" autoComplete="current-password" {...field} />
          </FormField>
        )}
      />
      <CaptchaField
        resetKey={captcha.resetKey}
        strength={captcha.strength ?? 'standard'}
        onChange={(payload) => setValue('gCaptchToken', payload ?? '', { shouldValidate: !!payload })}
      />
      <Button type="primary" htmlType="submit" block size="large" disabled={!watch('gCaptchToken')} loading={formState.isSubmitting}>
        Sign In
      </Button>
    </form>
  );
}
