import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, type OrderDetail, type OrderHistoryResult, type OrganiserDashboardResult, type PartnerShareResult } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { seedDemo } from '../src/seed/seedDemo';
import { seedOrdersDemo } from '../src/features/orders/demoOrders';
import { seedOrganiserDemo } from '../src/seed/organiserDemo';
import { RUNNER_DEMO_BIB, RUNNER_DEMO_EVENT, seedRunnerDemo } from '../src/seed/runnerDemo';
import { createSession } from '../src/features/accounts/sessions';
import { findUserByEmail } from '../src/features/accounts/users';

/** The demo runner signs in to a real order history, and nobody else's figures move. */
describe('runner demo orders', () => {
  let t: TestApp;
  const bearer = async (email: string) => ({ authorization: `Bearer ${(await createSession(t.ctx.db, (await findUserByEmail(t.ctx.db, email))!.id)).token}` });
  /** Every figure of the organiser's dashboards (each of their events) and the partner's share page. */
  const othersFigures = async () => {
    const organiser = await bearer('organiser@finishline.test');
    const events = await t.ctx.db.query<{ id: number }>(
      `select e.id from events e join users u on u.id = e.organiser_user_id where u.email = 'organiser@finishline.test' order by e.id`,
    );
    const dashboards = [];
    for (const e of events)
      dashboards.push((await t.request<OrganiserDashboardResult>('POST', API_ROUTES.organiserDashboard, { event_id: e.id }, organiser)).body.result.totals);
    const share = await t.request<PartnerShareResult>(
      'POST',
      API_ROUTES.partnerShare,
      { userid: 'partner@finishline.test' },
      await bearer('partner@finishline.test'),
    );
    return { dashboards, share: share.body.result };
  };
  let before: Awaited<ReturnType<typeof othersFigures>>;

  beforeAll(async () => {
    t = await startTestApp();
    await seedDemo(t.ctx, { photos: 'small' });
    await seedOrdersDemo(t.ctx);
    await seedOrganiserDemo(t.ctx);
    before = await othersFigures();
    // Something to compare: every dashboard answered, the partner sold at two events.
    expect(before.dashboards.length).toBeGreaterThan(1);
    expect(before.dashboards.every((totals) => totals !== undefined)).toBe(true);
    expect(before.share.usr_revenue).toHaveLength(2);
    await seedRunnerDemo(t.ctx);
    await seedRunnerDemo(t.ctx);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('the runner’s Order History holds two paid orders of their BIB, once however often the seed runs', async () => {
    const history = await t.request<OrderHistoryResult>('POST', API_ROUTES.orderHistory, { searchtext: '' }, await bearer('runner@finishline.test'));
    expect(history.status).toBe(200);
    const rows = history.body.result.order_history;
    expect(rows.map((r) => [r.name, r.bib_id, r.status])).toEqual(
      expect.arrayContaining([
        [RUNNER_DEMO_EVENT, RUNNER_DEMO_BIB, 'Paid'],
        [RUNNER_DEMO_EVENT, RUNNER_DEMO_BIB, 'Downloaded'],
      ]),
    );
    expect(rows).toHaveLength(2);
    // Priced by the shop's rule: one photo is 100 rupees plus 18% GST (the small seed gives the BIB two photos, one per order).
    expect(rows.map((r) => [r.photos_count, r.price, r.payment_id !== null])).toEqual([
      [1, 118, true],
      [1, 118, true],
    ]);
  });

  it('My Orders shows each order’s photos to download, open for 30 days from payment; a confirmation mail went out', async () => {
    const runner = await bearer('runner@finishline.test');
    const orders = await t.ctx.db.query<{ order_ref: string; paid_at: Date }>(
      `select order_ref, paid_at from orders where email = 'runner@finishline.test' order by paid_at`,
    );
    expect(orders).toHaveLength(2);
    for (const order of orders) {
      const detail = await t.request<OrderDetail>('POST', `${API_ROUTES.myOrder}?orderid=${order.order_ref}`, {}, runner);
      expect(detail.status).toBe(200);
      expect(detail.body.result.photo).toHaveLength(1);
      expect(Date.parse(detail.body.result.download_until!)).toBeGreaterThan(Date.now());
    }
    const mails = await t.ctx.db.query<{ subject: string }>(
      `select subject from mail_outbox where to_address = 'runner@finishline.test' and tag = 'order_confirmation' order by id`,
    );
    expect(mails.map((m) => m.subject)).toEqual(orders.map((o) => `Your order ${o.order_ref} is confirmed`));
  });

  it('leaves the organiser’s dashboards, the partner’s share and every sponsor cap as they were', async () => {
    expect(await othersFigures()).toEqual(before);
    expect(
      await t.ctx.db.query(`select 1 from orders where email = 'runner@finishline.test' and (sponsor_offer_id is not null or sponsor_photo_count > 0)`),
    ).toEqual([]);
  });
});
