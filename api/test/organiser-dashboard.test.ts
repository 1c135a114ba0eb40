import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, type OrderHistoryRow, type OrganiserDashboardResult, type PartnerShareRow } from '@finishline/shared/pure';
import { SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { postBack, startPaymentTestApp, type PaymentTestApp } from './support/paymentApp';
import { as, image, placeOrder, print, runnerHistory, seedOrganiserFixture, video, type OrganiserFixture } from './organiserFixtures';

/**
 * The Event Dashboard through the real API: the runner places orders through checkout and pays at
 * the sandbox gateway; every figure of the organiser's dashboard must then be what the runner's own
 * order history says (Order Value, GST, Photos), and each breakdown must add up to it.
 */
describe('organiser: Event Dashboard figures from real orders', () => {
  let p: PaymentTestApp;
  let f: OrganiserFixture;
  let history: OrderHistoryRow[];
  let dashboard: OrganiserDashboardResult;

  beforeAll(async () => {
    p = await startPaymentTestApp();
    f = await seedOrganiserFixture(p.t.ctx);
    const t = p.t;
    // Searches and a cart by two visitors mark the first funnel steps.
    await t.request('POST', API_ROUTES.searchByBib, { eventID: f.eventId, bibNumber: f.bib }, as(f.tokens.runner));
    await t.request('POST', API_ROUTES.searchByBib, { eventID: f.eventId, bibNumber: f.bib }, as(f.tokens.runner));
    await t.request('POST', API_ROUTES.searchByBib, { eventID: f.eventId, bibNumber: 'LH102' });
    await t.request(
      'POST',
      API_ROUTES.cartDetails,
      {
        eventId: f.eventId,
        bibNumber: f.bib,
        searchKind: 'bib',
        packageKind: null,
        lines: [image(f.photoIds[0]!)],
        sponsorofferID: null,
        discountedPhotoIds: [],
      },
      as(f.tokens.runner),
    );

    const pay = async (form: Awaited<ReturnType<typeof placeOrder>>) => {
      const back = await p.pay(form);
      expect((await postBack(back.action, back.fields)).status).toBe(303);
    };
    // 1: two photos of the photographer (150 + GST). 2: three photos, a video and a print, 20% off two photos.
    // 3: one photo, paid and downloaded. 4: left at the gateway (pending, dropped once it is old).
    await pay(await placeOrder(t, f, [image(f.photoIds[0]!), image(f.photoIds[1]!)]));
    await pay(
      await placeOrder(t, f, [image(f.photoIds[2]!), image(f.photoIds[3]!), image(f.photoIds[4]!), video(f.videoId), print(f.photoIds[2]!, f.printProductId)], {
        sponsorofferID: f.offerId,
        discountedPhotoIds: [f.photoIds[2]!, f.photoIds[3]!],
      }),
    );
    const third = await placeOrder(t, f, [image(f.photoIds[5]!)]);
    await pay(third);
    expect((await t.request('POST', API_ROUTES.downloadOrder, { orderID: third.order_ref }, as(f.tokens.runner))).status).toBe(200);
    const dropped = await placeOrder(t, f, [image(f.photoIds[0]!)]);
    await t.ctx.db.query(`update orders set created_at = now() - interval '2 hours' where order_ref = $1`, [dropped.order_ref]);

    history = await runnerHistory(t, f);
    const res = await t.request<OrganiserDashboardResult>(
      'POST',
      API_ROUTES.organiserDashboard,
      { event_id: f.eventId, email: 'olga.org@example.com' },
      as(f.tokens.organiser),
    );
    expect(res.status).toBe(200);
    dashboard = res.body.result;
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => p?.close(), TEAR_DOWN_TIMEOUT_MS);

  it('totals equal the order history of the same orders: Order Value, GST, Photos', () => {
    const paid = history.filter((o) => o.status === 'Paid' || o.status === 'Downloaded');
    expect(paid).toHaveLength(3);
    const sum = (pick: (o: OrderHistoryRow) => number) => paid.reduce((s, o) => s + pick(o), 0);
    expect(dashboard.totals).toMatchObject({
      totalords: 3,
      totalrev: sum((o) => o.price),
      tax: sum((o) => o.gst),
      ordval: sum((o) => o.price - o.gst),
      photos_count: sum((o) => o.photos_count),
    });
  });

  it('revenue rows by photo price add up to the totals, with videos, prints and the sponsor discount', () => {
    const rows = dashboard.event_revenue!;
    // 2 photos: 150; 3 photos: 200; 1 photo: 100 (copy prices before GST).
    expect(rows.map((r) => [r.price_kind, r.price, r.totalords])).toEqual([
      ['images', 100, 1],
      ['images', 150, 1],
      ['images', 200, 1],
    ]);
    const big = rows.find((r) => r.price === 200)!;
    // 200 for three photos: each is worth 66.67, 20% off two of them is 26.67, rounded to 27.
    expect(big).toMatchObject({ videoval: 150, printval: 739, discountamount: 27, photos_count: 4 });
    expect(big.ordval).toBe(200 - 27 + 150 + 739);
    expect(big.tax).toBe(31 + 27 + 133);
    expect(big.totalrev).toBe(big.ordval + big.tax);
    const keys = ['totalords', 'videoval', 'printval', 'discountamount', 'ordval', 'photos_count', 'tax', 'totalrev'] as const;
    for (const key of keys) expect(rows.reduce((s, r) => s + r[key], 0)).toBeCloseTo(dashboard.totals![key], 2);
  });

  it('counts BIBs, photos and different photos sold', () => {
    expect(dashboard.totalbibs).toEqual({ totalbibs: 2 });
    expect(dashboard.totalimgs).toEqual({ totalimgs: 8 });
    // Six different photos and the video were sold.
    expect(dashboard.totunqimgs).toBe(7);
  });

  it('names the order stages of the spec: payment pending (dropped) and booked with download pending', () => {
    const stage = (name: string) => dashboard.analytics!.find((a) => a.stage === name);
    expect(stage('payment pending (dropped)')).toEqual({ stage: 'payment pending (dropped)', orders: 1, amount: 118 });
    expect(stage('booked with download pending')!.orders).toBe(2);
    expect(stage('downloaded')).toEqual({ stage: 'downloaded', orders: 1, amount: 118 });
  });

  it('the live ledger: funnel with drops, revenue by product, sponsor discount, sales per day', () => {
    const ledger = dashboard.ledger!;
    expect(ledger.funnel.map((s) => [s.step, s.count, s.drop])).toEqual([
      ['searches', 2, 0],
      ['carts', 1, 1],
      ['orders created', 4, 0],
      ['paid', 3, 1],
      ['downloaded', 1, 2],
    ]);
    const product = (kind: string) => ledger.products.find((r) => r.product === kind);
    expect(product('images')).toMatchObject({ quantity: 6, net: 150 + 173 + 100, discount: 27 });
    expect(product('video')).toMatchObject({ quantity: 1, net: 150, total: 177 });
    expect(product('print')).toMatchObject({ quantity: 1, net: 739, total: 872 });
    expect(ledger.products.reduce((s, r) => s + r.total, 0)).toBeCloseTo(dashboard.totals!.totalrev, 2);
    expect(ledger.sponsors).toEqual([{ sponsor_name: 'Lake Club', coupon_name: 'LAKE20', orders: 1, photos: 2, discount: 27 }]);
    expect(ledger.daily).toHaveLength(1);
    expect(ledger.daily[0]).toMatchObject({ orders: 3, revenue: dashboard.totals!.totalrev });
  });

  it('each photographer’s share: the photographer’s two photos sold together in order 1 (150 before GST), at 60%', async () => {
    const res = await p.t.request<PartnerShareRow[]>('POST', API_ROUTES.organiserPartnerShares, { eventId: f.eventId }, as(f.tokens.organiser));
    expect(res.body.result).toEqual([
      expect.objectContaining({
        partner_user_id: f.users.partner,
        nickname: 'farahph',
        share_percent: 60,
        orders: 1,
        partner_images: 2,
        sales: 150,
        share: 90,
      }),
    ]);
    expect((await p.t.request('POST', API_ROUTES.organiserPartnerShares, { eventId: f.eventId }, as(f.tokens.rival))).status).toBe(403);
  });

  it('the sums the database keeps are what recomputing them from the orders gives', async () => {
    const db = p.t.ctx.db;
    const snapshot = async () => ({
      sales: await db.query('select * from event_sales_rollup where event_id = $1 and orders <> 0 order by day, status, price_kind, price, sponsor_offer_id', [
        f.eventId,
      ]),
      products: await db.query('select * from event_product_rollup where event_id = $1 and quantity <> 0 order by status, kind', [f.eventId]),
      photos: await db.query('select * from event_photo_sold where event_id = $1 and orders <> 0 order by photo_id', [f.eventId]),
    });
    const kept = await snapshot();
    await db.query('select ledger_rebuild($1)', [f.eventId]);
    expect(await snapshot()).toEqual(kept);
    expect(kept.sales.length).toBeGreaterThan(0);
  });

  it('the event list (email only) holds the organiser’s events, not the rival’s', async () => {
    const res = await p.t.request<OrganiserDashboardResult>('POST', API_ROUTES.organiserDashboard, { email: 'olga.org@example.com' }, as(f.tokens.organiser));
    expect(res.body.result.eventslist).toEqual([
      {
        event_id: f.eventId,
        event_name: 'Lakeside Half 2026',
        event_from_date: '2026-10-04',
        event_to_date: '2026-10-04',
        event_location: 'Udaipur',
        issearchable: 1,
        published: 1,
      },
    ]);
    expect(res.body.result.event_revenue).toBeUndefined();
  });

  it('refuses the rival organiser, the runner, the partner and a visitor', async () => {
    const body = { event_id: f.eventId };
    expect((await p.t.request('POST', API_ROUTES.organiserDashboard, body, as(f.tokens.rival))).status).toBe(403);
    expect((await p.t.request('POST', API_ROUTES.organiserDashboard, body, as(f.tokens.runner))).status).toBe(403);
    expect((await p.t.request('POST', API_ROUTES.organiserDashboard, {}, as(f.tokens.runner))).status).toBe(403);
    expect((await p.t.request('POST', API_ROUTES.organiserDashboard, body, as(f.tokens.partner))).status).toBe(403);
    expect((await p.t.request('POST', API_ROUTES.organiserDashboard, body)).status).toBe(401);
    const bad = await p.t.request('POST', API_ROUTES.organiserDashboard, { event_id: 'x' }, as(f.tokens.organiser));
    expect(bad).toMatchObject({ status: 400, body: { Message: 'Please choose an event.' } });
  });
});
