import { useEffect, useState } from 'react';
import { Button, Input, Radio } from 'antd';
import { Controller, useForm } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { authApi, checkoutFormSchema, GENDERS, storedIsdCode, type CheckoutContext, type CheckoutFormValues } from '@finishline/shared';
import { FormField } from '@finishline/shared/react';
import type { Buyer } from '../api/usePlaceOrder';
import { ShippingFields } from './ShippingFields';

/**
 * Signed-in checkout form: name, mobile, email, gender and, when the order ships a print or a
 * collage, shipping address and pin code; prefilled from the profile (checkout user info). Errors
 * show under each field; a failed submit re-validates.
 */
export function SignedInCheckoutForm({
  onSubmit,
  placing,
  submitLabel,
  shipsGoods,
}: {
  onSubmit: (buyer: Buyer) => Promise<unknown>;
  placing: boolean;
  submitLabel: string;
  shipsGoods: boolean;
}) {
  const { control, handleSubmit, reset, getValues } = useForm<CheckoutFormValues>({
    resolver: yupResolver(checkoutFormSchema),
    context: { shipsGoods } satisfies CheckoutContext,
    defaultValues: { name: '', phone_number: '', email: '', gender: '', shipping_address: '', pincode: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });

  // Until the profile has arrived the Pay button waits: a click before it would validate the empty
  // form, and the prefill that lands a moment later would wipe the errors, so nothing would happen.
  const [prefilling, setPrefilling] = useState(true);
  useEffect(() => {
    let alive = true;
    authApi
      .checkoutUserInfo()
      .then(({ result }) => {
        if (!alive) return;
        const current = getValues();
        reset({
          name: current.name || `${result.firstName} ${result.lastName}`.trim(),
          phone_number: current.phone_number || result.primaryPhone || '',
          email: current.email || result.email,
          gender: current.gender || (result.gender ?? ''),
          shipping_address: current.shipping_address || (result.address ?? ''),
          pincode: current.pincode || (result.pincode ?? ''),
        });
      })
      .catch(() => undefined)
      .finally(() => {
        if (alive) setPrefilling(false);
      });
    return () => {
      alive = false;
    };
  }, [reset, getValues]);

  const submit = handleSubmit((values) => onSubmit(values));
  const text = (name: 'name' | 'phone_number' | 'email', label: string, props: Record<string, unknown> = {}) => (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <FormField label={label} htmlFor={`checkout-${name}`} error={fieldState.error?.message}>
          <Input id={`checkout-${name}`} {...props} {...field} />
        </FormField>
      )}
    />
  );

  return (
    <form onSubmit={submit} noValidate aria-label="Checkout">
      {text('name', 'Name', { autoComplete: 'name' })}
      {text('phone_number', 'Mobile number', { inputMode: 'numeric', autoComplete: 'tel-national', prefix: <span aria-hidden="true">{storedIsdCode()}</span> })}
      {text('email', 'Email', { type: 'email', autoComplete: 'email' })}
      <Controller
        name="gender"
        control={control}
        render={({ field, fieldState }) => (
          <FormField label="Gender" htmlFor="checkout-gender" error={fieldState.error?.message}>
            <Radio.Group
              id="checkout-gender"
              aria-label="Gender"
              value={field.value || undefined}
              onChange={(e) => field.onChange(e.target.value)}
              options={GENDERS.map((g) => ({ value: g, label: g }))}
            />
          </FormField>
        )}
      />
      {shipsGoods ? <ShippingFields control={control} idPrefix="checkout" /> : null}
      <Button type="primary" htmlType="submit" block size="large" loading={placing || prefilling} disabled={prefilling}>
        {submitLabel}
      </Button>
    </form>
  );
}
