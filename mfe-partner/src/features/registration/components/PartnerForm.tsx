import { useEffect, useState, type ReactNode } from 'react';
import { useForm, type ControllerRenderProps, type FieldPath } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { Button, Checkbox, Input, Radio } from 'antd';
import { BANK_ACCOUNT_TYPES, registerPartnerSchema, type PartnerEventOption, type PartnerLookupResult, type RegisterPartnerInput } from '@finishline/shared';
import { ControlledField, TextFields, type TextFieldSpec } from '@finishline/shared/react';

/** Spec: partner terms. */
export const PARTNER_TERMS = 'Photos are delivered as JPG files of 3-4MB each. The event’s photos are not shared anywhere else for 30 days after the event.';

type Name = FieldPath<RegisterPartnerInput>;

function initialValues(event: PartnerEventOption, found: PartnerLookupResult): RegisterPartnerInput {
  const p = found.partner;
  const r = found.registration;
  return {
    eventId: event.event_id,
    event_id: event.event_id,
    emailId: found.email,
    form_type: found.form_type,
    firstname: p?.firstname ?? '',
    lastname: p?.lastname ?? '',
    mobilenumber: p?.mobile ?? '',
    nickname: p?.nickname ?? '',
    bankaccname: p?.bankaccname ?? '',
    // The stored number and PAN are never sent back: empty keeps them, a new value replaces them.
    bankaccnum: '',
    bankacctype: p?.bankacctype ?? 1,
    bankname: p?.bankname ?? '',
    bankbranch: p?.bankbranch ?? '',
    bankifsc: p?.bankifsc ?? '',
    pannum: '',
    isterms: r ? 1 : 0,
    partnerremarks: r?.remarks ?? '',
    availabledate: r?.datesAvailable ?? [],
  };
}

/**
 * The partner form (spec fields and messages, checked by the same schema as the server). With
 * form_type 1 the nick name is locked and the bank account number and PAN show masked.
 */
export function PartnerForm({
  event,
  found,
  busy,
  onSubmit,
}: {
  event: PartnerEventOption;
  found: PartnerLookupResult;
  busy: boolean;
  onSubmit: (values: RegisterPartnerInput) => void;
}) {
  const [submitted, setSubmitted] = useState(false);
  const { control, handleSubmit, reset } = useForm<RegisterPartnerInput>({
    resolver: yupResolver(registerPartnerSchema) as never,
    defaultValues: initialValues(event, found),
    mode: 'onTouched',
  });
  useEffect(() => reset(initialValues(event, found)), [event, found, reset]);
  const updating = found.form_type === 1;
  const p = found.partner;

  const text = (
    name: TextFieldSpec<RegisterPartnerInput>['name'],
    label: string,
    extra: Partial<TextFieldSpec<RegisterPartnerInput>> = {},
  ): TextFieldSpec<RegisterPartnerInput> => ({ name, label, ...extra });
  const fields: Array<TextFieldSpec<RegisterPartnerInput>> = [
    text('emailId', 'Email', { type: 'email', readOnly: true }),
    text('firstname', 'First name', { autoComplete: 'given-name' }),
    text('lastname', 'Last name', { autoComplete: 'family-name' }),
    text('mobilenumber', 'Mobile number', { type: 'tel', autoComplete: 'tel-national' }),
    text('nickname', updating ? 'Nick name (locked)' : 'Nick name (6 to 8 letters or digits; it cannot be changed later)', { readOnly: updating }),
    text('bankaccname', 'Account holder name'),
    text('bankaccnum', updating ? `Account number (${p?.bankaccnum ?? ''}; leave empty to keep it)` : 'Account number', {
      inputMode: 'numeric',
      autoComplete: 'off',
    }),
    text('bankname', 'Bank name'),
    text('bankbranch', 'Branch'),
    text('bankifsc', 'IFSC code', { autoComplete: 'off' }),
    text('pannum', updating ? `PAN (${p?.pannum ?? ''}; leave empty to keep it)` : 'PAN', { autoComplete: 'off' }),
  ];
  /** A field of this form that is not a plain text box (the form's control and submitted state filled in): its input comes from `render`. */
  const controlled = (name: Name, label: string, id: string, render: (field: ControllerRenderProps<RegisterPartnerInput, Name>) => ReactNode) => (
    <ControlledField control={control} name={name} label={label} id={id} submitted={submitted} render={render} />
  );

  return (
    <form
      noValidate
      aria-label="Partner registration form"
      onSubmit={(e) => {
        setSubmitted(true);
        void handleSubmit(onSubmit)(e);
      }}
    >
      <TextFields fields={fields} control={control} idPrefix="partner" submitted={submitted} />
      {controlled('bankacctype', 'Account type', 'partner-bankacctype', (field) => (
        <Radio.Group
          id="partner-bankacctype"
          value={field.value}
          onChange={(e) => field.onChange(e.target.value)}
          options={BANK_ACCOUNT_TYPES.map((t) => ({ value: t.value, label: t.label }))}
        />
      ))}
      {controlled('availabledate', 'Dates you are available', 'partner-dates', (field) => (
        <Checkbox.Group
          aria-label="Dates you are available"
          value={field.value as string[]}
          onChange={(v) => field.onChange(v)}
          options={event.dates.map((d) => ({ value: d, label: d }))}
        />
      ))}
      {controlled('partnerremarks', 'Camera and availability remarks', 'partner-remarks', (field) => (
        <Input.TextArea id="partner-remarks" rows={3} {...field} value={field.value as string} />
      ))}
      {controlled('isterms', 'Partner terms', 'partner-terms', (field) => (
        <>
          <p style={{ margin: '0 0 6px' }}>{PARTNER_TERMS}</p>
          <Checkbox id="partner-terms" checked={field.value === 1} onChange={(e) => field.onChange(e.target.checked ? 1 : 0)} onBlur={field.onBlur}>
            I agree to the partner terms
          </Checkbox>
        </>
      ))}
      <Button type="primary" htmlType="submit" loading={busy}>
        {updating ? 'Update' : 'Register'}
      </Button>
    </form>
  );
}
