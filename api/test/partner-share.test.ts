import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, type PartnerPayout, type PartnerShareResult } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { insertTestPhoto } from './support/photos';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';

/**
 * My Share from real paid orders: each partner sees the paid orders holding their photos, at the
 * share agreed for each event, per day, and what the organiser has paid out; nobody sees another
 * partner's figures, and a runner or an unapproved partner is refused.
 */
describe('partner share (My Share) and payouts', () => {
  let t: TestApp;
  let eventId: number;
  let secondEventId: number;
  let ana: number;
  let ben: number;
  const tokens: Record<string, string> = {};
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  let orderNo = 0;

  async function order(
    event: number,
    status: string,
    paidAt: string | null,
    items: Array<{ kind: string; photoIds: number[]; amount: number; discount?: number }>,
  ) {
    orderNo += 1;
    const [o] = await t.ctx.db.query<{ id: number }>(
      `insert into orders (order_ref, txnid, event_id, bib_number, name, email, phone, status, amount, amount_text, productinfo, paid_at)
       values ($1, $1, $2, 'R1', 'Buyer', 'buyer@example.com', '9876543210', $3, 0, '0.00', 'photos', $4) returning id`,
      [`FLSHARE${orderNo}`, event, status, paidAt],
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
    const organiser = await createUser(db, { firstName: 'Olga', lastName: 'Org', email: 'olga.share@example.com', password: 'Finish@2026', isOrganiser: true });
    const rival = await createUser(db, { firstName: 'Ravi', lastName: 'Rival', email: 'ravi.share@example.com', password: 'Finish@2026', isOrganiser: true });
    const runner = await createUser(db, { firstName: 'Runa', lastName: 'Runner', email: 'runa@example.com', password: 'Finish@2026' });
    ana = await createUser(db, { firstName: 'Ana', lastName: 'Lens', email: 'ana.share@example.com', password: 'Finish@2026', isPartner: true });
    ben = await createUser(db, { firstName: 'Ben', lastName: 'Lens', email: 'ben.share@example.com', password: 'Finish@2026', isPartner: true });
    eventId = (
      await db.query<{ id: number }>(
        `insert into events (name, from_date, to_date, organiser_user_id) values ('Share Run 2026', '2026-10-04', '2026-10-04', $1) returning id`,
        [organiser],
      )
    )[0].id;
    secondEventId = (
      await db.query<{ id: number }>(
        `insert into events (name, from_date, to_date, organiser_user_id) values ('Share Trail 2026', '2026-11-01', '2026-11-01', $1) returning id`,
        [rival],
      )
    )[0].id;
    await db.query(
      `insert into event_partners (event_id, user_id, status, share_percent) values ($1, $2, 'approved', 70), ($1, $3, 'approved', 60), ($4, $2, 'approved', 50)`,
      [eventId, ana, ben, secondEventId],
    );
    const photo = async (event: number, name: string, partner: number | null) => {
      const id = await insertTestPhoto(db, { eventId: event, bib: 'R1', imageId: `SHR-${name}` });
      if (partner) await db.query('update photos set partner_user_id = $1 where id = $2', [partner, id]);
      return id;
    };
    const a1 = await photo(eventId, 'a1', ana);
    const a2 = await photo(eventId, 'a2', ana);
    const b1 = await photo(eventId, 'b1', ben);
    const a3 = await photo(secondEventId, 'a3', ana);
    // Share Run: 3 photos for 200 with 20 off (60 each: a1, a2 to Ana, b1 to Ben), on 5 Oct India time.
    await order(eventId, 'Paid', '2026-10-05T04:00:00Z', [{ kind: 'images', photoIds: [a1, a2, b1], amount: 200, discount: 20 }]);
    // A video line of 150 for a2, downloaded, paid late on 6 Oct UTC which is 7 Oct in India.
    await order(eventId, 'Downloaded', '2026-10-06T20:00:00Z', [{ kind: 'video', photoIds: [a2], amount: 150 }]);
    // Pending and cancelled orders earn nothing.
    await order(eventId, 'Pending', null, [{ kind: 'images', photoIds: [a1], amount: 100 }]);
    await order(eventId, 'Cancelled', null, [{ kind: 'images', photoIds: [a1], amount: 100 }]);
    // Share Trail: one photo of Ana's for 100, at 50%.
    await order(secondEventId, 'Paid', '2026-11-02T06:00:00Z', [{ kind: 'images', photoIds: [a3], amount: 100 }]);
    for (const [who, id] of [
      ['organiser', organiser],
      ['rival', rival],
      ['runner', runner],
      ['ana', ana],
      ['ben', ben],
    ] as const)
      tokens[who] = (await createSession(db, id)).token;
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('gives each event’s rows from the paid orders holding the partner’s photos, at the agreed share', async () => {
    const res = await t.request<PartnerShareResult>('POST', API_ROUTES.partnerShare, { userid: 'ana.share@example.com' }, as('ana'));
    expect(res.status).toBe(200);
    const rows = res.body.result.usr_revenue;
    expect(rows).toEqual([
      { event_id: secondEventId, event_name: 'Share Trail 2026', price: 100, totalorders: 1, totalimages: 1, userimages: 1, share_percent: 50, usr_share: 50 },
      // 60 + 60 + 150 = 270 of sales; 70% = 189. Two orders, four photos in them, three of Ana's.
      { event_id: eventId, event_name: 'Share Run 2026', price: 270, totalorders: 2, totalimages: 4, userimages: 3, share_percent: 70, usr_share: 189 },
    ]);
    expect(res.body.result.eventdetails.map((e) => e.event_name)).toEqual(['Share Trail 2026', 'Share Run 2026']);
    expect(res.body.result.daily).toEqual([
      { day: '2026-10-05', userimages: 2, usr_share: 84 },
      { day: '2026-10-07', userimages: 1, usr_share: 105 },
      { day: '2026-11-02', userimages: 1, usr_share: 50 },
    ]);
    expect(res.body.result.payouts).toEqual({ earned: 239, paid: 0, pending: 239, list: [] });
  });

  it('narrows to one event on GET DATA, and shows Ben only his own figures', async () => {
    const one = await t.request<PartnerShareResult>('POST', API_ROUTES.partnerShare, { eventId }, as('ana'));
    expect(one.body.result.usr_revenue.map((r) => r.event_id)).toEqual([eventId]);
    const mine = await t.request<PartnerShareResult>('POST', API_ROUTES.partnerShare, { eventId }, as('ben'));
    expect(mine.body.result.usr_revenue).toEqual([
      { event_id: eventId, event_name: 'Share Run 2026', price: 60, totalorders: 1, totalimages: 3, userimages: 1, share_percent: 60, usr_share: 36 },
    ]);
    expect(JSON.stringify(mine.body)).not.toContain('Share Trail');
  });

  it('refuses a visitor, a runner, an organiser, an unapproved event and another partner’s email', async () => {
    expect((await t.request('POST', API_ROUTES.partnerShare, {})).status).toBe(401);
    expect((await t.request('POST', API_ROUTES.partnerShare, {}, as('runner'))).status).toBe(403);
    expect((await t.request('POST', API_ROUTES.partnerShare, { eventId }, as('organiser'))).status).toBe(403);
    // Ben is no partner of Share Trail.
    expect((await t.request('POST', API_ROUTES.partnerShare, { eventId: secondEventId }, as('ben'))).status).toBe(403);
    expect((await t.request('POST', API_ROUTES.partnerShare, { userid: 'ana.share@example.com' }, as('ben'))).status).toBe(403);
    const bad = await t.request('POST', API_ROUTES.partnerShare, { eventId: 'x' }, as('ana'));
    expect([bad.status, bad.body.Message]).toEqual([400, 'Please choose an event.']);
  });

  it('records payouts by the event’s organiser only, never above the share still to pay', async () => {
    const pay = (who: string, amount: number, event = eventId) =>
      t.request<PartnerPayout>('POST', API_ROUTES.recordPartnerPayout, { eventId: event, partnerUserId: ana, amount, reference: 'UTR 1001' }, as(who));
    expect((await pay('rival', 10)).status).toBe(403);
    expect((await pay('ana', 10)).status).toBe(403);
    expect((await pay('runner', 10)).status).toBe(403);
    const tooMuch = await pay('organiser', 189.01);
    expect([tooMuch.status, tooMuch.body.Message]).toEqual([400, 'The payout is more than the share still to pay (₹189).']);
    const zero = await pay('organiser', 0);
    expect(zero.body.Message).toBe('The amount is rupees greater than 0.');
    const ok = await pay('organiser', 150);
    expect(ok.status).toBe(200);
    expect(ok.body.result).toMatchObject({ event_id: eventId, event_name: 'Share Run 2026', amount: 150, reference: 'UTR 1001' });
    expect((await pay('organiser', 40)).body.Message).toBe('The payout is more than the share still to pay (₹39).');
    const share = await t.request<PartnerShareResult>('POST', API_ROUTES.partnerShare, {}, as('ana'));
    expect(share.body.result.payouts).toMatchObject({ earned: 239, paid: 150, pending: 89 });
    expect(share.body.result.payouts.list).toHaveLength(1);
    // Ben sees none of Ana's payouts.
    const ben = await t.request<PartnerShareResult>('POST', API_ROUTES.partnerShare, {}, as('ben'));
    expect(ben.body.result.payouts).toEqual({ earned: 36, paid: 0, pending: 36, list: [] });
  });
});
