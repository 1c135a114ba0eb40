import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, type OrderHistoryResult, type PaymentForm } from '@finishline/shared/pure';
import { closeAll, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS, type TestApp } from './support/testApp';
import { solveCaptcha } from './support/captcha';
import { postBack, startPaymentTestApp, type PaymentTestApp } from './support/paymentApp';
import { freePort, startSmtpServer, type SmtpServer } from './support/smtpServer';
import { seedOrdersFixture, type OrdersFixture } from './ordersFixtures';
import { loadConfig } from '../src/config/config';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';
import { acquireJobQueue, type JobQueue } from '../src/queue/jobQueue';
import {
  CANARY_WATCH_JOB,
  CLEAN_ORIGINALS_JOB,
  MAIL_JOB,
  PRINT_FILES_JOB,
  PRINT_REFUNDS_JOB,
  PRUNE_JOB,
  RECONCILE_JOB,
  startBackgroundJobs,
  type BackgroundJobs,
} from '../src/pipeline/scheduled/backgroundJobs';
import { reconcilePendingOrders } from '../src/features/payment';

/**
 * Work after a payment that cannot be lost: the confirmation mail is written with the Paid change
 * and delivered by the queue's mail job, through a real SMTP conversation; a paid order whose
 * browser never came back is settled by the reconcile job however many abandoned orders are older.
 */
describe('outbox mail and payment reconciliation on the job queue', () => {
  let p: PaymentTestApp;
  let t: TestApp;
  let f: OrdersFixture;
  let smtpPort: number;
  let smtp: SmtpServer | undefined;
  let queue: JobQueue;
  let releaseQueue: (() => Promise<void>) | undefined;
  let jobs: BackgroundJobs | undefined;
  let buyerToken: string;

  const guest = { name: 'Asha Rao', email: 'asha.outbox@example.com', phone_number: '9876543210', pincode: '560001' };
  const statusOf = async (txnid: string) => (await t.ctx.db.query<{ status: string }>('select status from orders where txnid = $1', [txnid]))[0].status;
  const outboxOf = (orderRef: string) =>
    t.ctx.db.query<{ attempts: number; last_error: string | null; sent_at: Date | null }>(
      `select m.attempts, m.last_error, m.sent_at from mail_outbox m join orders o on o.id = m.order_id where o.order_ref = $1`,
      [orderRef],
    );
  const mailsTo = (address: string) => (smtp?.received ?? []).filter((m) => m.to.includes(address));

  async function order(email = guest.email): Promise<PaymentForm> {
    const res = await t.request<PaymentForm>('POST', API_ROUTES.createOrder, {
      ...guest,
      email,
      captcha: await solveCaptcha(t.url),
      eventID: f.eventId,
      bibNumber: f.bib,
      cartInfo: { searchKind: 'bib', packageKind: null, lines: [{ type: 'download', category: 'image', id: f.photoIds[0] }], discountedPhotoIds: [] },
    });
    expect(res.status).toBe(200);
    return res.body.result;
  }

  async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, limitMs = 30_000): Promise<T> {
    const deadline = Date.now() + limitMs;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    // The mail server is down at first: nothing listens on its port.
    smtpPort = await freePort();
    const base = loadConfig();
    p = await startPaymentTestApp({}, { mail: { ...base.mail, smtpUrl: `smtp://127.0.0.1:${smtpPort}`, retrySeconds: 0 } });
    t = p.t;
    f = await seedOrdersFixture(t.ctx);
    // A proven account: its guest orders are its own (api/test/email-proof.test.ts).
    const buyerId = await createUser(t.ctx.db, {
      email: 'late.buyer@example.com',
      password: 'Finish@2026',
      firstName: 'Late',
      lastName: 'Buyer',
      emailVerified: true,
    });
    buyerToken = (await createSession(t.ctx.db, buyerId)).token;
    const acquired = await acquireJobQueue(t.ctx.db);
    queue = acquired.queue;
    releaseQueue = acquired.release;
    // The schedules (minute ticks) are left out: each case sends the job it needs, as a tick would.
    jobs = await startBackgroundJobs(t.ctx, queue, () => undefined, { schedule: false });
  }, SET_UP_TIMEOUT_MS);

  afterAll(async () => {
    await closeAll({ close: () => jobs?.stop() }, smtp);
    await releaseQueue?.();
    await closeAll(p);
  }, TEAR_DOWN_TIMEOUT_MS);

  it('a confirmation whose SMTP send fails is delivered by the mail job once the server is back, exactly once', async () => {
    const form = await order();
    const back = await p.pay(form);
    const res = await postBack(back.action, back.fields);
    // The buyer still lands on the success page: the payment is never undone by a mail failure.
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toContain('/ordersuccess?');
    expect(await statusOf(form.txnid)).toBe('Paid');
    const [pending] = await outboxOf(form.order_ref);
    expect(pending).toMatchObject({ attempts: 1, sent_at: null });
    expect(pending.last_error).toMatch(/ECONNREFUSED|connect/i);

    // A replayed return while the server is down writes no second mail.
    expect((await postBack(back.action, back.fields)).status).toBe(303);
    expect(await outboxOf(form.order_ref)).toHaveLength(1);

    // The mail job runs while the server is still down: the mail stays, with another failed attempt.
    await queue.send(MAIL_JOB, {});
    await waitFor('a second failed attempt', async () => (await outboxOf(form.order_ref))[0].attempts >= 2);
    expect((await outboxOf(form.order_ref))[0].sent_at).toBeNull();

    // The server recovers on the same address; the job's retry (or the next tick) delivers the mail.
    smtp = await startSmtpServer(smtpPort);
    await queue.send(MAIL_JOB, {});
    await waitFor('the mail to arrive', async () => mailsTo(guest.email).length > 0);
    const [sent] = await outboxOf(form.order_ref);
    expect(sent.sent_at).not.toBeNull();
    expect(sent.last_error).toBeNull();
    const received = mailsTo(guest.email);
    expect(received).toHaveLength(1);
    expect(received[0].data).toContain(`Subject: Your order ${form.order_ref} is confirmed`);
    expect(received[0].data).toMatch(/preauthdownload\?orderref=/);

    // More ticks and more replays send nothing more.
    await queue.send(MAIL_JOB, {});
    expect((await postBack(back.action, back.fields)).status).toBe(303);
    await waitFor('the mail queue to drain', async () => (await queue.pendingCount(MAIL_JOB)) === 0);
    expect(mailsTo(guest.email)).toHaveLength(1);
  });

  it('history and detail show the stored status without asking the gateway, even when it hangs', async () => {
    const form = await order('late.buyer@example.com');
    await p.pay(form); // paid at the gateway; the browser never comes back
    const { verifyUrl } = t.ctx.config.payu;
    // A gateway that accepts the connection and never answers.
    const hanging = await startSmtpServer();
    t.ctx.config.payu.verifyUrl = `http://127.0.0.1:${hanging.port}/merchant/postservice?form=2`;
    try {
      const started = Date.now();
      const history = await t.request<OrderHistoryResult>('POST', API_ROUTES.orderHistory, { searchtext: '' }, { authorization: `Bearer ${buyerToken}` });
      const detail = await t.request<{ status: string }>(
        'POST',
        API_ROUTES.orderDetail,
        { orderID: form.order_ref },
        { authorization: `Bearer ${buyerToken}` },
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(history.body.result.order_history.find((o) => o.order_ref === form.order_ref)?.status).toBe('Pending');
      expect(detail.body.result.status).toBe('Pending');
    } finally {
      t.ctx.config.payu.verifyUrl = verifyUrl;
      await hanging.close();
    }
  });

  it('a paid order whose browser never returned is settled by the reconcile job with 1,000 abandoned orders in front of it', async () => {
    const form = await order('late.buyer@example.com');
    await p.pay(form); // paid at the gateway; the browser never comes back
    // 1,000 abandoned checkouts, all older than the paid order, none ever paid.
    await t.ctx.db.query(
      `insert into orders (order_ref, txnid, event_id, bib_number, name, email, phone, amount, amount_text, productinfo, created_at)
       select 'FLABANDON' || g, 'abandoned-' || g, $1, $2, 'Someone', 'abandoned' || g || '@example.com', '9876543210', 100, '100.00', 'x',
              now() - interval '3 days' + g * interval '1 second'
         from generate_series(1, 1000) g`,
      [f.eventId, f.bib],
    );
    await t.ctx.db.query(`update orders set created_at = now() - interval '30 minutes' where txnid = $1`, [form.txnid]);

    const started = Date.now();
    await queue.send(RECONCILE_JOB, {});
    await waitFor('the paid order to be settled', async () => (await statusOf(form.txnid)) === 'Paid', 60_000);
    const seconds = (Date.now() - started) / 1000;
    await waitFor('the reconcile job to finish', async () => (await queue.pendingCount(RECONCILE_JOB)) === 0, 60_000);
    process.stdout.write(`reconcile job: 1,001 orders checked, paid order settled after ${seconds.toFixed(1)} s\n`);

    // The abandoned orders are past the expiry time (24 h by default): Cancelled, each asked about once.
    const abandoned = await t.ctx.db.query<{ status: string; n: number; checks: number }>(
      `select status, count(*)::int as n, max(payment_checks)::int as checks from orders where txnid like 'abandoned-%' group by status`,
    );
    expect(abandoned).toEqual([{ status: 'Cancelled', n: 1000, checks: 1 }]);
    const expiredLog = await t.ctx.db.query<{ n: number }>(`select count(*)::int as n from payment_callbacks where kind = 'reconcile' and outcome = 'expired'`);
    expect(expiredLog[0].n).toBe(1000);

    // The buyer sees Paid and gets the one confirmation (the mail server is up since the first case).
    const history = await t.request<OrderHistoryResult>('POST', API_ROUTES.orderHistory, { searchtext: '' }, { authorization: `Bearer ${buyerToken}` });
    expect(history.body.result.order_history.find((o) => o.order_ref === form.order_ref)?.status).toBe('Paid');
    await waitFor('the confirmation', async () => mailsTo('late.buyer@example.com').some((m) => m.data.includes(form.order_ref)));
  });

  it('an order expired as abandoned is still settled when its payment comes back later: money received is never refused', async () => {
    const form = await order('slow.payer@example.com');
    await t.ctx.db.query(`update orders set created_at = now() - interval '2 days' where txnid = $1`, [form.txnid]);
    await reconcilePendingOrders(t.ctx, t.ctx.config.jobs.reconcile);
    expect(await statusOf(form.txnid)).toBe('Cancelled');
    const back = await p.pay(form);
    const res = await postBack(back.action, back.fields);
    expect(res.headers.get('location')).toContain('/ordersuccess?');
    expect(await statusOf(form.txnid)).toBe('Paid');
    await waitFor('the confirmation', async () => mailsTo('slow.payer@example.com').length === 1);
  });

  it('two runs at once never ask about the same order twice (claims skip locked rows), and a young order waits', async () => {
    await t.ctx.db.query(
      `insert into orders (order_ref, txnid, event_id, bib_number, name, email, phone, amount, amount_text, productinfo, created_at)
       select 'FLTWICE' || g, 'twice-' || g, $1, $2, 'Someone', 'twice@example.com', '9876543210', 100, '100.00', 'x', now() - interval '1 hour'
         from generate_series(1, 300) g`,
      [f.eventId, f.bib],
    );
    const young = await order('young@example.com');
    const settings = { ...t.ctx.config.jobs.reconcile, expireAfterMinutes: 1440 };
    const [a, b] = await Promise.all([reconcilePendingOrders(t.ctx, settings), reconcilePendingOrders(t.ctx, settings)]);
    const checks = await t.ctx.db.query<{ checks: number; n: number }>(
      `select payment_checks as checks, count(*)::int as n from orders where txnid like 'twice-%' group by payment_checks`,
    );
    expect(checks).toEqual([{ checks: 1, n: 300 }]);
    expect(a.checked + b.checked).toBeGreaterThanOrEqual(300);
    // Younger than the minimum age (the buyer may still be on the payment page): not asked about.
    const youngRow = await t.ctx.db.query<{ payment_checks: number; status: string }>('select payment_checks, status from orders where txnid = $1', [
      young.txnid,
    ]);
    expect(youngRow[0]).toEqual({ payment_checks: 0, status: 'Pending' });
    // Checked just now: a further run within the recheck time asks about nothing.
    expect((await reconcilePendingOrders(t.ctx, settings)).checked).toBe(0);
  });

  // Last: stopping a second start's workers stops every worker of these queues in this process.
  it('a start schedules mail and reconciliation every minute and pruning hourly, once however many instances start, on queues that keep one job per tick', async () => {
    for (let instance = 0; instance < 2; instance++) {
      const started = await startBackgroundJobs(t.ctx, queue, () => undefined);
      await started.stop();
    }
    const schedules = await queue.boss.getSchedules();
    expect(schedules.map((s) => [s.name, s.cron]).sort()).toEqual(
      [
        [MAIL_JOB, t.ctx.config.jobs.mailSchedule],
        [PRUNE_JOB, t.ctx.config.jobs.pruneSchedule],
        [RECONCILE_JOB, t.ctx.config.jobs.reconcileSchedule],
        [CLEAN_ORIGINALS_JOB, t.ctx.config.jobs.cleanOriginalsSchedule],
        [PRINT_FILES_JOB, t.ctx.config.jobs.printFilesSchedule],
        [PRINT_REFUNDS_JOB, t.ctx.config.jobs.printRefundsSchedule],
        [CANARY_WATCH_JOB, t.ctx.config.releases.watchSchedule],
      ].sort(),
    );
    expect([t.ctx.config.jobs.mailSchedule, t.ctx.config.jobs.reconcileSchedule, t.ctx.config.jobs.pruneSchedule]).toEqual([
      '* * * * *',
      '* * * * *',
      '17 * * * *',
    ]);
    for (const name of [MAIL_JOB, RECONCILE_JOB, PRUNE_JOB, CLEAN_ORIGINALS_JOB, PRINT_FILES_JOB, PRINT_REFUNDS_JOB, CANARY_WATCH_JOB])
      expect((await queue.boss.getQueue(name))?.policy).toBe('stately');
  });
});
