// The payment feature's public entry: the gateway form of an order, its confirmation and reconciliation.
export { paymentFormFor, payuSafe } from './paymentForm';
export { confirmPaidOrder, recordOrderPaid } from './afterPayment';
export { reconcilePendingOrders, type ReconcileResult, type ReconcileSettings } from './reconcile';
export { refundPayment, type RefundAnswer } from './refundPayment';
