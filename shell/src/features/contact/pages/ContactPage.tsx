import { useState } from 'react';
import { App, Button, Input } from 'antd';
import { Controller, useForm } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import {
  authApi,
  contactSchema,
  getRuntimeConfig,
  isApiError,
  readLocalSession,
  STORAGE_KEYS,
  type ContactInput,
  localStore,
  storedIsdCode,
} from '@finishline/shared';
import { CaptchaField, FormField, FormCard, PhoneField, TextFields, type TextFieldSpec } from '@finishline/shared/react';

const TEXT_FIELDS: Array<TextFieldSpec<ContactInput>> = [
  { name: 'firstName', label: 'First name', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last name', autoComplete: 'family-name' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
];

function emptyForm(): ContactInput {
  const session = readLocalSession();
  return {
    firstName: session.name ?? '',
    lastName: '',
    email: session.email ?? '',
    isdCode: storedIsdCode(),
    phoneNo: '',
    message: '',
    bibId: localStore.get(STORAGE_KEYS.bibId) ?? undefined,
    gCaptchToken: '',
  };
}

/** /contact-us: the form (stored and mailed to support) plus WhatsApp and mail shortcuts. */
export function ContactPage() {
  const { message } = App.useApp();
  const { supportEmail, whatsappNumber } = getRuntimeConfig();
  const [captchaReset, setCaptchaReset] = useState(0);
  const { control, handleSubmit, setValue, watch, reset, formState } = useForm<ContactInput>({
    resolver: yupResolver(contactSchema),
    defaultValues: emptyForm(),
    mode: 'onTouched',
  });
  const captchaSolved = !!watch('gCaptchToken');
  const whatsappDigits = whatsappNumber.replace(/\D/g, '');

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await authApi.contact({ ...values, bibId: values.bibId || undefined });
      message.success(answer.message, 3);
      reset(emptyForm());
    } catch (error) {
      if (isApiError(error) && !error.isNetworkError) message.warning(error.message, 3);
      else message.error('Something Went Wrong', 4);
    }
    setCaptchaReset((n) => n + 1);
  });

  return (
    <FormCard
      title="Contact Us"
      width={560}
      subtitle="Missing photos, a payment question or a print delivery? Write to us and our support team replies within 48 hours."
    >
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', marginBottom: 20 }}>
        <Button href={`https://wa.me/${whatsappDigits}`} target="_blank" rel="noopener noreferrer" data-testid="whatsapp-link">
          WhatsApp {whatsappNumber}
        </Button>
        <Button href={`mailto:${supportEmail}`} data-testid="mail-link">
          Mail {supportEmail}
        </Button>
      </div>
      <form onSubmit={onSubmit} noValidate aria-label="Contact us">
        <TextFields fields={TEXT_FIELDS} control={control} idPrefix="contact" submitted={formState.isSubmitted} showErrorsAtOnce />
        <Controller
          name="phoneNo"
          control={control}
          render={({ field, fieldState }) => (
            <PhoneField
              idPrefix="contact"
              phone={field}
              isdCode={watch('isdCode')}
              onIsdCodeChange={(code) => setValue('isdCode', code)}
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          name="message"
          control={control}
          render={({ field, fieldState }) => (
            <FormField label="Message" htmlFor="contact-message" error={fieldState.error?.message}>
              <Input.TextArea id="contact-message" rows={4} maxLength={2000} {...field} />
            </FormField>
          )}
        />
        <CaptchaField resetKey={captchaReset} onChange={(payload) => setValue('gCaptchToken', payload ?? '', { shouldValidate: !!payload })} />
        <Button type="primary" htmlType="submit" block size="large" disabled={!captchaSolved} loading={formState.isSubmitting}>
          Send
        </Button>
      </form>
    </FormCard>
  );
}
