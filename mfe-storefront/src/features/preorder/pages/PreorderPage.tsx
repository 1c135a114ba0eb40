import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { App, Button, Input } from 'antd';
import { Controller, useForm } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import {
  isApiError,
  ordersApi,
  PREBOOK_BIB,
  preorderFormSchema,
  STORAGE_KEYS,
  type PreorderFormValues,
  type PreorderInfoResult,
  localStore,
  storedIsdCode,
} from '@finishline/shared';
import { CaptchaField, FormField, TextFields, useDocumentTitle } from '@finishline/shared/react';

export const PREORDER_NOTES = [
  'After the race, map your Order ID to your BIB with Pre-Booked Photos on the home page to get your download link.',
  'Use the same email and phone number when you map the order.',
  'Mapping an Order ID to a BIB is permanent.',
];
export const PREORDER_TERMS = [
  'Digital downloads are non-refundable.',
  'Downloads are available for 30 days after mapping.',
  'If no photos of your BIB are found, write to support within 7 days of the race.',
];

const formatDate = (iso: string) => new Date(`${iso}T00:00:00`).toLocaleDateString('en-IN', { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * /preorder?eventId=: pay now for the photos of an upcoming race as a guest (captcha), with bib
 * 'prebook'; the order is paid through the payment provider like any other.
 */
export function PreorderPage() {
  const [params] = useSearchParams();
  const navState = (useLocation().state ?? {}) as { eventName?: string };
  const navigate = useNavigate();
  const { message } = App.useApp();
  const eventId = Number(params.get('eventId'));
  const [info, setInfo] = useState<PreorderInfoResult | null>(null);
  const [failed, setFailed] = useState(false);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaReset, setCaptchaReset] = useState(0);
  const event = info?.eventslist[0];
  useDocumentTitle(`Pre-order ${event?.event_name ?? navState.eventName ?? ''}`.trim());

  const { control, handleSubmit, formState } = useForm<PreorderFormValues>({
    resolver: yupResolver(preorderFormSchema),
    defaultValues: { name: '', email: '', phone_number: '' },
    mode: 'onTouched',
  });

  useEffect(() => {
    let alive = true;
    let timer: number | undefined;
    ordersApi
      .preorderInfo(eventId)
      .then(({ result }) => alive && setInfo(result))
      .catch((error) => {
        if (!alive) return;
        message.error(isApiError(error) ? error.message : 'Something went wrong !', 4);
        setFailed(true);
        timer = window.setTimeout(() => navigate('/'), 1000);
      });
    return () => {
      alive = false;
      if (timer) window.clearTimeout(timer);
    };
  }, [eventId, message, navigate]);

  const pay = handleSubmit(async (values) => {
    if (!captcha || !event) return;
    try {
      const { result } = await ordersApi.createPreorder({
        ...values,
        newUserFlg: 1,
        isdCode: storedIsdCode(),
        eventID: event.event_id,
        eventName: event.event_name,
        bibNumber: PREBOOK_BIB,
        registration_ref: 'NA',
        captcha,
      });
      localStore.set(STORAGE_KEYS.txnid, result.txnid);
      navigate('/order-confirm', { state: { payment: result } });
    } catch (error) {
      message.warning(isApiError(error) ? error.message : 'Something went wrong while creating order.', 3);
      setCaptcha(null);
      setCaptchaReset((n) => n + 1);
    }
  });

  if (failed) return <p style={{ textAlign: 'center', padding: 48 }}>Something went wrong !</p>;
  return (
    <div style={{ maxWidth: 960, margin: '24px auto', padding: '0 16px 48px' }}>
      <h1 style={{ fontSize: 26 }}>Pre-order {event?.event_name ?? navState.eventName ?? ''}</h1>
      {event ? (
        <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap' }}>
          <section style={{ flex: '1 1 280px' }}>
            {event.event_logo ? <img src={event.event_logo} alt={event.event_name} style={{ width: 120, height: 120, objectFit: 'contain' }} /> : null}
            <h2 style={{ fontSize: 20 }}>{event.event_name}</h2>
            <p data-testid="preorder-date">
              {event.event_from_date === event.event_to_date
                ? `On ${formatDate(event.event_from_date)}`
                : `${formatDate(event.event_from_date)} - ${formatDate(event.event_to_date)}`}
            </p>
            <p data-testid="preorder-price" style={{ fontSize: 22, fontWeight: 600 }}>
              ₹{info?.preorderprice.price} <span style={{ fontSize: 14, fontWeight: 400 }}>(incl. GST)</span>{' '}
              {info?.preorderprice.cut_price ? <s style={{ color: '#595959', fontSize: 16 }}>₹{info.preorderprice.cut_price}</s> : null}
            </p>
            <h3>Note</h3>
            <ul>
              {PREORDER_NOTES.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
            <h3>Terms and Conditions</h3>
            <ul>
              {PREORDER_TERMS.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          </section>
          <section style={{ flex: '1 1 320px' }}>
            <h2 style={{ fontSize: 20 }}>Guest Checkout</h2>
            <form onSubmit={pay} noValidate aria-label="Pre-order">
              <TextFields<PreorderFormValues>
                control={control}
                idPrefix="preorder"
                submitted={formState.isSubmitted}
                showErrorsAtOnce
                fields={[
                  { name: 'name', label: 'Name', autoComplete: 'name' },
                  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
                ]}
              />
              {/* The number is sent with the stored country code: show it before the field, as checkout does. */}
              <Controller
                name="phone_number"
                control={control}
                render={({ field, fieldState }) => (
                  <FormField label="Phone number" htmlFor="preorder-phone_number" error={fieldState.error?.message}>
                    <Input
                      id="preorder-phone_number"
                      inputMode="numeric"
                      autoComplete="tel-national"
                      prefix={<span aria-hidden="true">{storedIsdCode()}</span>}
                      {...field}
                    />
                  </FormField>
                )}
              />
              <CaptchaField resetKey={captchaReset} onChange={setCaptcha} />
              <div style={{ display: 'flex', gap: 12, marginTop: 12 }}>
                <Button onClick={() => navigate(-1)}>Back</Button>
                <Button type="primary" htmlType="submit" disabled={!captcha} loading={formState.isSubmitting}>
                  {info ? `Pay ₹${info.preorderprice.price}` : 'Pay'}
                </Button>
              </div>
            </form>
          </section>
        </div>
      ) : (
        <p>Processing...</p>
      )}
    </div>
  );
}
