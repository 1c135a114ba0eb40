import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { insertTestPhoto } from './support/photos';
import { createUser } from '../src/features/accounts/users';
import { partnerSales } from '../src/rules/photoSales';

/**
 * The ledger rule: paid orders' digital lines split evenly over their photos, net of GST and after
 * the sponsor discount; mapped pre-orders over the photos of their BIB; pending orders and prints
 * earn nothing; the share is the percentage agreed for the event.
 */
describe('photo sales: what each photographer earned', () => {
  let t: TestApp;
  let eventId: number;
  let ana: number;
  let ben: number;
  const photos: Record<string, number> = {};
  let orderNo = 0;

  async function order(status: string, bib: string, items: Array<{ kind: string; photoIds: number[]; amount: number; discount?: number }>): Promise<void> {
    orderNo += 1;
    const [o] = await t.ctx.db.query<{ id: number }>(
      `insert into orders (order_ref, txnid, event_id, bib_number, name, email, phone, status, amount, amount_text, productinfo, paid_at)
       values ($1, $1, $2, $3, 'Buyer', 'buyer@example.com', '9876543210', $4, 0, '0.00', 'photos', case when $4 = 'Pending' then null else now() end) returning id`,
      [`FLTEST${orderNo}`, eventId, bib, status],
    );
    for (const item of items) {
      await t.ctx.db.query(`insert into order_items (order_id, kind, label, photo_ids, amount, discount) values ($1, $2, $2, $3, $4, $5)`, [
        o.id,
        item.kind,
        item.photoIds,
        item.amount,
        item.discount ?? 0,
      ]);
    }
  }

  beforeAll(async () => {
    t = await startTestApp();
    const db = t.ctx.db;
    eventId = (
      await db.query<{ id: number }>(`insert into events (name, from_date, to_date) values ('Ledger Run 2026', '2026-10-04', '2026-10-04') returning id`)
    )[0].id;
    ana = await createUser(db, { firstName: 'Ana', lastName: 'Lens', email: 'ana.lens@example.com', password: 'Finish@2026', isPartner: true });
    ben = await createUser(db, { firstName: 'Ben', lastName: 'Lens', email: 'ben.lens@example.com', password: 'Finish@2026', isPartner: true });
    await db.query(`insert into event_partners (event_id, user_id, status, share_percent) values ($1, $2, 'approved', 70), ($1, $3, 'approved', 60)`, [
      eventId,
      ana,
      ben,
    ]);
    for (const [name, bib, partner] of [
      ['a1', 'R1', ana],
      ['a2', 'R1', ana],
      ['b1', 'R1', ben],
      ['b2', 'R2', ben],
      ['seed', 'R2', null],
    ] as const) {
      photos[name] = await insertTestPhoto(db, { eventId, bib, imageId: `LED-${name}` });
      if (partner) await db.query('update photos set partner_user_id = $1 where id = $2', [partner, photos[name]]);
    }
    // 3 photos for 200 with 20 off: 60 each. A print of a1 earns nothing.
    await order('Paid', 'R1', [
      { kind: 'images', photoIds: [photos.a1, photos.a2, photos.b1], amount: 200, discount: 20 },
      { kind: 'print', photoIds: [photos.a1], amount: 739 },
    ]);
    // Downloaded counts as paid: a video-like single line of 150 for a2.
    await order('Downloaded', 'R1', [{ kind: 'video', photoIds: [photos.a2], amount: 150 }]);
    // Pending earns nothing.
    await order('Pending', 'R1', [{ kind: 'images', photoIds: [photos.a1], amount: 100 }]);
    // A mapped pre-order of 300 over BIB R2's two photos: 150 each (b2 is Ben's, the other is the seed's).
    await order('Paid', 'R2', [{ kind: 'preorder', photoIds: [], amount: 300 }]);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('splits paid digital lines evenly over their photos and applies each event share', async () => {
    const rows = await partnerSales(t.ctx.db, { eventId });
    const byPartner = new Map(rows.map((r) => [r.partner_user_id, r]));
    expect(byPartner.get(ana)).toMatchObject({ orders: 2, partner_images: 3, images_in_orders: 4, sales: 270, share: 189, share_percent: 70 });
    expect(byPartner.get(ben)).toMatchObject({ orders: 2, partner_images: 2, images_in_orders: 5, sales: 210, share: 126, share_percent: 60 });
  });

  it('filters by partner', async () => {
    const rows = await partnerSales(t.ctx.db, { partnerUserId: ben });
    expect(rows.map((r) => [r.event_id, r.partner_user_id])).toEqual([[eventId, ben]]);
  });
});
