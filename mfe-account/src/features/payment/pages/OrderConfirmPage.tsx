import { useEffect, useRef } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { Button, Spin } from 'antd';
import { STORAGE_KEYS, type PaymentForm, localStore } from '@finishline/shared';
import { useDocumentTitle } from '@finishline/shared/react';

/**
 * /order-confirm and /order-confirmation: stores the transaction id and email, then auto-submits
 * the hidden form to the payment provider with the server's fields and hash.
 */
export function OrderConfirmPage() {
  const payment = ((useLocation().state ?? {}) as { payment?: PaymentForm }).payment;
  const formRef = useRef<HTMLFormElement | null>(null);
  useDocumentTitle('Order confirmation');

  useEffect(() => {
    if (!payment) return;
    localStore.set(STORAGE_KEYS.txnid, payment.txnid);
    localStore.set(STORAGE_KEYS.email, payment.email);
    const timer = window.setTimeout(() => formRef.current?.submit(), 400);
    return () => window.clearTimeout(timer);
  }, [payment]);

  if (!payment) return <Navigate to="/cart" replace />;
  const fields: Record<string, string> = {
    key: payment.key,
    txnid: payment.txnid,
    productinfo: payment.productinfo,
    amount: payment.amount,
    email: payment.email,
    firstname: payment.firstname,
    lastname: payment.lastname,
    surl: payment.surl,
    furl: payment.furl,
    phone: payment.phone,
    hash: payment.hash,
    udf1: payment.udf1,
  };
  return (
    <div style={{ maxWidth: 520, margin: '64px auto', textAlign: 'center', padding: '0 16px' }}>
      <Spin size="large" />
      <h1 style={{ fontSize: 22, marginTop: 24 }}>Taking you to the secure payment page…</h1>
      <p>
        Order {payment.order_ref} · ₹{payment.amount}
      </p>
      <form ref={formRef} method="post" action={payment.PAYU_API_URL} aria-label="Payment">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Button type="primary" size="large" htmlType="submit" loading>
          In Progress
        </Button>
      </form>
    </div>
  );
}
