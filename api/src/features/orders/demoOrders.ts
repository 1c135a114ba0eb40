import type { AppContext } from '../../context';

/** app_settings row recording that the orders demo rows exist (the seed runs once). */
const ORDERS_DEMO_SETTING = 'orders_demo_seed';
export const FREE_OFFER_EVENT = 'Ahmedabad Riverfront Half 2026';
export const FREE_OFFER_COUPON = 'FINISHERGIFT';

/**
 * Demo rows for orders, added after the demo seed: a 100% sponsor offer (up to 6 photos) on
 * Ahmedabad Riverfront Half 2026, so a zero-amount order can be tried (e.g. BIB AR40101 with the
 * offer applied to its photos). Does nothing when the event is absent or the rows exist.
 */
export async function seedOrdersDemo(ctx: AppContext, log: (message: string) => void = () => undefined): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const done = await tx.query('select 1 from app_settings where key = $1', [ORDERS_DEMO_SETTING]);
    if (done.length > 0) return;
    const events = await tx.query<{ id: number }>('select id from events where name = $1', [FREE_OFFER_EVENT]);
    if (events.length === 0) return;
    const existing = await tx.query('select 1 from sponsor_offers where event_id = $1 and active', [events[0].id]);
    if (existing.length === 0) {
      await tx.query(
        `insert into sponsor_offers (event_id, coupon_name, sponsor_name, description, discount_type, discount_amount, max_orders_allowed)
         values ($1, $2, 'Riverfront Finishers', 'Your finisher photos are on us: 100% off up to 6 digital photos.', 'percent', 100, 6)`,
        [events[0].id, FREE_OFFER_COUPON],
      );
    }
    await tx.query('insert into app_settings (key, value) values ($1, $2)', [ORDERS_DEMO_SETTING, JSON.stringify({ version: 1 })]);
    log(`orders demo: 100% sponsor offer ${FREE_OFFER_COUPON} on ${FREE_OFFER_EVENT}`);
  });
}
