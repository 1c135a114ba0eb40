import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API_ROUTES,
  IDEMPOTENCY_KEY_REUSED_MESSAGE,
  IDEMPOTENT_REPLAYED_HEADER,
  newIdempotencyKey,
  REQUEST_IN_PROGRESS_MESSAGE,
  type ApiEnvelope,
  type OrderHistoryResult,
  type PaymentForm,
} from '@finishline/shared/pure';
import { call, setRuntimeConfig } from '@finishline/shared/runtime';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { retryingFetch, startRoundRobinProxy, type RoundRobinProxy, type SeenAnswer } from './support/cluster';
import { solveCaptcha } from './support/captcha';
import { seedOrdersFixture, type OrdersFixture } from './ordersFixtures';
import { loadConfig } from '../src/config/config';
import { sendOk } from '../src/http/envelope';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';
import { pruneExpiredRows } from '../src/pipeline/scheduled/prune';
import { CORS_PREFLIGHT_MAX_AGE_SECONDS } from '../src/app';

/**
 * Idempotency-Key on the real server (PGlite, and the PostgreSQL server in the TEST_DATABASE_URL
 * pass): a create-order whose answer is lost on the way back is created once when the browser's
 * client retries; a repeat gets the stored answer, a repeat while the first runs 409, another
 * request under the same key 422; keys are per caller and expire.
 */
const STALE_CLAIM_SECONDS = 2;
/** A write of the test's own that waits until the test lets it finish: a request still running. */
const HELD_ROUTE = '/test/held-write';

describe('Idempotency-Key: retries of POSTs do the work once', () => {
  let t: TestApp;
  let f: OrdersFixture;
  let proxy: RoundRobinProxy;
  let runnerToken: string;
  let otherToken: string;
  let heldCalls = 0;
  let release: () => void = () => undefined;
  let held = Promise.resolve();
  /** Set: the next create-order stops right after its route returned (committed), as if its process died there. */
  let dieAfterCommit: { stopped: () => void; revive: Promise<void> } | null = null;

  const hold = () => {
    held = new Promise<void>((resolve) => (release = resolve));
  };
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const cartOf = (ids: number[]) => ({
    eventID: f.eventId,
    bibNumber: f.bib,
    cartInfo: { searchKind: 'bib', packageKind: null, lines: ids.map((id) => ({ type: 'download', category: 'image', id })), discountedPhotoIds: [] },
  });
  const signedInOrder = (ids = [f.photoIds[0]!]) => ({
    ...cartOf(ids),
    name: 'Ravi Kumar',
    email: 'ravi@example.com',
    phone_number: '9811111111',
    gender: 'Male',
    shipping_address: 'MG Road',
    pincode: '560001',
  });
  /** The newest order id now; ordersSince(it) lists the orders created after. */
  const lastOrderId = async () => Number((await t.ctx.db.query<{ id: number | null }>('select max(id) as id from orders'))[0]?.id ?? 0);
  const ordersSince = (id: number) => t.ctx.db.query<{ order_ref: string }>('select order_ref from orders where id > $1 order by id', [id]);

  async function send<T>(route: string, body: unknown, key: string | null, headers: Record<string, string> = {}) {
    const response = await fetch(`${t.url}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}), ...headers },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as ApiEnvelope<T>,
      replayed: response.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true',
      retryAfter: response.headers.get('retry-after'),
    };
  }

  async function until(what: string, probe: () => boolean): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!probe()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  beforeAll(async () => {
    t = await startTestApp(
      {
        security: { ...loadConfig().security, captchaCost: 20, captchaMaxCounter: 400 },
        idempotency: { keyHours: 24, staleClaimSeconds: STALE_CLAIM_SECONDS },
      },
      {
        routes: (app) => {
          app.post(HELD_ROUTE, async (_request, reply) => {
            const n = ++heldCalls;
            await held;
            return sendOk(reply, { call: n });
          });
          // Between the route's commit and the generic store of its answer (onSend): nothing more of
          // this request happens until the test lets it go, long after the client gave up on it.
          app.addHook('preSerialization', async (request, _reply, payload) => {
            const dying = dieAfterCommit;
            if (!dying || request.url !== API_ROUTES.createOrder) return payload;
            dieAfterCommit = null;
            dying.stopped();
            await dying.revive;
            return payload;
          });
        },
      },
    );
    f = await seedOrdersFixture(t.ctx);
    runnerToken = (
      await createSession(t.ctx.db, await createUser(t.ctx.db, { firstName: 'Ravi', lastName: 'Kumar', email: 'ravi@example.com', password: 'Secret#2026' }))
    ).token;
    otherToken = (
      await createSession(t.ctx.db, await createUser(t.ctx.db, { firstName: 'Meera', lastName: 'Iyer', email: 'meera@example.com', password: 'Secret#2026' }))
    ).token;
    proxy = await startRoundRobinProxy([{ name: 'api', url: t.url }]);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(proxy, t), TEAR_DOWN_TIMEOUT_MS);

  it('a create-order that committed but whose answer was lost is not created twice by the retry: same order back, one row', async () => {
    const before = await lastOrderId();
    const seen: SeenAnswer[] = [];
    const browser = retryingFetch(seen);
    let answers = 0;
    proxy.loseAnswer = (_upstream, method, url) => method === 'POST' && url === API_ROUTES.createOrder && answers++ === 0;
    const response = await browser(`${proxy.url}${API_ROUTES.createOrder}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth(runnerToken) },
      body: JSON.stringify(signedInOrder()),
    });
    const answer = (await response.json()) as ApiEnvelope<PaymentForm>;
    proxy.loseAnswer = null;
    expect(proxy.stats.answersLost).toBe(1);
    expect(answer.Message).toBe('Order created');
    expect(seen).toEqual([{ method: 'POST', route: API_ROUTES.createOrder, status: 200, attempts: 2, replayed: true }]);
    expect(await ordersSince(before)).toEqual([{ order_ref: answer.result.order_ref }]);

    // What the key prevents: the same call sent again without one is a second order.
    const withoutKey = await lastOrderId();
    for (let i = 0; i < 2; i++) expect((await send(API_ROUTES.createOrder, signedInOrder(), null, auth(runnerToken))).status).toBe(200);
    expect(await ordersSince(withoutKey)).toHaveLength(2);
  });

  it('an instance that dies right after create-order committed, before its answer left: the retry, even past the stale-claim time, gets that order, never a second', async () => {
    const before = await lastOrderId();
    const key = newIdempotencyKey();
    let revive: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => {
      dieAfterCommit = { stopped: resolve, revive: new Promise<void>((r) => (revive = r)) };
    });
    const gaveUp = new AbortController();
    const lost = fetch(`${t.url}${API_ROUTES.createOrder}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key, ...auth(runnerToken) },
      body: JSON.stringify(signedInOrder()),
      signal: gaveUp.signal,
    }).catch((error: unknown) => error);
    await stopped;
    gaveUp.abort();
    await lost;
    const [created] = await ordersSince(before);
    expect(created).toBeDefined();
    // Past IDEMPOTENCY_STALE_CLAIM_SECONDS: a claim still running would now be taken over and run again.
    await new Promise((resolve) => setTimeout(resolve, STALE_CLAIM_SECONDS * 1000 + 300));
    const retry = await send<PaymentForm>(API_ROUTES.createOrder, signedInOrder(), key, auth(runnerToken));
    expect(retry).toMatchObject({ status: 200, replayed: true, body: { Message: 'Order created', result: { order_ref: created!.order_ref } } });
    expect(await ordersSince(before)).toEqual([created]);
    revive();
  });

  it("the product's client (call) retries a guest checkout whose answer was lost with the same key: one order, the one it was answered", async () => {
    setRuntimeConfig({ apiBaseUrl: proxy.url });
    let answers = 0;
    proxy.loseAnswer = (_upstream, method, url) => method === 'POST' && url === API_ROUTES.createOrder && answers++ === 0;
    const lostBefore = proxy.stats.answersLost;
    const before = await lastOrderId();
    const body = {
      name: 'Asha Rao',
      email: 'asha.retry@example.com',
      phone_number: '9876543210',
      pincode: '560001',
      ...cartOf([f.photoIds[1]!]),
      captcha: await solveCaptcha(t.url),
    };
    const { result, message } = await call<PaymentForm>({ method: 'POST', url: API_ROUTES.createOrder, data: body });
    proxy.loseAnswer = null;
    expect(proxy.stats.answersLost).toBe(lostBefore + 1);
    expect(message).toBe('Order created');
    expect(await ordersSince(before)).toEqual([{ order_ref: result.order_ref }]);
  });

  it('a repeat of a completed key gets the stored answer, marked Idempotent-Replayed', async () => {
    const key = newIdempotencyKey();
    const before = await lastOrderId();
    const first = await send<PaymentForm>(API_ROUTES.createOrder, signedInOrder(), key, auth(runnerToken));
    const again = await send<PaymentForm>(API_ROUTES.createOrder, signedInOrder(), key, auth(runnerToken));
    expect(first).toMatchObject({ status: 200, replayed: false });
    expect(again).toEqual({ ...first, replayed: true });
    expect(await ordersSince(before)).toEqual([{ order_ref: first.body.result.order_ref }]);
    // The answer is stored sealed: the database holds neither the key nor the answer's text.
    const [row] = await t.ctx.db.query<{ response_body: string }>(
      'select response_body from idempotency_keys where response_body is not null order by created_at desc limit 1',
    );
    expect(row!.response_body).not.toContain(first.body.result.order_ref);
    expect(JSON.stringify(await t.ctx.db.query('select * from idempotency_keys'))).not.toContain(key);
  });

  it('a read-only POST (a BIB search) with a key is simply run again: no key row, the same answer', async () => {
    const rowsBefore = Number((await t.ctx.db.query<{ n: number }>('select count(*)::int as n from idempotency_keys'))[0]!.n);
    const key = newIdempotencyKey();
    const search = { eventID: f.eventId, bibNumber: f.bib };
    const first = await send<unknown>(API_ROUTES.searchByBib, search, key);
    const again = await send<unknown>(API_ROUTES.searchByBib, search, key);
    expect(first.status).toBe(200);
    // Run again (its signed photo addresses are fresh), not replayed.
    expect(again).toMatchObject({ status: 200, replayed: false, body: { Message: first.body.Message } });
    expect(Number((await t.ctx.db.query<{ n: number }>('select count(*)::int as n from idempotency_keys'))[0]!.n)).toBe(rowsBefore);
  });

  it("a keyed POST's preflight from the shell allows the key and may be kept by the browser for 2 hours; another origin is not allowed", async () => {
    const preflight = (origin: string) =>
      fetch(`${t.url}${API_ROUTES.createOrder}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,idempotency-key' },
      });
    const shell = t.ctx.config.corsOrigins[0]!;
    const allowed = await preflight(shell);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(shell);
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase().split(',')).toContain('idempotency-key');
    expect(allowed.headers.get('access-control-max-age')).toBe(String(CORS_PREFLIGHT_MAX_AGE_SECONDS));
    expect(CORS_PREFLIGHT_MAX_AGE_SECONDS).toBe(7200);
    const foreign = await preflight('https://evil.example');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a repeat while the first attempt still runs gets 409 with Retry-After; once it has answered, its answer', async () => {
    hold();
    const key = newIdempotencyKey();
    const callsBefore = heldCalls;
    const first = send<{ call: number }>(HELD_ROUTE, { n: 1 }, key);
    await until('the first attempt to run', () => heldCalls === callsBefore + 1);
    const meanwhile = await send(HELD_ROUTE, { n: 1 }, key);
    expect(meanwhile).toMatchObject({ status: 409, retryAfter: '1', body: { StatusCode: 409, HasError: true, Message: REQUEST_IN_PROGRESS_MESSAGE } });
    expect(REQUEST_IN_PROGRESS_MESSAGE).toBe('This request is still being processed. Please try again in a moment.');
    release();
    expect(await first).toMatchObject({ status: 200, replayed: false, body: { result: { call: callsBefore + 1 } } });
    expect(await send(HELD_ROUTE, { n: 1 }, key)).toMatchObject({ status: 200, replayed: true, body: { result: { call: callsBefore + 1 } } });
    expect(heldCalls).toBe(callsBefore + 1);
  });

  it('a claim left running past IDEMPOTENCY_STALE_CLAIM_SECONDS (its process died) is taken over by the next attempt', async () => {
    hold();
    const key = newIdempotencyKey();
    const callsBefore = heldCalls;
    const abandoned = send<{ call: number }>(HELD_ROUTE, { n: 2 }, key);
    await until('the first attempt to run', () => heldCalls === callsBefore + 1);
    await new Promise((resolve) => setTimeout(resolve, STALE_CLAIM_SECONDS * 1000 + 300));
    const takeover = send<{ call: number }>(HELD_ROUTE, { n: 2 }, key);
    await until('the takeover to run', () => heldCalls === callsBefore + 2);
    release();
    await abandoned;
    expect(await takeover).toMatchObject({ status: 200, body: { result: { call: callsBefore + 2 } } });
    // The stored answer is the takeover's: the abandoned attempt no longer holds the claim.
    expect(await send(HELD_ROUTE, { n: 2 }, key)).toMatchObject({ status: 200, replayed: true, body: { result: { call: callsBefore + 2 } } });
  });

  it('a key sent again with another body or to another route is refused with 422, and nothing is done', async () => {
    const key = newIdempotencyKey();
    const before = await lastOrderId();
    const first = await send<PaymentForm>(API_ROUTES.createOrder, signedInOrder(), key, auth(runnerToken));
    expect(first.status).toBe(200);
    const otherBody = await send(API_ROUTES.createOrder, signedInOrder([f.photoIds[2]!]), key, auth(runnerToken));
    expect(otherBody).toMatchObject({
      status: 422,
      replayed: false,
      body: { StatusCode: 422, HasError: true, Message: IDEMPOTENCY_KEY_REUSED_MESSAGE, result: null },
    });
    const otherRoute = await send(API_ROUTES.recordFeedback, { searchtext: '' }, key, auth(runnerToken));
    expect(otherRoute.status).toBe(422);
    expect(await ordersSince(before)).toEqual([{ order_ref: first.body.result.order_ref }]);
  });

  it("keys are per caller: another user (or a caller without a session) sending the same key never gets the first caller's answer", async () => {
    const key = newIdempotencyKey();
    const mine = await send<OrderHistoryResult>(API_ROUTES.orderHistory, { searchtext: '' }, key, auth(runnerToken));
    expect(mine.body.result.order_history.length).toBeGreaterThan(0);
    const theirs = await send<OrderHistoryResult>(API_ROUTES.orderHistory, { searchtext: '' }, key, auth(otherToken));
    expect(theirs).toMatchObject({ status: 200, replayed: false });
    expect(theirs.body.result.order_history).toEqual([]);
    const nobody = await send(API_ROUTES.orderHistory, { searchtext: '' }, key);
    expect(nobody).toMatchObject({ status: 401, replayed: false });
  });

  it('a key expires after IDEMPOTENCY_KEY_HOURS: the request runs afresh, and the prune job deletes the row', async () => {
    const key = newIdempotencyKey();
    const callsBefore = heldCalls;
    expect(await send(HELD_ROUTE, { n: 3 }, key)).toMatchObject({ status: 200, body: { result: { call: callsBefore + 1 } } });
    const age = (hours: number) =>
      t.ctx.db.query(
        `update idempotency_keys set created_at = now() - make_interval(hours => $1) where response_body is not null and completed_at = (select max(completed_at) from idempotency_keys)`,
        [hours],
      );
    await age(25);
    expect(await send(HELD_ROUTE, { n: 3 }, key)).toMatchObject({ status: 200, replayed: false, body: { result: { call: callsBefore + 2 } } });
    const fresh = Number((await t.ctx.db.query<{ n: number }>('select count(*)::int as n from idempotency_keys'))[0]!.n);
    await age(25);
    const settings = { expiredRowRetentionDays: 7, paymentCallbackRetentionDays: 400, sentMailRetentionDays: 30, idempotencyKeyHours: 24 };
    expect((await pruneExpiredRows(t.ctx.db, settings)).idempotencyKeys).toBe(1);
    expect(Number((await t.ctx.db.query<{ n: number }>('select count(*)::int as n from idempotency_keys'))[0]!.n)).toBe(fresh - 1);
    expect((await pruneExpiredRows(t.ctx.db, settings)).idempotencyKeys).toBe(0);
  });
});
