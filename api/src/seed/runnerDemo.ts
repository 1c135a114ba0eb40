import type { Bill, CartLine, CartRequest } from '@finishline/shared/pure';
import type { AppContext } from '../context';
import type { Db } from '../db/db';
import { findUserByEmail } from '../features/accounts';
import { buildBill } from '../features/cart';
import { insertOrder, orderFieldsOfBill, recordOrderPaid, type OrderRow } from '../features/orders';
import { DEMO_USERS, RUNNER_EMAIL } from './demoData';

/**
 * The demo runner's own purchases, added after the demo seed (its own app_settings row, so it also
 * reaches a data folder seeded before): Order History and My Orders show real orders with photos to
 * download. Each is priced by the shop's buildBill, stored by insertOrder as checkout stores it, and
 * moved to Paid with recordOrderPaid as a gateway's success does (confirmation mail in the outbox).
 *
 * Bought at Ahmedabad Riverfront Half 2026 (BIB AR40608), an event of no demo organiser with no demo
 * partner's photos and without its sponsor offer: the organiser's and partner's figures, and every
 * sponsor cap, stay as they were. Paid a few days before the seed runs, so the downloads (30 days
 * from payment) are open when a visitor signs in as the runner.
 */
export const RUNNER_DEMO_SETTING = 'runner_demo_seed';
export const RUNNER_DEMO_EVENT = 'Ahmedabad Riverfront Half 2026';
export const RUNNER_DEMO_BIB = 'AR40608';

/** Which of the BIB's photos (by capture order) each order holds, and how long ago it was paid. */
const PURCHASES = [
  { photos: [0], paidDaysAgo: 12, downloaded: true },
  { photos: [1, 2, 3], paidDaysAgo: 2, downloaded: false },
];

const DAY_MS = 86_400_000;

/** Adds the runner's orders once; does nothing when its row exists or the runner, event or photos are absent. */
export async function seedRunnerDemo(ctx: AppContext, log: (message: string) => void = () => undefined): Promise<void> {
  // The demo accounts' addresses are the shop's own: proven, also in a data folder seeded before
  // accounts proved their address (the runner's orders there were stored without who placed them).
  await ctx.db.query('update users set email_verified_at = now() where email_verified_at is null and lower(email) = any($1::text[])', [
    DEMO_USERS.map((user) => user.email),
  ]);
  const seeded = async (db: Db) => (await db.query('select 1 from app_settings where key = $1', [RUNNER_DEMO_SETTING])).length > 0;
  if (await seeded(ctx.db)) return;
  const runner = await findUserByEmail(ctx.db, RUNNER_EMAIL);
  const [event] = await ctx.db.query<{ id: number }>('select id from events where name = $1', [RUNNER_DEMO_EVENT]);
  if (!runner || !event) return;
  const photoIds = (
    await ctx.db.query<{ id: number }>(
      `select p.id from photos p join photo_bibs b on b.photo_id = p.id
        where b.event_id = $1 and b.bib_number = $2 and p.kind = 'image' and p.status = 'ready' order by p.seq, p.id`,
      [event.id, RUNNER_DEMO_BIB],
    )
  ).map((row) => row.id);

  // Priced first, through the shop's own bill (it reads outside the transaction below).
  const priced: Array<{ purchase: (typeof PURCHASES)[number]; cart: CartRequest; bill: Bill }> = [];
  for (const purchase of PURCHASES) {
    const ids = purchase.photos.map((index) => photoIds[index]).filter((id): id is number => id !== undefined);
    if (ids.length === 0) continue;
    const lines: CartLine[] = ids.map((id) => ({ type: 'download', category: 'image', id }));
    const cart: CartRequest = {
      eventId: event.id,
      bibNumber: RUNNER_DEMO_BIB,
      searchKind: 'bib',
      packageKind: null,
      lines,
      sponsorofferID: null,
      discountedPhotoIds: [],
    };
    priced.push({ purchase, cart, bill: await buildBill(ctx, cart, { ip: '127.0.0.1', sessionId: null }) });
  }
  if (priced.length === 0) return;

  const profile = DEMO_USERS.find((user) => user.email === RUNNER_EMAIL)!;
  await ctx.db.transaction(async (tx) => {
    if (tx.kind === 'postgres') await tx.query('select pg_advisory_xact_lock(872352)');
    if (await seeded(tx)) return;
    for (const { purchase, cart, bill } of priced) {
      const order = await insertOrder(
        tx,
        {
          userId: runner.id,
          // The runner's own purchases, placed signed in (as checkout stores them).
          placedByUserId: runner.id,
          eventId: event.id,
          bibNumber: RUNNER_DEMO_BIB,
          name: `${profile.firstName} ${profile.lastName}`,
          email: RUNNER_EMAIL,
          phone: profile.primaryPhone,
          isdCode: '+91',
          pincode: '380009',
          status: 'Pending',
          ...orderFieldsOfBill(bill, cart),
        },
        bill.lines,
      );
      const paidAt = new Date(Date.now() - purchase.paidDaysAgo * DAY_MS);
      // The gateway's Pending -> Paid, dated when it happened (a few minutes after checkout).
      const [paid] = await tx.query<OrderRow>(
        `update orders set status = 'Paid', created_at = $2, paid_at = $3, payment_id = $4, payment_mode = 'UPI' where id = $1 returning *`,
        [order.id, new Date(paidAt.getTime() - 4 * 60_000), paidAt, `DEMO${order.id}`],
      );
      await recordOrderPaid(ctx, tx, paid!);
      if (purchase.downloaded) {
        await tx.query(`update orders set status = 'Downloaded', first_download_at = $2 where id = $1`, [order.id, new Date(paidAt.getTime() + 3600_000)]);
      }
    }
    await tx.query('insert into app_settings (key, value) values ($1, $2)', [RUNNER_DEMO_SETTING, JSON.stringify({ version: 1, orders: priced.length })]);
    log(`runner demo: ${priced.length} paid orders for ${RUNNER_EMAIL} (${RUNNER_DEMO_EVENT}, BIB ${RUNNER_DEMO_BIB})`);
  });
}
