import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, App, Button, Modal } from 'antd';
import { useForm } from 'react-hook-form';
import { TextFields } from '@finishline/shared/react';
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
    () => ({
      race: prefill?.race || 'Pre-order',
      orderID: prefill?.orderID ?? '',
      bibNo: '',
      email: prefill?.email ?? '',
      phone_number: prefill?.phone_number ?? '',
    }),
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
      const answer = await ordersApi.generatePreorderLink({
        orderId: values.orderID,
        orderEmail: values.email,
        orderBibNumber: values.bibNo,
        mobilenum: values.phone_number,
      });
      message.success(answer.message, 3);
      const url = new URL(answer.result.link);
      reset();
      onClose();
      navigate(`${url.pathname}${url.search}`);
    } catch (e) {
      setError(isApiError(e) ? e.message : 'Something went wrong !');
    }
  });
  return (
    <Modal open={open} onCancel={onClose} title="Pre-Booked Photos" footer={null} destroyOnHidden>
      <form onSubmit={submit} noValidate aria-label="Pre-Booked Photos">
        <TextFields<PreorderLinkFormValues>
          control={control}
          idPrefix="prebook"
          submitted={formState.isSubmitted}
          showErrorsAtOnce
          fields={[
            { name: 'race', label: 'Race', readOnly: true },
            { name: 'orderID', label: 'Order ID', readOnly: Boolean(prefill?.orderID) },
            { name: 'bibNo', label: 'BIB number' },
            { name: 'email', label: 'Email', type: 'email', readOnly: Boolean(prefill?.email) },
            { name: 'phone_number', label: 'Phone number', inputMode: 'numeric', readOnly: Boolean(prefill?.phone_number) },
          ]}
        />
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
