import { API_ROUTES, type PaymentForm } from '@finishline/shared/pure';
import type { AppConfig } from '../config/config';
import { payuRequestHash } from './payuHash';

/** What the gateway's form needs of a stored order (the orders feature's OrderRow has these). */
export interface PayableOrder {
  order_ref: string;
  txnid: string;
  name: string;
  email: string;
  phone: string;
  amount_text: string;
  productinfo: string;
  unlabeled: boolean;
}

/** PayU refuses '|' inside hashed fields; names and product info are cleaned of it. */
export const payuSafe = (text: string, max: number) =>
  text
    .replace(/[|\r\n]/g, ' ')
    .trim()
    .slice(0, max);

/** The hidden form the browser posts to the gateway for a stored order, hash included. */
export function paymentFormFor(config: AppConfig, order: PayableOrder): PaymentForm {
  const [firstname, ...rest] = payuSafe(order.name, 60).split(/\s+/);
  const fields = {
    key: config.payu.key,
    txnid: order.txnid,
    amount: order.amount_text,
    productinfo: order.productinfo,
    firstname: firstname ?? '',
    email: order.email,
    udf1: order.order_ref,
  };
  return {
    ...fields,
    name: order.name,
    lastname: rest.join(' '),
    phone: order.phone,
    hash: payuRequestHash(fields, config.payu.salt),
    surl: `${config.publicApiUrl}${API_ROUTES.paymentSuccess}`,
    furl: `${config.publicApiUrl}${API_ROUTES.paymentFailure}`,
    PAYU_API_URL: config.payu.url,
    order_ref: order.order_ref,
    unlabeled: order.unlabeled,
  };
}
