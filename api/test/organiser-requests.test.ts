import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API_ROUTES,
  ORGANISER_REQUEST_MESSAGES,
  type MyOrganiserRequestResult,
  type OperatorEventsResult,
  type OperatorRequestsResult,
  type OrganiserRequestView,
} from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';
import { NO_ACCOUNT_MESSAGE } from '../src/features/accounts/roles';

/**
 * "List your race" and the operator console: a signed-in account asks to organise races once at a
 * time; an operator declines with a reason or approves (the organiser role granted and recorded),
 * each answer mailed once; two operators answering at once leave one answer; staff roles by email;
 * every event at a glance. Only operators reach the console's calls.
 */
describe('organiser requests and the operator console', () => {
  let t: TestApp;
  let asha: string;
  let ashaId: number;
  let ravi: string;
  let operator: string;
  let operatorTwo: string;
  let operatorId: number;
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const form = (extra: object = {}) => ({
    raceName: 'Nashik Vineyard Half 2027',
    fromDate: '2099-02-14',
    toDate: '2099-02-14',
    city: 'Nashik',
    expectedRunners: 2500,
    contactName: 'Asha Rao',
    contactPhone: '98765 43210',
    ...extra,
  });
  const ask = (token: string, body: object = form()) => t.request<OrganiserRequestView>('POST', API_ROUTES.organiserRequest, body, auth(token));
  const mine = async (token: string) => (await t.request<MyOrganiserRequestResult>('POST', API_ROUTES.myOrganiserRequest, {}, auth(token))).body.result;
  const decide = (body: object, token = operator) => t.request<OrganiserRequestView>('POST', API_ROUTES.operatorDecideOrganiserRequest, body, auth(token));
  const mails = (tag: string) =>
    t.ctx.db.query<{ to_address: string; body_text: string }>('select to_address, body_text from mail_outbox where tag = $1 order by id', [tag]);

  beforeAll(async () => {
    t = await startTestApp();
    ashaId = await createUser(t.ctx.db, { firstName: 'Asha', lastName: 'Rao', email: 'asha.races@example.com', password: 'Finish@2026', emailVerified: true });
    asha = (await createSession(t.ctx.db, ashaId)).token;
    ravi = (
      await createSession(t.ctx.db, await createUser(t.ctx.db, { firstName: 'Ravi', lastName: 'Kumar', email: 'ravi@example.com', password: 'Finish@2026' }))
    ).token;
    operatorId = await createUser(t.ctx.db, { firstName: 'Omar', lastName: 'Ops', email: 'ops@example.com', password: 'Finish@2026' });
    const secondId = await createUser(t.ctx.db, { firstName: 'Uma', lastName: 'Ops', email: 'ops2@example.com', password: 'Finish@2026' });
    await t.ctx.db.query('update users set is_operator = true where id = any($1::int[])', [[operatorId, secondId]]);
    operator = (await createSession(t.ctx.db, operatorId)).token;
    operatorTwo = (await createSession(t.ctx.db, secondId)).token;
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('checks the form with the reasons, and nothing is saved', async () => {
    const cases: Array<[object, string]> = [
      [{ raceName: 'X' }, ORGANISER_REQUEST_MESSAGES.raceName],
      [{ fromDate: '2099-02-14', toDate: '2099-02-13' }, ORGANISER_REQUEST_MESSAGES.toBeforeFrom],
      [{ fromDate: '2020-01-01', toDate: '2020-01-02' }, ORGANISER_REQUEST_MESSAGES.past],
      [{ fromDate: '14/02/2099' }, ORGANISER_REQUEST_MESSAGES.fromDate],
      [{ expectedRunners: 0 }, ORGANISER_REQUEST_MESSAGES.runners],
      [{ contactPhone: '12345' }, ORGANISER_REQUEST_MESSAGES.contactPhone],
      [{ city: '' }, ORGANISER_REQUEST_MESSAGES.city],
    ];
    for (const [change, message] of cases) {
      const res = await ask(asha, form(change));
      expect([res.status, res.body.Message]).toEqual([400, message]);
    }
    expect((await t.request('POST', API_ROUTES.organiserRequest, form())).status).toBe(401);
    expect(await t.ctx.db.query('select count(*)::int as n from organiser_requests')).toEqual([{ n: 0 }]);
  });

  it('a runner asks once at a time and is mailed that it arrived; only operators see the requests', async () => {
    const res = await ask(asha);
    expect([res.status, res.body.Message]).toEqual([200, ORGANISER_REQUEST_MESSAGES.received]);
    expect(res.body.result).toMatchObject({
      status: 'pending',
      raceName: 'Nashik Vineyard Half 2027',
      contactPhone: '9876543210',
      accountEmail: 'asha.races@example.com',
    });
    const again = await ask(asha);
    expect([again.status, again.body.Message]).toEqual([409, ORGANISER_REQUEST_MESSAGES.pendingAlready]);
    expect(await t.ctx.db.query('select user_id, status, city, expected_runners from organiser_requests')).toEqual([
      { user_id: ashaId, status: 'pending', city: 'Nashik', expected_runners: 2500 },
    ]);
    expect((await mails('organiser_request_received')).map((m) => m.to_address)).toEqual(['asha.races@example.com']);
    expect((await mine(asha)).request).toMatchObject({ status: 'pending' });
    expect((await mine(ravi)).request).toBeNull();

    for (const path of [API_ROUTES.operatorOrganiserRequests, API_ROUTES.operatorEvents])
      expect((await t.request('POST', path, {}, auth(asha))).status).toBe(403);
    expect((await decide({ requestId: res.body.result.id, approve: true }, asha)).status).toBe(403);
    const list = (await t.request<OperatorRequestsResult>('POST', API_ROUTES.operatorOrganiserRequests, {}, auth(operator))).body.result;
    expect(list.pending.map((r) => r.accountEmail)).toEqual(['asha.races@example.com']);
  });

  it('declines with a reason the runner reads, once; a new request may follow; approval grants the role, recorded and mailed', async () => {
    const [pending] = (await t.request<OperatorRequestsResult>('POST', API_ROUTES.operatorOrganiserRequests, {}, auth(operator))).body.result.pending;
    const noReason = await decide({ requestId: pending!.id, approve: false });
    expect([noReason.status, noReason.body.Message]).toEqual([400, ORGANISER_REQUEST_MESSAGES.declineReason]);
    const declined = await decide({ requestId: pending!.id, approve: false, reason: 'Please send the race permit from the city first.' });
    expect(declined.status).toBe(200);
    expect((await decide({ requestId: pending!.id, approve: true })).body.Message).toBe(ORGANISER_REQUEST_MESSAGES.decidedAlready);
    expect((await mine(asha)).request).toMatchObject({ status: 'declined', declineReason: 'Please send the race permit from the city first.' });
    const [declineMail] = await mails('organiser_request_declined');
    expect(declineMail!.body_text).toContain('We cannot list Nashik Vineyard Half 2027 for now: Please send the race permit from the city first.');
    expect(await t.ctx.db.query('select is_organiser from users where id = $1', [ashaId])).toEqual([{ is_organiser: false }]);

    const second = await ask(asha, form({ note: 'Permit attached to the mail.' }));
    expect(second.status).toBe(200);
    // Two operators answer at once: one approval stands, the other is told it was answered.
    const answers = await Promise.all([
      decide({ requestId: second.body.result.id, approve: true }),
      decide({ requestId: second.body.result.id, approve: true }, operatorTwo),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await t.ctx.db.query('select is_organiser from users where id = $1', [ashaId])).toEqual([{ is_organiser: true }]);
    expect(await t.ctx.db.query(`select role, granted, via from role_changes where user_id = $1`, [ashaId])).toEqual([
      { role: 'organiser', granted: true, via: 'api' },
    ]);
    expect((await mails('organiser_request_approved')).map((m) => m.to_address)).toEqual(['asha.races@example.com']);
    const organiserAgain = await ask(asha);
    expect([organiserAgain.status, organiserAgain.body.Message]).toEqual([409, ORGANISER_REQUEST_MESSAGES.organiserAlready]);
    expect((await mine(asha)).isOrganiser).toBe(true);
  });

  it('grants and revokes staff roles by email and shows every event at a glance', async () => {
    const grant = await t.request('POST', API_ROUTES.operatorStaffRole, { email: 'ravi@example.com', role: 'fulfilment', grant: true }, auth(operator));
    expect([grant.status, grant.body.Message]).toEqual([200, 'The account now works fulfilment.']);
    expect(await t.ctx.db.query(`select is_fulfilment from users where email = 'ravi@example.com'`)).toEqual([{ is_fulfilment: true }]);
    const revoke = await t.request('POST', API_ROUTES.operatorStaffRole, { email: 'asha.races@example.com', role: 'organiser', grant: false }, auth(operator));
    expect([revoke.status, revoke.body.Message]).toEqual([200, 'The account is no longer an organiser.']);
    const unknown = await t.request('POST', API_ROUTES.operatorStaffRole, { email: 'nobody@example.com', role: 'organiser', grant: true }, auth(operator));
    expect([unknown.status, unknown.body.Message]).toEqual([404, NO_ACCOUNT_MESSAGE]);
    expect((await t.request('POST', API_ROUTES.operatorStaffRole, { email: 'ravi@example.com', role: 'operator', grant: true }, auth(operator))).status).toBe(
      400,
    );

    const [eventId] = (
      await t.ctx.db.query<{ id: number }>(
        `insert into events (name, from_date, to_date, issearchable, published, partner_registration, organiser_user_id) values ('Hidden Hill Run 2099', '2099-03-01', '2099-03-01', false, false, true, $1) returning id`,
        [ashaId],
      )
    ).map((r) => r.id);
    const events = (await t.request<OperatorEventsResult>('POST', API_ROUTES.operatorEvents, {}, auth(operator))).body.result.events;
    expect(events.find((e) => e.id === eventId)).toEqual({
      id: eventId,
      name: 'Hidden Hill Run 2099',
      fromDate: '2099-03-01',
      published: false,
      registrationOpen: true,
      organisers: ['asha.races@example.com'],
      photos: 0,
      participants: 0,
      paidOrders: 0,
    });
  });
});
