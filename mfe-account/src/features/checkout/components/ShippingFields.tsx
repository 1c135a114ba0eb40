import { Input } from 'antd';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { FormField } from '@finishline/shared/react';

/**
 * Shipping address and PIN code: shown (and validated) only when the order ships a print or a
 * collage. `idPrefix` keeps the ids of the signed-in and the guest form apart.
 */
export function ShippingFields<T extends FieldValues & { shipping_address?: string; pincode?: string }>({
  control,
  idPrefix,
}: {
  control: Control<T>;
  idPrefix: string;
}) {
  return (
    <>
      <Controller
        name={'shipping_address' as Path<T>}
        control={control}
        render={({ field, fieldState }) => (
          <FormField label="Shipping address" htmlFor={`${idPrefix}-shipping_address`} error={fieldState.error?.message}>
            <Input.TextArea id={`${idPrefix}-shipping_address`} rows={2} autoComplete="street-address" {...field} />
          </FormField>
        )}
      />
      <Controller
        name={'pincode' as Path<T>}
        control={control}
        render={({ field, fieldState }) => (
          <FormField label="Pin code" htmlFor={`${idPrefix}-pincode`} error={fieldState.error?.message}>
            <Input id={`${idPrefix}-pincode`} inputMode="numeric" autoComplete="postal-code" maxLength={6} {...field} />
          </FormField>
        )}
      />
    </>
  );
}
