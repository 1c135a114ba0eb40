// The payment feature's public entry: settling orders the gateway reports paid (its return routes in
// routes.ts, and the reconciliation job). Talking to the gateway (hashes, the form, verify_payment,
// refunds) is api/src/payu/; what a paid order triggers is the orders feature's (recordOrderPaid).
export { reconcilePendingOrders, type ReconcileResult, type ReconcileSettings } from './reconcile';
