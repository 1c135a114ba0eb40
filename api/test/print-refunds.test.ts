import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import {
  API_ROUTES,
  DECLINE_REASON_MESSAGE,
  DOWNLOADS_NOT_REFUNDABLE_MESSAGE,
  REFUND_POLICY,
  type FulfilmentLine,
  type OrderDetail,
  type OrderPrintLine,
  type PaymentForm,
  type PrintRefundResult,
  type ReplacementQueueResult,
} from '@finishline/shared/pure';
import { SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { postBack, startPaymentTestApp, type PaymentTestApp } from './support/paymentApp';
import { seedOrdersFixture, type OrdersFixture } from './ordersFixtures';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';
import { retryDueRefunds } from '../src/features/fulfilment';
import { refundedMessage, refundPendingMessage, refundTooLargeMessage } from '../src/features/fulfilment/refunds';
import {
  ALREADY_ASKED_MESSAGE,
  decidedMeanwhileMessage,
  NOT_DELIVERED_MESSAGE,
  PHOTO_NOT_IMAGE_MESSAGE,
  PHOTO_REQUIRED_MESSAGE,
  PHOTO_TOO_LARGE_MESSAGE,
  REPLACEMENT_ASKED_MESSAGE,
} from '../src/features/fulfilment/replacements';
import { eventDashboard, partnerShares } from '../src/features/organiser/dashboard';

/**
 * Refunds and replacements of print lines: a refund goes through the gateway's
 * cancel_refund_transaction (the sandbox, paid for real through it), is recorded once whatever is
 * retried or clicked twice, stays "Refund pending" while the gateway fails and goes through on the
 * next attempt or the job, is never larger than what is left of the line and never of a download,
 * and shows in the organiser's ledger; a runner asks for a replacement within 7 days of delivery with
 * a photo of the damage, and fulfilment approves (a new line at no charge) or declines with a reason.
 */
describe('print refunds and replacements', () => {
  let p: PaymentTestApp;
  let f: OrdersFixture;
  let runner: string;
  let staff: string;
  let magnetId: number;
  let photoKey = 0;
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const uuid = () => `k-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;

  /** A signed-in runner's order with these lines, paid through the sandbox and returned to the API. */
  async function paidOrder(lines: object[]): Promise<string> {
    const res = await p.t.request<PaymentForm>(
      'POST',
      API_ROUTES.createOrder,
      {
        name: 'Asha Rao',
        email: 'asha@example.com',
        phone_number: '9876543210',
        gender: 'Female',
        shipping_address: '12 MG Road, Bengaluru',
        pincode: '560001',
        eventID: f.eventId,
        bibNumber: f.bib,
        cartInfo: { searchKind: 'bib', packageKind: null, lines, discountedPhotoIds: [] },
      },
      auth(runner),
    );
    expect(res.body.Message).toBe('Order created');
    const back = await p.pay(res.body.result);
    expect((await postBack(back.action, back.fields)).status).toBe(303);
    return res.body.result.order_ref;
  }

  const items = (orderRef: string) =>
    p.t.ctx.db.query<{ id: number; kind: string; total: string }>(
      'select i.id, i.kind, i.total from order_items i join orders o on o.id = i.order_id where o.order_ref = $1 order by i.id',
      [orderRef],
    );
  const refund = (orderItemId: number, amount: number, requestKey = uuid(), token = staff) =>
    p.t.request<PrintRefundResult>('POST', API_ROUTES.fulfilmentRefund, { orderItemId, amount, requestKey }, auth(token));
  const failNextRefunds = (count: number) =>
    fetch(`${p.sandboxUrl}/_sandbox/refund-failures`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count }) });
  const lineOf = async (orderItemId: number) =>
    (
      await p.t.ctx.db.query<{ id: number; refunded: string; amount: string }>(
        'select id, refunded, amount from print_lines where order_item_id = $1 and replacement_of is null',
        [orderItemId],
      )
    )[0]!;
  const refundRows = (lineId: number) =>
    p.t.ctx.db.query<{ status: string; amount: number }>('select status, amount::float8 as amount from print_refunds where line_id = $1 order by id', [lineId]);
  const detail = async (orderRef: string) => (await p.t.request<OrderDetail>('POST', API_ROUTES.orderDetail, { orderID: orderRef }, auth(runner))).body.result;

  beforeAll(async () => {
    p = await startPaymentTestApp();
    f = await seedOrdersFixture(p.t.ctx);
    magnetId = (
      await p.t.ctx.db.query<{ id: number }>(
        `insert into print_products (name, image_key, price, print_width_in, print_height_in) values ('Magnet 4x6 inches', 'prints/m.png', 739, 4, 6) returning id`,
      )
    )[0]!.id;
    const asha = await createUser(p.t.ctx.db, {
      firstName: 'Asha',
      lastName: 'Rao',
      email: 'asha@example.com',
      password: 'Finish@2026',
      primaryPhone: '9876543210',
      emailVerified: true,
    });
    runner = (await createSession(p.t.ctx.db, asha)).token;
    const printer = await createUser(p.t.ctx.db, { firstName: 'Pooja', lastName: 'Print', email: 'print@example.com', password: 'Finish@2026' });
    await p.t.ctx.db.query('update users set is_fulfilment = true where id = $1', [printer]);
    staff = (await createSession(p.t.ctx.db, printer)).token;
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => p?.close(), TEAR_DOWN_TIMEOUT_MS);

  it('refunds part of a print line through the gateway, once; the ledger loses it, the photographer keeps their share, the runner sees it and gets one mail', async () => {
    const orderRef = await paidOrder([
      { type: 'download', category: 'image', id: f.photoIds[0] },
      { type: 'print', category: 'image', id: f.photoIds[0], printProductId: magnetId },
    ]);
    const [, print] = await items(orderRef);
    const before = await eventDashboard(p.t.ctx.db, 0, f.eventId);
    const sharesBefore = await partnerShares(p.t.ctx.db, f.eventId);
    // A runner may not refund.
    expect((await refund(print!.id, 100, uuid(), runner)).status).toBe(403);

    const key = uuid();
    const first = await refund(print!.id, 100, key);
    expect([first.status, first.body.Message]).toEqual([200, refundedMessage(100)]);
    expect(first.body.result.refund).toMatchObject({ amount: 100, status: 'refunded', lastError: null });
    expect(first.body.result.line).toMatchObject({ refunded: 100, refundPending: 0, amount: Number(print!.total) });
    // The same key again (a retry, a double click): the same refund, nothing refunded twice.
    const again = await refund(print!.id, 100, key);
    expect(again.body.result.refund.id).toBe(first.body.result.refund.id);
    const line = await lineOf(print!.id);
    expect(Number(line.refunded)).toBe(100);
    expect(await refundRows(line.id)).toEqual([{ status: 'refunded', amount: 100 }]);

    // The organiser's ledger: revenue less the refund (GST included), prints less its net part.
    const after = await eventDashboard(p.t.ctx.db, 0, f.eventId);
    expect(after.totals!.refunded).toBe(before.totals!.refunded + 100);
    expect(after.totals!.totalrev).toBeCloseTo(before.totals!.totalrev - 100, 2);
    expect(after.totals!.printval).toBeLessThan(before.totals!.printval);
    expect(after.totals!.printval - before.totals!.printval + (after.totals!.tax - before.totals!.tax)).toBeCloseTo(-100, 2);
    expect(after.ledger!.products.find((r) => r.product === 'print')).toMatchObject({ refunded: 100 });
    const day = after.ledger!.daily.reduce((s, d) => s + d.revenue, 0);
    expect(day).toBeCloseTo(after.totals!.totalrev, 2);
    // Prints earn the photographer nothing (rules/photoSales.ts): a print's refund leaves the share as it was.
    expect(await partnerShares(p.t.ctx.db, f.eventId)).toEqual(sharesBefore);

    expect((await detail(orderRef)).printLines).toEqual([expect.objectContaining({ refunded: 100, refundPending: 0 })]);
    const mails = await p.t.ctx.db.query<{ to_address: string; body_text: string }>(
      `select to_address, body_text from mail_outbox where tag = 'print_refund' and body_text like '%' || $1 || '%'`,
      [orderRef],
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to_address).toBe('asha@example.com');
    expect(mails[0]!.body_text).toContain('We have refunded ₹100');
    expect(mails[0]!.body_text).toContain(REFUND_POLICY);

    // The rest of the line, and not a paisa more.
    const left = Number(print!.total) - 100;
    const tooMuch = await refund(print!.id, left + 1);
    expect([tooMuch.status, tooMuch.body.Message]).toEqual([400, refundTooLargeMessage(left)]);
    expect((await refund(print!.id, left)).body.result.line.refunded).toBe(Number(print!.total));
    const nothing = await refund(print!.id, 1);
    expect([nothing.status, nothing.body.Message]).toEqual([400, refundTooLargeMessage(0)]);
  }, 60_000);

  it('never refunds a download', async () => {
    const orderRef = await paidOrder([{ type: 'download', category: 'image', id: f.photoIds[1] }]);
    const [download] = await items(orderRef);
    const refused = await refund(download!.id, 10);
    expect([refused.status, refused.body.Message]).toEqual([400, DOWNLOADS_NOT_REFUNDABLE_MESSAGE]);
    expect(await p.t.ctx.db.query('select 1 from print_refunds r join orders o on o.id = r.order_id where o.order_ref = $1', [orderRef])).toEqual([]);
  });

  it('a failing gateway leaves the refund pending (counted against the line) until the next attempt or the job gets it through', async () => {
    const orderRef = await paidOrder([{ type: 'print', category: 'image', id: f.photoIds[2], printProductId: magnetId }]);
    const [print] = await items(orderRef);
    const total = Number(print!.total);
    await failNextRefunds(1);
    const key = uuid();
    const pending = await refund(print!.id, 200, key);
    expect([pending.status, pending.body.Message]).toEqual([200, refundPendingMessage(200)]);
    expect(pending.body.result.refund).toMatchObject({ status: 'pending', lastError: expect.stringContaining('HTTP 503') });
    expect(pending.body.result.line).toMatchObject({ refunded: 0, refundPending: 200 });
    expect((await detail(orderRef)).printLines[0]).toMatchObject({ refunded: 0, refundPending: 200 });
    // What is pending is not refunded again by another refund.
    const over = await refund(print!.id, total - 199);
    expect([over.status, over.body.Message]).toEqual([400, refundTooLargeMessage(total - 200)]);
    // The next attempt of the same refund goes through.
    const retried = await refund(print!.id, 200, key);
    expect([retried.status, retried.body.Message]).toEqual([200, refundedMessage(200)]);
    expect(retried.body.result.line).toMatchObject({ refunded: 200, refundPending: 0 });

    // Or the job: the gateway fails again, the job's run once the attempt is due gets it through.
    await failNextRefunds(1);
    const second = await refund(print!.id, 50);
    expect(second.body.result.refund.status).toBe('pending');
    expect(await retryDueRefunds(p.t.ctx, () => undefined)).toEqual({ refunded: 0, pending: 0 });
    await p.t.ctx.db.query(`update print_refunds set next_attempt_at = now() - interval '1 second' where id = $1`, [second.body.result.refund.id]);
    expect(await retryDueRefunds(p.t.ctx, () => undefined)).toEqual({ refunded: 1, pending: 0 });
    const line = await lineOf(print!.id);
    expect(Number(line.refunded)).toBe(250);
    expect((await refundRows(line.id)).map((r) => r.status)).toEqual(['refunded', 'refunded']);
  }, 60_000);

  it('two refunds of one line at once leave one result, and a double click one refund', async () => {
    const orderRef = await paidOrder([{ type: 'print', category: 'image', id: f.photoIds[3], printProductId: magnetId }]);
    const [print] = await items(orderRef);
    const total = Number(print!.total);
    const both = await Promise.all([refund(print!.id, total), refund(print!.id, total)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    const line = await lineOf(print!.id);
    expect(Number(line.refunded)).toBe(total);
    expect(await refundRows(line.id)).toHaveLength(1);

    const other = await paidOrder([{ type: 'print', category: 'image', id: f.photoIds[4], printProductId: magnetId }]);
    const [item] = await items(other);
    const key = uuid();
    const clicks = await Promise.all([refund(item!.id, 300, key), refund(item!.id, 300, key), refund(item!.id, 300, key)]);
    expect(new Set(clicks.map((c) => c.body.result.refund.id)).size).toBe(1);
    await retryDueRefunds(p.t.ctx, () => undefined);
    const otherLine = await lineOf(item!.id);
    expect(await refundRows(otherLine.id)).toEqual([{ status: 'refunded', amount: 300 }]);
    expect(Number(otherLine.refunded)).toBe(300);
  }, 60_000);

  describe('replacements', () => {
    let orderRef: string;
    let lineId: number;
    const jpeg = () =>
      sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } } })
        .jpeg()
        .toBuffer();

    async function ask(fields: { orderID: string; lineId: number; note?: string }, photo: Buffer | null, type = 'image/jpeg', token = runner) {
      const form = new FormData();
      form.append('orderID', fields.orderID);
      form.append('lineId', String(fields.lineId));
      form.append('note', fields.note ?? '');
      if (photo) form.append('photo', new Blob([new Uint8Array(photo)], { type }), `damage-${++photoKey}.jpg`);
      const res = await fetch(`${p.t.url}${API_ROUTES.orderReplacementAsk}`, { method: 'POST', headers: auth(token), body: form });
      return { status: res.status, body: (await res.json()) as { Message: string; result: OrderPrintLine } };
    }
    const decide = (requestId: number, approve: boolean, reason?: string) =>
      p.t.request<FulfilmentLine>('POST', API_ROUTES.fulfilmentReplacementDecide, { requestId, approve, reason }, auth(staff));
    const deliveredDaysAgo = (id: number, days: number) =>
      p.t.ctx.db.query(`update print_lines set status = 'delivered', delivered_at = now() - make_interval(days => $2) where id = $1`, [id, days]);

    beforeAll(async () => {
      orderRef = await paidOrder([
        { type: 'print', category: 'image', id: f.photoIds[0], printProductId: magnetId },
        { type: 'print', category: 'image', id: f.photoIds[1], printProductId: magnetId },
      ]);
      lineId = (await detail(orderRef)).printLines[0]!.id;
    }, 60_000);

    it('only for a delivered line, within 7 days of delivery, with an image of the damage', async () => {
      const notYet = await ask({ orderID: orderRef, lineId }, await jpeg());
      expect([notYet.status, notYet.body.Message]).toEqual([400, NOT_DELIVERED_MESSAGE]);
      await deliveredDaysAgo(lineId, 8);
      expect((await detail(orderRef)).printLines[0]).toMatchObject({ status: 'delivered', canRequestReplacement: false });
      const late = await ask({ orderID: orderRef, lineId }, await jpeg());
      expect(late.status).toBe(400);
      expect(late.body.Message).toMatch(/^A replacement can be asked for within 7 days of delivery: this print was delivered on /);
      await deliveredDaysAgo(lineId, 6);
      expect((await detail(orderRef)).printLines[0]).toMatchObject({ canRequestReplacement: true });

      const none = await ask({ orderID: orderRef, lineId }, null);
      expect([none.status, none.body.Message]).toEqual([400, PHOTO_REQUIRED_MESSAGE]);
      const text = await ask({ orderID: orderRef, lineId }, Buffer.from('not an image at all'), 'image/jpeg');
      expect([text.status, text.body.Message]).toEqual([400, PHOTO_NOT_IMAGE_MESSAGE]);
      const huge = await ask({ orderID: orderRef, lineId }, Buffer.alloc(6 * 1024 * 1024, 1));
      expect([huge.status, huge.body.Message]).toEqual([400, PHOTO_TOO_LARGE_MESSAGE]);
      // Someone else's order answers as an unknown one.
      const stranger = await createUser(p.t.ctx.db, {
        firstName: 'Ravi',
        lastName: 'K',
        email: 'ravi@example.com',
        password: 'Finish@2026',
        emailVerified: true,
      });
      expect((await ask({ orderID: orderRef, lineId }, await jpeg(), 'image/jpeg', (await createSession(p.t.ctx.db, stranger)).token)).status).toBe(404);
      expect(await p.t.ctx.db.query('select 1 from print_replacement_requests')).toEqual([]);

      const asked = await ask({ orderID: orderRef, lineId, note: 'The magnet arrived cracked.' }, await jpeg());
      expect([asked.status, asked.body.Message]).toEqual([200, REPLACEMENT_ASKED_MESSAGE]);
      expect(asked.body.result).toMatchObject({
        canRequestReplacement: false,
        replacementRequest: { status: 'requested', note: 'The magnet arrived cracked.' },
      });
      const twice = await ask({ orderID: orderRef, lineId }, await jpeg());
      expect([twice.status, twice.body.Message]).toEqual([409, ALREADY_ASKED_MESSAGE]);
    }, 60_000);

    it('fulfilment sees the request with its photo and approves it: a new line at no charge in the queue; the runner sees it', async () => {
      const open = (await p.t.request<ReplacementQueueResult>('POST', API_ROUTES.fulfilmentReplacements, {}, auth(staff))).body.result.requests;
      const mine = open.find((r) => r.line.id === lineId)!;
      expect(mine.request).toMatchObject({ status: 'requested', note: 'The magnet arrived cracked.' });
      expect((await p.t.request('POST', API_ROUTES.fulfilmentReplacements, {}, auth(runner))).status).toBe(403);
      const photo = await fetch(`${p.t.url}${API_ROUTES.fulfilmentReplacementPhoto}?requestId=${mine.request.id}`, { headers: auth(staff) });
      expect(photo.headers.get('content-type')).toBe('image/jpeg');
      expect((await sharp(Buffer.from(await photo.arrayBuffer())).metadata()).width).toBe(64);

      const noReason = await decide(mine.request.id, false);
      expect([noReason.status, noReason.body.Message]).toEqual([400, DECLINE_REASON_MESSAGE]);
      const [approved, second] = await Promise.all([decide(mine.request.id, true), decide(mine.request.id, true)]);
      const ok = approved.status === 200 ? approved : second;
      expect([approved.status, second.status].sort()).toEqual([200, 409]);
      expect((approved.status === 409 ? approved : second).body.Message).toBe(decidedMeanwhileMessage('approved'));
      expect(ok.body.result).toMatchObject({ replacementOf: lineId, amount: 0, status: 'queued', fileState: 'pending' });
      const lines = await p.t.ctx.db.query<{ id: number; amount: string; replacement_of: number | null; status: string }>(
        'select l.id, l.amount, l.replacement_of, l.status from print_lines l join orders o on o.id = l.order_id where o.order_ref = $1 order by l.id',
        [orderRef],
      );
      expect(lines).toHaveLength(3);
      expect(lines[2]).toMatchObject({ replacement_of: lineId, status: 'queued' });
      expect(Number(lines[2]!.amount)).toBe(0);

      const shown = (await detail(orderRef)).printLines;
      expect(shown.find((l) => l.id === lineId)).toMatchObject({
        replacementRequest: { status: 'approved', replacementLineId: ok.body.result.id },
        canRequestReplacement: false,
      });
      expect(shown.find((l) => l.id === ok.body.result.id)).toMatchObject({ replacementOf: lineId, statusLabel: 'Being prepared' });
      expect(await p.t.ctx.db.query(`select tag from mail_outbox where tag like 'print_replacement%' and body_text like '%' || $1 || '%'`, [orderRef])).toEqual(
        [{ tag: 'print_replacement_approved' }],
      );
    });

    it('a declined request tells the runner why', async () => {
      const other = (await detail(orderRef)).printLines[1]!.id;
      await deliveredDaysAgo(other, 1);
      const asked = await ask({ orderID: orderRef, lineId: other }, await jpeg());
      const declined = await decide(asked.body.result.replacementRequest!.id, false, 'The photo shows no damage.');
      expect(declined.status).toBe(200);
      expect((await detail(orderRef)).printLines.find((l) => l.id === other)).toMatchObject({
        replacementRequest: { status: 'declined', declineReason: 'The photo shows no damage.' },
        canRequestReplacement: true,
      });
    });
  });
});
