import type { AppContext } from '../../context';
import { downloadUntil, preauthUrl, recordPurchaseNotification, signPreauth, type OrderRow } from '../orders';

/** Link to the order's download page that works signed out until downloads expire. */
export function preauthLinkOf(ctx: AppContext, order: OrderRow): string {
  const paidAt = order.paid_at ? new Date(order.paid_at) : new Date();
  return preauthUrl(ctx.config.shellUrl, signPreauth(ctx.config.signingSecret, order.order_ref, order.email, downloadUntil(paidAt)));
}

async function eventNameOf(ctx: AppContext, eventId: number): Promise<string> {
  const rows = await ctx.db.query<{ name: string }>('select name from events where id = $1', [eventId]);
  return rows[0]?.name ?? 'the race';
}

/**
 * Runs once per order, right after the transition to Paid: the confirmation mail with the
 * pre-authorised download link, and the marquee's purchase notification. Only an order with money
 * received through the gateway sets the marquee; a zero-amount order proves no purchase.
 */
export async function onOrderPaid(ctx: AppContext, order: OrderRow): Promise<void> {
  const eventName = await eventNameOf(ctx, order.event_id);
  if (Number(order.amount) > 0) await recordPurchaseNotification(ctx.db, order, eventName);

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
  await ctx.mailer.send({
    to: order.email,
    subject: order.is_preorder ? `Your pre-order ${order.order_ref} is confirmed` : `Your order ${order.order_ref} is confirmed`,
    text: lines.join('\n\n'),
    tag: 'order_confirmation',
  });
}
