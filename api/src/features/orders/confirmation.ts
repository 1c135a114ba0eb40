import type { AppContext } from '../../context';
import type { Db } from '../../db/db';
import { deliverMail, enqueueMail } from '../../mail/outbox';
import type { OrderRow } from './orderStore';
import { downloadUntil, preauthUrl, signPreauth } from './preauth';
import { recordPurchaseNotification } from './purchaseNotification';

/** Link to the order's download page that works signed out until downloads expire. */
export function preauthLinkOf(ctx: AppContext, order: OrderRow): string {
  const paidAt = order.paid_at ? new Date(order.paid_at) : new Date();
  return preauthUrl(ctx.config.shellUrl, signPreauth(ctx.config.signingSecret, order.order_ref, order.email, downloadUntil(paidAt)));
}

async function eventOf(db: Db, eventId: number): Promise<{ name: string; privacy_check: boolean }> {
  const rows = await db.query<{ name: string; privacy_check: boolean }>('select name, privacy_check from events where id = $1', [eventId]);
  return rows[0] ?? { name: 'the race', privacy_check: false };
}

/** The outbox key of an order's confirmation: one mail per order, however often it is reported paid. */
export const confirmationKeyOf = (order: Pick<OrderRow, 'id'>) => `order_confirmation:${order.id}`;

/**
 * Runs inside the transaction that moves an order to Paid, so that either both happen or neither:
 * the confirmation mail with the pre-authorised download link goes into the outbox, and the marquee's
 * purchase notification is set. Only an order with money received through the gateway sets the
 * marquee; a zero-amount order proves no purchase.
 */
export async function recordOrderPaid(ctx: AppContext, tx: Db, order: OrderRow): Promise<void> {
  const event = await eventOf(tx, order.event_id);
  const eventName = event.name;
  if (Number(order.amount) > 0) await recordPurchaseNotification(tx, order, event);

  const link = preauthLinkOf(ctx, order);
  const amount = `₹${Number(order.amount).toFixed(2)}`;
  const lines = order.is_preorder
    ? [
        `Thank you for pre-ordering photos of ${eventName}.`,
        `Order ID: ${order.order_ref}. Amount paid: ${amount}.`,
        'After the race, map this order to your BIB with "Pre-Booked Photos" on the home page (Order ID, BIB, this email and your phone number).',
        `Your photos will then be at: ${link}`,
      ]
    : [
        `Thank you. Your order has been placed successfully!`,
        `Order ID: ${order.order_ref} for BIB ${order.bib_number} at ${eventName}. Amount paid: ${amount}.`,
        `Download your photos here (the link works for 30 days): ${link}`,
      ];
  await enqueueMail(
    tx,
    {
      to: order.email,
      subject: order.is_preorder ? `Your pre-order ${order.order_ref} is confirmed` : `Your order ${order.order_ref} is confirmed`,
      text: lines.join('\n\n'),
      tag: 'order_confirmation',
    },
    { dedupeKey: confirmationKeyOf(order), orderId: order.id },
  );
}

/**
 * After the Paid transaction committed: try to send the confirmation at once, so the buyer has it
 * before the success page loads. A failure never undoes the payment and loses nothing: the mail
 * stays in the outbox and the queue's mail job retries it.
 */
export async function confirmPaidOrder(ctx: AppContext, order: OrderRow, log: (error: unknown) => void): Promise<void> {
  try {
    const rows = await ctx.db.query<{ id: number }>('select id from mail_outbox where dedupe_key = $1 and sent_at is null', [confirmationKeyOf(order)]);
    if (rows[0] && !(await deliverMail({ db: ctx.db, mailer: ctx.mailer, retrySeconds: ctx.config.mail.retrySeconds }, Number(rows[0].id)))) {
      log(new Error(`confirmation of order ${order.order_ref} not sent yet; the mail job retries it`));
    }
  } catch (error) {
    log(error);
  }
}
