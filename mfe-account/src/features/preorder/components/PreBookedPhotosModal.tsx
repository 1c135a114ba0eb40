import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, App, Button, Input, Modal } from 'antd';
import { Controller, useForm } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { isApiError, ordersApi, preorderLinkFormSchema, type PreorderLinkFormValues } from '@finishline/shared';

export interface PreBookedPhotosModalProps {
  open: boolean;
  onClose: () => void;
  prefill?: { race?: string; orderID?: string; email?: string; phone_number?: string };
}

export const MAPPING_NOTES = [
  'Please enter the correct Order ID, BIB number, email and phone number.',
  'Mapping once submitted is irreversible.',
  'No correction is possible after an Order ID is mapped to a BIB.',
];

/**
 * 'Pre-Booked Photos': maps a paid pre-order to a BIB (permanently) and opens its download page.
 * Race is read-only; Order ID, email and phone are read-only when prefilled from the order.
 */
export function PreBookedPhotosModal({ open, onClose, prefill }: PreBookedPhotosModalProps) {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [error, setError] = useState<string | null>(null);
  const defaults = useMemo<PreorderLinkFormValues>(
    () => ({ race: prefill?.race || 'Pre-order', orderID: prefill?.orderID ?? '', bibNo: '', email: prefill?.email ?? '', phone_number: prefill?.phone_number ?? '' }),
    [prefill?.race, prefill?.orderID, prefill?.email, prefill?.phone_number],
  );
  const { control, handleSubmit, formState, reset, watch } = useForm<PreorderLinkFormValues>({
    resolver: yupResolver(preorderLinkFormSchema),
    defaultValues: defaults,
    mode: 'onChange',
  });
  useEffect(() => reset(defaults), [defaults, reset]);
  // The submit button waits for a changed and valid form (spec); validity is read from the schema itself.
  const valid = preorderLinkFormSchema.isValidSync(watch());
  // Read up front: react-hook-form computes only the form state a render has read.
  const { isDirty, isSubmitting } = formState;
  const submit = handleSubmit(async (values) => {
    setError(null);
    try {
      const answer = await ordersApi.generatePreorderLink({ orderId: values.orderID, orderEmail: values.email, orderBibNumber: values.bibNo, mobilenum: values.phone_number });
      message.success(answer.message, 3);
      const url = new URL(answer.result.link);
      reset();
      onClose();
      navigate(`${url.pathname}${url.search}`);
    } catch (e) {
      setError(isApiError(e) ? e.message : 'Something went wrong !');
    }
  });
  const field = (name: keyof PreorderLinkFormValues, label: string, readOnly: boolean, props: Record<string, unknown> = {}) => (
    <Controller
      name={name}
      control={control}
      render={({ field: f, fieldState }) => (
        <div style={{ marginBottom: 12 }}>
          <label htmlFor={`prebook-${name}`} style={{ display: 'block', fontWeight: 500, marginBottom: 4 }}>
            {label}
          </label>
          <Input id={`prebook-${name}`} readOnly={readOnly} {...props} {...f} />
          {fieldState.error ? (
            <div role="alert" style={{ color: '#d4380d', fontSize: 13, marginTop: 4 }}>
              {fieldState.error.message}
            </div>
          ) : null}
        </div>
      )}
    />
  );
  return (
    <Modal open={open} onCancel={onClose} title="Pre-Booked Photos" footer={null} destroyOnHidden>
      <form onSubmit={submit} noValidate aria-label="Pre-Booked Photos">
        {field('race', 'Race', true)}
        {field('orderID', 'Order ID', Boolean(prefill?.orderID))}
        {field('bibNo', 'BIB number', false)}
        {field('email', 'Email', Boolean(prefill?.email), { type: 'email' })}
        {field('phone_number', 'Phone number', Boolean(prefill?.phone_number), { inputMode: 'numeric' })}
        <ul className="fl-muted" style={{ paddingLeft: 18 }}>
          {MAPPING_NOTES.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
        {error ? <Alert type="warning" showIcon title={error} style={{ marginBottom: 12 }} /> : null}
        <Button type="primary" htmlType="submit" block disabled={!valid || isSubmitting || (!isDirty && !prefill?.orderID)} loading={isSubmitting}>
          Submit
        </Button>
      </form>
    </Modal>
  );
}
