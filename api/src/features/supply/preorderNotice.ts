import type { AppContext } from '../../context';
import { downloadUntil, preauthUrl, signPreauth } from '../orders';

/**
 * When photos of BIBs become ready, each paid pre-order mapped to one of them that was not mailed
 * yet is mailed its download link: once per order, claimed by one update (photos_ready_mailed_at),
 * so two photos of the same BIB finishing together still mail once.
 */
export async function mailPreordersOfBibs(ctx: AppContext, eventId: number, bibs: string[]): Promise<number> {
  if (bibs.length === 0) return 0;
  const orders = await ctx.db.query<{ order_ref: string; email: string; bib_number: string; paid_at: Date | null; event_name: string }>(
    `update orders o set photos_ready_mailed_at = now()
       from events e
      where e.id = o.event_id and o.event_id = $1 and o.is_preorder and o.bib_number = any($2::text[])
        and o.status in ('Paid', 'Downloaded') and o.photos_ready_mailed_at is null
      returning o.order_ref, o.email, o.bib_number, o.paid_at, e.name as event_name`,
    [eventId, bibs],
  );
  for (const order of orders) {
    const paidAt = order.paid_at ? new Date(order.paid_at) : new Date();
    const link = preauthUrl(ctx.config.shellUrl, signPreauth(ctx.config.signingSecret, order.order_ref, order.email, downloadUntil(paidAt)));
    await ctx.mailer.send({
      to: order.email,
      subject: `Your photos of ${order.event_name} are ready`,
      text: [
        `The first photos of BIB ${order.bib_number} at ${order.event_name} are ready.`,
        `Order ID: ${order.order_ref}. More photos are added as photographers upload them.`,
        `Download your photos here: ${link}`,
      ].join('\n\n'),
      tag: 'preorder_photos_ready',
    });
  }
  return orders.length;
}
