import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, type EventPartnerRegistration } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';

describe('organiser: photographer registrations of the events they run', () => {
  let t: TestApp;
  let eventId: number;
  let otherEventId: number;
  let photographerId: number;
  const tokens: Record<string, string> = {};
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });

  beforeAll(async () => {
    t = await startTestApp();
    const db = t.ctx.db;
    const organiserId = await createUser(db, { firstName: 'Olga', lastName: 'Org', email: 'olga@example.com', password: 'Finish@2026', isOrganiser: true });
    const rivalId = await createUser(db, { firstName: 'Ravi', lastName: 'Rival', email: 'ravi.rival@example.com', password: 'Finish@2026', isOrganiser: true });
    photographerId = await createUser(db, { firstName: 'Farah', lastName: 'Photo', email: 'farah@example.com', password: 'Finish@2026' });
    eventId = (
      await db.query<{ id: number }>(
        `insert into events (name, from_date, to_date, organiser_user_id) values ('Lake Run 2026', '2026-12-06', '2026-12-07', $1) returning id`,
        [organiserId],
      )
    )[0].id;
    otherEventId = (
      await db.query<{ id: number }>(
        `insert into events (name, from_date, to_date, organiser_user_id) values ('Rival Run 2026', '2026-12-13', '2026-12-13', $1) returning id`,
        [rivalId],
      )
    )[0].id;
    await db.query(
      `insert into partner_profiles (user_id, first_name, last_name, mobile, nickname, bank_account_name, bank_account_number_enc, bank_account_last4,
                                     bank_account_type, bank_name, bank_branch, bank_ifsc, pan_enc, pan_last4)
       values ($1, 'Farah', 'Photo', '9876500002', 'farahph', 'Farah Photo', 'sealed', '9876', 2, 'HDFC Bank', 'Andheri', 'HDFC0001234', 'sealed', '456K')`,
      [photographerId],
    );
    await db.query(
      `insert into event_partners (event_id, user_id, dates_available, remarks) values ($1, $2, '{2026-12-07,2026-12-06}', 'Finish line, 24-70 mm')`,
      [eventId, photographerId],
    );
    for (const [who, id] of [
      ['organiser', organiserId],
      ['rival', rivalId],
      ['photographer', photographerId],
    ] as const)
      tokens[who] = (await createSession(db, id)).token;
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('lists the registrations of the organiser’s event, pending, with the dates in order', async () => {
    const res = await t.request<EventPartnerRegistration[]>('POST', API_ROUTES.organiserPartners, { eventId }, as('organiser'));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual([
      expect.objectContaining({
        partnerUserId: photographerId,
        nickname: 'farahph',
        email: 'farah@example.com',
        status: 'pending',
        datesAvailable: ['2026-12-06', '2026-12-07'],
        sharePercent: 70,
        decidedAt: null,
      }),
    ]);
  });

  it('refuses another organiser, the photographer and a visitor', async () => {
    expect((await t.request('POST', API_ROUTES.organiserPartners, { eventId }, as('rival'))).status).toBe(403);
    expect(
      (await t.request('POST', API_ROUTES.decidePartnerRegistration, { eventId, partnerUserId: photographerId, decision: 'approved' }, as('rival'))).status,
    ).toBe(403);
    expect((await t.request('POST', API_ROUTES.organiserPartners, { eventId }, as('photographer'))).status).toBe(403);
    expect((await t.request('POST', API_ROUTES.organiserPartners, { eventId })).status).toBe(401);
    // The rival runs their own event, which has no registration of this photographer.
    const own = await t.request(
      'POST',
      API_ROUTES.decidePartnerRegistration,
      { eventId: otherEventId, partnerUserId: photographerId, decision: 'approved' },
      as('rival'),
    );
    expect(own.status).toBe(400);
    expect(own.body.Message).toBe('This photographer has not registered for this event.');
  });

  it('answers bad input with its message', async () => {
    const res = await t.request('POST', API_ROUTES.decidePartnerRegistration, { eventId, partnerUserId: photographerId, decision: 'maybe' }, as('organiser'));
    expect(res.status).toBe(400);
    expect(res.body.Message).toBe('Please approve or reject the registration.');
    const share = await t.request(
      'POST',
      API_ROUTES.decidePartnerRegistration,
      { eventId, partnerUserId: photographerId, decision: 'approved', sharePercent: 120 },
      as('organiser'),
    );
    expect(share.body.Message).toBe('The share is a percentage from 0 to 100.');
  });

  it('approves with a share: the photographer becomes a partner; a later rejection holds', async () => {
    const approved = await t.request<EventPartnerRegistration>(
      'POST',
      API_ROUTES.decidePartnerRegistration,
      { eventId, partnerUserId: photographerId, decision: 'approved', sharePercent: 75 },
      as('organiser'),
    );
    expect(approved.status).toBe(200);
    expect(approved.body.Message).toBe('Farah Photo is approved for this event.');
    expect(approved.body.result).toMatchObject({ status: 'approved', sharePercent: 75 });
    const rows = await t.ctx.db.query<{ is_partner: boolean; status: string; decided_by: number }>(
      'select u.is_partner, r.status, r.decided_by from users u join event_partners r on r.user_id = u.id where u.id = $1',
      [photographerId],
    );
    expect(rows[0]).toMatchObject({ is_partner: true, status: 'approved' });

    const rejected = await t.request<EventPartnerRegistration>(
      'POST',
      API_ROUTES.decidePartnerRegistration,
      { eventId, partnerUserId: photographerId, decision: 'rejected' },
      as('organiser'),
    );
    expect(rejected.body).toMatchObject({ Message: "Farah Photo's registration is rejected.", result: { status: 'rejected', sharePercent: 75 } });
  });
});
