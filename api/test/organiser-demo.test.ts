import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API_ROUTES,
  type EventPartnerRegistration,
  type OrganiserDashboardResult,
  type PartnerShareResult,
  type PartnerShareRow,
  type PhotoReportRow,
} from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { seedDemo } from '../src/seed/seedDemo';
import { seedOrdersDemo } from '../src/features/orders/demoOrders';
import { ORGANISER_DEMO_SETTING, seedOrganiserDemo } from '../src/seed/organiserDemo';
import { createSession } from '../src/features/accounts/sessions';
import { findUserByEmail } from '../src/features/accounts/users';
import { insertTestPhoto } from './support/photos';
import { sealContext } from '../src/features/partners';
import { unseal } from '../src/security/sealing';

/** The demo organiser's dashboard has something real in every figure and chart. */
describe('organiser demo data', () => {
  let t: TestApp;
  let token: string;
  let mainId: number;
  const as = () => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await startTestApp();
    await seedDemo(t.ctx, { photos: 'small' });
    await seedOrdersDemo(t.ctx);
    // The small seed gives photos only to BIBs the journeys use; the demo takes the sponsor offer only
    // for others, so TT20613 gets the photos it has in the full seed.
    const [main] = await t.ctx.db.query<{ id: number }>(`select id from events where name = 'Mumbai Coastal Marathon 2026'`);
    for (let i = 0; i < 4; i++) await insertTestPhoto(t.ctx.db, { eventId: main!.id, bib: 'TT20613', imageId: `tt20613-${i}`, seq: i });
    await seedOrganiserDemo(t.ctx);
    await seedOrganiserDemo(t.ctx);
    const organiser = await findUserByEmail(t.ctx.db, 'organiser@finishline.test');
    token = (await createSession(t.ctx.db, organiser!.id)).token;
    mainId = (await t.ctx.db.query<{ id: number }>(`select id from events where name = 'Mumbai Coastal Marathon 2026'`))[0]!.id;
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('the organiser and operator roles were granted through the operator’s function, and recorded', async () => {
    const rows = await t.ctx.db.query<{ email: string; role: string; via: string }>(
      'select u.email, c.role, c.via from role_changes c join users u on u.id = c.user_id order by c.id',
    );
    expect(rows).toEqual([
      { email: 'organiser@finishline.test', role: 'organiser', via: 'seed' },
      { email: 'operator@finishline.test', role: 'operator', via: 'seed' },
    ]);
  });

  it('runs once, and leaves the runner’s orders and the sponsor cap of the journeys’ BIBs alone', async () => {
    const setting = await t.ctx.db.query<{ value: { orders: number } }>('select value from app_settings where key = $1', [ORGANISER_DEMO_SETTING]);
    const orders = await t.ctx.db.query<{ n: number }>(`select count(*)::int as n from orders where email like '%@demo.finishline.test'`);
    expect(orders[0]!.n).toBe(setting[0]!.value.orders);
    expect(orders[0]!.n).toBeGreaterThan(100);
    expect(
      await t.ctx.db.query(
        `select 1 from orders where (bib_number not in ('TT20613', 'TT20614', 'TT20615', 'TT20616') and sponsor_photo_count > 0) or email = 'runner@finishline.test'`,
      ),
    ).toEqual([]);
  });

  it('every figure and chart of the main event shows something', async () => {
    const res = await t.request<OrganiserDashboardResult>('POST', API_ROUTES.organiserDashboard, { event_id: mainId }, as());
    expect(res.status).toBe(200);
    const d = res.body.result;
    expect(d.totals!.totalords).toBeGreaterThan(50);
    for (const key of ['videoval', 'printval', 'discountamount', 'tax', 'totalrev'] as const)
      expect({ key, value: d.totals![key] > 0 }).toEqual({ key, value: true });
    expect(d.event_revenue!.map((r) => r.price_kind)).toEqual(expect.arrayContaining(['images', 'pack']));
    for (const stage of d.analytics!.filter((a) => a.stage !== 'payment in progress'))
      expect({ stage: stage.stage, some: stage.orders > 0 }).toEqual({ stage: stage.stage, some: true });
    expect(d.ledger!.daily.length).toBeGreaterThan(10);
    expect(d.ledger!.products.map((p) => p.product).sort()).toEqual(['collage', 'images', 'pack', 'print', 'video']);
    expect(d.ledger!.sponsors[0]).toMatchObject({ coupon_name: 'COASTLINE20' });
    expect(d.ledger!.funnel.every((s) => s.count > 0)).toBe(true);
    const partners = (await t.request<PartnerShareRow[]>('POST', API_ROUTES.organiserPartnerShares, { eventId: mainId }, as())).body.result;
    expect(partners[0]).toMatchObject({ nickname: 'kabirsh', share_percent: 70 });
    expect(partners[0]!.share).toBeGreaterThan(0);
  });

  it('a photographer waits for approval and two reports wait for a decision', async () => {
    const registrations = await t.request<EventPartnerRegistration[]>('POST', API_ROUTES.organiserPartners, { eventId: mainId }, as());
    expect(registrations.body.result.map((r) => [r.nickname, r.status])).toEqual([
      ['ishitav', 'pending'],
      ['kabirsh', 'approved'],
    ]);
    const reports = await t.request<PhotoReportRow[]>('POST', API_ROUTES.organiserReports, { eventId: mainId }, as());
    expect(reports.body.result).toHaveLength(2);
  });

  it('the demo partner is approved for two events with sales at both, and the demo bank details are sealed', async () => {
    const partner = (await findUserByEmail(t.ctx.db, 'partner@finishline.test'))!;
    const share = await t.request<PartnerShareResult>(
      'POST',
      API_ROUTES.partnerShare,
      { userid: 'partner@finishline.test' },
      { authorization: `Bearer ${(await createSession(t.ctx.db, partner.id)).token}` },
    );
    expect(share.body.result.usr_revenue.map((r) => [r.event_name, r.share_percent, r.usr_share > 0])).toEqual([
      ['Mumbai Coastal Marathon 2026', 70, true],
      ['Bengaluru Heritage Half 2025', 65, true],
    ]);
    const [row] = await t.ctx.db.query<{ bank_account_number_enc: string; pan_enc: string }>(
      'select bank_account_number_enc, pan_enc from partner_profiles where user_id = $1',
      [partner.id],
    );
    expect(unseal(t.ctx.config.partnerDataKey, row!.bank_account_number_enc, sealContext('bank_account_number_enc', partner.id))).toBe('50100234564321');
    expect(unseal(t.ctx.config.partnerDataKey, row!.pan_enc, sealContext('pan_enc', partner.id))).toBe('ABKPS4321F');
  });
});
