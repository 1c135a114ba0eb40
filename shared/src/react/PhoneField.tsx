import type { Ref } from 'react';
import { Input, type InputRef } from 'antd';
import { FormField } from './FormField';
import { IsdCodeSelect } from './IsdCodeSelect';

/** What a form library's field hands over for the phone input (react-hook-form's field fits). */
export interface PhoneInputBinding {
  name: string;
  value: string;
  onChange: (event: React.ChangeEvent<HTMLInputElement>) => void;
  onBlur: () => void;
  ref?: Ref<InputRef>;
}

/**
 * The phone row of the account and contact forms: the ISD code dropdown beside the number, under
 * one label with the number's error. Element ids are `<idPrefix>-isdCode` and `<idPrefix>-<name>`.
 */
export function PhoneField({
  idPrefix,
  phone,
  isdCode,
  onIsdCodeChange,
  error,
}: {
  idPrefix: string;
  phone: PhoneInputBinding;
  isdCode: string;
  onIsdCodeChange: (code: string) => void;
  error?: string;
}) {
  const phoneId = `${idPrefix}-${phone.name}`;
  return (
    <FormField label="Phone" htmlFor={phoneId} error={error}>
      <div style={{ display: 'flex', gap: 8 }}>
        <IsdCodeSelect id={`${idPrefix}-isdCode`} value={isdCode} onChange={onIsdCodeChange} />
        <Input id={phoneId} type="tel" inputMode="tel" autoComplete="tel-national" {...phone} />
      </div>
    </FormField>
  );
}
