import { useState } from 'react';
import { Button, Input } from 'antd';
import { Controller, useForm } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { guestCheckoutFormSchema, storedIsdCode, type CheckoutContext, type GuestCheckoutFormValues } from '@finishline/shared';
import { CaptchaField, FormField } from '@finishline/shared/react';
import type { Buyer } from '../api/usePlaceOrder';
import { ShippingFields } from './ShippingFields';

export const CAPTCHA_HINT = "Tick \u201cI'm not a robot\u201d above to enable this button.";

/**
 * Guest Checkout tab: name, email, phone (with the country code shown before it), shipping address
 * and pin code when the order ships a print or a collage, and the captcha; the pay button waits for
 * the captcha and says so while it waits.
 */
export function GuestCheckoutForm({
  onSubmit,
  placing,
  submitLabel,
  shipsGoods,
}: {
  onSubmit: (buyer: Buyer, captcha: string) => Promise<boolean>;
  placing: boolean;
  submitLabel: string;
  shipsGoods: boolean;
}) {
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaReset, setCaptchaReset] = useState(0);
  const { control, handleSubmit } = useForm<GuestCheckoutFormValues>({
    resolver: yupResolver(guestCheckoutFormSchema),
    context: { shipsGoods } satisfies CheckoutContext,
    defaultValues: { name: '', email: '', phone_number: '', shipping_address: '', pincode: '' },
    mode: 'onTouched',
  });
  const submit = handleSubmit(async (values) => {
    if (!captcha) return;
    const ok = await onSubmit(values, captcha);
    if (!ok) {
      // A captcha is single use: solve again after a refused order.
      setCaptcha(null);
      setCaptchaReset((n) => n + 1);
    }
  });
  const text = (name: keyof GuestCheckoutFormValues, label: string, props: Record<string, unknown> = {}) => (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <FormField label={label} htmlFor={`guest-${name}`} error={fieldState.error?.message}>
          <Input id={`guest-${name}`} {...props} {...field} />
        </FormField>
      )}
    />
  );
  return (
    <form onSubmit={submit} noValidate aria-label="Guest checkout">
      {text('name', 'Name', { autoComplete: 'name' })}
      {text('email', 'Email', { type: 'email', autoComplete: 'email' })}
      {text('phone_number', 'Phone number', { inputMode: 'numeric', autoComplete: 'tel-national', prefix: <span aria-hidden="true">{storedIsdCode()}</span> })}
      {shipsGoods ? <ShippingFields control={control} idPrefix="guest" /> : null}
      <CaptchaField resetKey={captchaReset} onChange={setCaptcha} />
      <Button
        type="primary"
        htmlType="submit"
        block
        size="large"
        disabled={!captcha}
        loading={placing}
        aria-describedby={captcha ? undefined : 'guest-captcha-hint'}
      >
        {submitLabel}
      </Button>
      {captcha ? null : (
        <p id="guest-captcha-hint" className="fl-captcha-hint" data-testid="captcha-hint">
          {CAPTCHA_HINT}
        </p>
      )}
    </form>
  );
}
