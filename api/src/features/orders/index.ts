// The orders feature's public entry: stored orders, who may see them, their download links, and what
// a paid order sets off: its confirmation (confirmation.ts: the mail, the purchase notification).
export { accountOwnsOrderSql, orderForCaller, withheldOrderCount } from './access';
export { confirmPaidOrder, recordOrderPaid } from './confirmation';
export { CREATE_ORDER_FAILED_MESSAGE, orderFieldsOfBill, userIdForGuest } from './createOrder';
export { purchasedMedia } from './orderDetail';
export { findOrderByRef, findOrderByTxnid, insertOrder, isPaidStatus, type OrderRow } from './orderStore';
export { DOWNLOADS_EXPIRED_MESSAGE, downloadUntil, preauthUrl, signPreauth } from './preauth';
export {
  notificationFrom,
  PURCHASE_NOTIFICATION_SETTING,
  publicNotificationSql,
  purchaseNotification,
  recordPurchaseNotification,
} from './purchaseNotification';
