import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { API_ROUTES, type OrderHistoryResult, type PaymentForm } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { solveCaptcha } from './support/captcha';
import { formAction, hiddenInputs, seedOrdersFixture, type OrdersFixture } from './ordersFixtures';
import { loadConfig } from '../src/config/config';
import { buildSandbox, FAILING_CARD, SUCCESS_CARDS } from '../src/payment-sandbox/sandbox';
import { payuReverseHash } from '../src/payu/payuHash';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';
import { readOutbox } from '../src/mail/mailer';
import { reconcilePendingOrders } from '../src/features/payment';

const KEY = 'TESTKEY';
const SALT = 'test-salt-42';

describe('create order and the PayU return, through the sandbox gateway', () => {
  let t: TestApp;
  let sandbox: FastifyInstance;
  let sandboxUrl: string;
  let f: OrdersFixture;
  let runnerToken: string;
  let otherToken: string;

  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const orderRow = async (txnid: string) =>
    (
      await t.ctx.db.query<{ status: string; payment_id: string | null; paid_at: Date | null; amount: number }>(
        'select status, payment_id, paid_at, amount from orders where txnid = $1',
        [txnid],
      )
    )[0];
  const cartOf = (ids: number[], extra: object = {}) => ({
    eventID: f.eventId,
    bibNumber: f.bib,
    cartInfo: { searchKind: 'bib', packageKind: null, lines: ids.map((id) => ({ type: 'download', category: 'image', id })), discountedPhotoIds: [] },
    ...extra,
  });
  const guest = { name: 'Asha Rao', email: 'asha.guest@example.com', phone_number: '9876543210', pincode: '560001' };

  /** What the browser does: post the hidden form to the gateway, pay (or not), follow the auto-post back. */
  async function payThroughSandbox(form: PaymentForm, card: string | 'cancel'): Promise<{ action: string; fields: Record<string, string> }> {
    const pay = await fetch(form.PAYU_API_URL, {
      method: 'POST',
      body: new URLSearchParams({
        key: form.key,
        txnid: form.txnid,
        amount: form.amount,
        productinfo: form.productinfo,
        firstname: form.firstname,
        lastname: form.lastname,
        email: form.email,
        phone: form.phone,
        surl: form.surl,
        furl: form.furl,
        hash: form.hash,
        udf1: form.udf1,
      }),
    });
    expect(pay.status).toBe(200);
    const complete = await fetch(`${sandboxUrl}/_payment/complete`, {
      method: 'POST',
      body: new URLSearchParams(card === 'cancel' ? { txnid: form.txnid, action: 'cancel' } : { txnid: form.txnid, ccnum: card, action: 'pay' }),
    });
    const html = await complete.text();
    return { action: formAction(html), fields: hiddenInputs(html) };
  }

  const postBack = (action: string, fields: Record<string, string>) => fetch(action, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });

  async function guestOrder(ids: number[], extra: object = {}): Promise<PaymentForm> {
    const res = await t.request<PaymentForm>('POST', API_ROUTES.createOrder, { ...guest, ...cartOf(ids, extra), captcha: await solveCaptcha(t.url) });
    expect(res.body.Message).toBe('Order created');
    return res.body.result;
  }

  beforeAll(async () => {
    sandbox = await buildSandbox({ key: KEY, salt: SALT });
    sandboxUrl = (await sandbox.listen({ port: 0, host: '127.0.0.1' })).replace('127.0.0.1', 'localhost');
    t = await startTestApp({
      shellUrl: 'http://shell.test',
      payu: { key: KEY, salt: SALT, url: `${sandboxUrl}/_payment`, verifyUrl: `${sandboxUrl}/merchant/postservice?form=2` },
      security: { ...loadConfig().security, captchaCost: 20, captchaMaxCounter: 400 },
    });
    f = await seedOrdersFixture(t.ctx);
    // Ravi proved his address (his guest orders are his too); Meera's account is another runner's.
    await createUser(t.ctx.db, {
      firstName: 'Ravi',
      lastName: 'Kumar',
      email: 'ravi@example.com',
      password: 'Finish@2026',
      primaryPhone: '9811111111',
      emailVerified: true,
    });
    await createUser(t.ctx.db, { firstName: 'Meera', lastName: 'Iyer', email: 'meera@example.com', password: 'Finish@2026' });
    runnerToken = (await createSession(t.ctx.db, (await t.ctx.db.query<{ id: number }>(`select id from users where email = 'ravi@example.com'`))[0].id)).token;
    otherToken = (await createSession(t.ctx.db, (await t.ctx.db.query<{ id: number }>(`select id from users where email = 'meera@example.com'`))[0].id)).token;
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t, sandbox), TEAR_DOWN_TIMEOUT_MS);

  it('prices the order on the server: the client amount is ignored, the order is Pending with its bill lines', async () => {
    const res = await t.request<PaymentForm>('POST', API_ROUTES.createOrder, {
      ...guest,
      ...cartOf(f.photoIds.slice(0, 2)),
      amount: 1,
      captcha: await solveCaptcha(t.url),
    });
    expect(res.status).toBe(200);
    const form = res.body.result;
    // 2 photos: 100 + 50 = 150, GST 18% = 27 -> 177.
    expect(form.amount).toBe('177.00');
    expect(form).toMatchObject({ key: KEY, firstname: 'Asha', lastname: 'Rao', email: 'asha.guest@example.com', PAYU_API_URL: `${sandboxUrl}/_payment` });
    expect(form.surl).toBe(`${t.url}${API_ROUTES.paymentSuccess}`);
    expect(form.hash).toMatch(/^[0-9a-f]{128}$/);
    const row = await orderRow(form.txnid);
    expect(row).toMatchObject({ status: 'Pending', amount: 177, payment_id: null });
    const items = await t.ctx.db.query<{ kind: string; photo_ids: number[]; total: number }>(
      'select kind, photo_ids, total from order_items i join orders o on o.id = i.order_id where o.txnid = $1',
      [form.txnid],
    );
    expect(items).toEqual([{ kind: 'images', photo_ids: f.photoIds.slice(0, 2), total: 177 }]);
    // The guest got a user record without a password.
    const users = await t.ctx.db.query<{ password_hash: string | null }>(`select password_hash from users where email = 'asha.guest@example.com'`);
    expect(users).toEqual([{ password_hash: null }]);
  });

  it('refuses a guest order without captcha and a photo of another BIB', async () => {
    const noCaptcha = await t.request('POST', API_ROUTES.createOrder, { ...guest, ...cartOf([f.photoIds[0]]) });
    expect(noCaptcha.status).toBe(400);
    expect(noCaptcha.body.Message).toBe('Please complete the captcha.');
    const foreign = await t.request(
      'POST',
      API_ROUTES.createOrder,
      {
        ...cartOf([f.otherBibPhotoId]),
        name: 'Ravi Kumar',
        email: 'x@example.com',
        phone_number: '9811111111',
        gender: 'Male',
        shipping_address: 'MG Road',
        pincode: '560001',
      },
      auth(runnerToken),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.Message).toMatch(/single BIB only/);
    const badPhone = await t.request('POST', API_ROUTES.createOrder, { ...guest, phone_number: '98765', ...cartOf([f.photoIds[0]]) });
    expect(badPhone.body.Message).toBe('Must contain 10 Digits!');
  });

  it('a guest purchase: pays in the sandbox, returns 303 to /ordersuccess, becomes Paid, mails the pre-authorised link, sets the marquee', async () => {
    const form = await guestOrder([f.photoIds[0]]);
    const back = await payThroughSandbox(form, SUCCESS_CARDS[0]);
    expect(back.action).toBe(form.surl);
    expect(back.fields).toMatchObject({ status: 'success', txnid: form.txnid, amount: form.amount, udf1: form.order_ref });
    const res = await postBack(back.action, back.fields);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`http://shell.test/ordersuccess?orderref=${form.order_ref}&txnid=${form.txnid}`);
    const row = await orderRow(form.txnid);
    expect(row.status).toBe('Paid');
    expect(row.payment_id).toBe(back.fields.mihpayid);
    const mails = (await readOutbox(t.ctx.mailer.outboxDir!)).filter((m) => m.tag === 'order_confirmation' && m.text.includes(form.order_ref));
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toBe('asha.guest@example.com');
    expect(mails[0].text).toMatch(/http:\/\/shell\.test\/preauthdownload\?orderref=FL\w+&e=asha\.guest%40example\.com&lt=\d+&h=[0-9a-f]{64}/);
    const marquee = await t.request<{ purchase_notification: string }>('GET', API_ROUTES.purchaseNotification);
    expect(marquee.body.result.purchase_notification).toBe('A runner just bought photos of Orders Test Marathon 2026');
  });

  it('a replayed success callback changes nothing', async () => {
    const form = await guestOrder([f.photoIds[1]]);
    const back = await payThroughSandbox(form, SUCCESS_CARDS[1]);
    expect((await postBack(back.action, back.fields)).status).toBe(303);
    const first = await orderRow(form.txnid);
    const replay = await postBack(back.action, back.fields);
    expect(replay.status).toBe(303);
    const after = await orderRow(form.txnid);
    expect(after).toEqual(first);
    expect((await readOutbox(t.ctx.mailer.outboxDir!)).filter((m) => m.text.includes(form.order_ref))).toHaveLength(1);
    const log = await t.ctx.db.query<{ outcome: string }>('select outcome from payment_callbacks where txnid = $1 order by id', [form.txnid]);
    expect(log.map((l) => l.outcome)).toEqual(['paid', 'replay']);
  });

  it('concurrent duplicate callbacks give one Paid order and one confirmation', async () => {
    const form = await guestOrder([f.photoIds[2]]);
    const back = await payThroughSandbox(form, SUCCESS_CARDS[0]);
    const results = await Promise.all(Array.from({ length: 5 }, () => postBack(back.action, back.fields)));
    expect(results.map((r) => r.status)).toEqual([303, 303, 303, 303, 303]);
    expect((await orderRow(form.txnid)).status).toBe('Paid');
    const log = await t.ctx.db.query<{ outcome: string }>('select outcome from payment_callbacks where txnid = $1', [form.txnid]);
    expect(log.filter((l) => l.outcome === 'paid')).toHaveLength(1);
    expect(log.filter((l) => l.outcome === 'replay')).toHaveLength(4);
    expect((await readOutbox(t.ctx.mailer.outboxDir!)).filter((m) => m.text.includes(form.order_ref))).toHaveLength(1);
  });

  it('refuses forged returns (bad hash, changed amount, unknown txnid) and leaves the order unchanged', async () => {
    const form = await guestOrder([f.photoIds[3]]);
    const back = await payThroughSandbox(form, SUCCESS_CARDS[0]);
    const before = await orderRow(form.txnid);

    const badHash = await postBack(back.action, { ...back.fields, hash: 'a'.repeat(128) });
    expect(badHash.status).toBe(400);
    expect((await badHash.json()).Message).toBe('We could not verify this payment response. Your order has not been changed.');

    // Changed amount with the original hash, and with a hash recomputed as if the salt had leaked.
    const cheaper = { ...back.fields, amount: '1.00' };
    expect((await postBack(back.action, cheaper)).status).toBe(400);
    const b = back.fields;
    const resigned = {
      ...cheaper,
      hash: payuReverseHash(
        { key: KEY, txnid: b.txnid, amount: '1.00', productinfo: b.productinfo, firstname: b.firstname, email: b.email, status: 'success', udf1: b.udf1 },
        SALT,
      ),
    };
    expect((await postBack(back.action, resigned)).status).toBe(400);

    // A failure turned into a success by the browser: hash no longer matches.
    expect(
      (await postBack(back.action, { ...back.fields, status: 'success', hash: back.fields.hash.replace(/^./, (c) => (c === '0' ? '1' : '0')) })).status,
    ).toBe(400);

    const unknown = await postBack(back.action, { ...back.fields, txnid: 'TNOSUCHTXN' });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).Message).toBe('We could not match this payment response to an order.');

    expect(await orderRow(form.txnid)).toEqual(before);
    expect(before.status).toBe('Pending');
  });

  it('refuses a correctly signed success the gateway does not confirm (verify_payment)', async () => {
    const form = await guestOrder([f.photoIds[4]]);
    // Signed with the salt but never paid at the gateway: verify_payment says Not Found.
    const fields = {
      key: KEY,
      txnid: form.txnid,
      amount: form.amount,
      productinfo: form.productinfo,
      firstname: form.firstname,
      email: form.email,
      status: 'success',
      udf1: form.udf1,
    };
    const res = await postBack(form.surl, { ...fields, mihpayid: '1', hash: payuReverseHash(fields, SALT) });
    expect(res.status).toBe(400);
    expect((await orderRow(form.txnid)).status).toBe('Pending');
  });

  it('a declined card and a cancel return to the cart; the order stays Pending and can be paid again', async () => {
    const form = await guestOrder([f.photoIds[0], f.photoIds[1]]);
    const declined = await payThroughSandbox(form, FAILING_CARD);
    expect(declined.action).toBe(form.furl);
    expect(declined.fields).toMatchObject({ status: 'failure', error_Message: 'Card declined by the issuing bank' });
    const res = await postBack(declined.action, declined.fields);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`http://shell.test/cart?payment=failed&orderref=${form.order_ref}`);
    expect((await orderRow(form.txnid)).status).toBe('Pending');

    // The same order can be paid again (Retry posts the stored order).
    const retry = await payThroughSandbox(form, 'cancel');
    expect(retry.fields.error_Message).toBe('Transaction cancelled by user');
    expect((await postBack(retry.action, retry.fields)).status).toBe(303);
    expect((await orderRow(form.txnid)).status).toBe('Pending');
  });

  it('a zero-amount order (100% sponsor discount) is Paid at once with its txnid stored', async () => {
    const res = await t.request<PaymentForm>('POST', API_ROUTES.createOrder, {
      ...guest,
      captcha: await solveCaptcha(t.url),
      eventID: f.freeEventId,
      bibNumber: 'FR1',
      sponsorofferID: f.freeOfferId,
      cartInfo: {
        searchKind: 'bib',
        packageKind: null,
        lines: f.freePhotoIds.map((id) => ({ type: 'download', category: 'image', id })),
        discountedPhotoIds: f.freePhotoIds,
      },
    });
    expect(res.body.Message).toBe('Order placed');
    expect(res.body.result.amount).toBe('0.00');
    const row = await orderRow(res.body.result.txnid);
    expect(row.status).toBe('Paid');
    expect(row.paid_at).not.toBeNull();
    expect((await readOutbox(t.ctx.mailer.outboxDir!)).some((m) => m.text.includes(res.body.result.order_ref))).toBe(true);
  });

  it('a signed-in order belongs to the account email; history lists it with search; another account cannot see it', async () => {
    const body = {
      ...cartOf([f.photoIds[0], f.videoId].slice(0, 1)),
      name: 'Ravi Kumar',
      email: 'typo@example.com',
      phone_number: '9811111111',
      gender: 'Male',
      shipping_address: '12 MG Road',
      pincode: '560001',
    };
    body.cartInfo.lines.push({ type: 'download', category: 'video', id: f.videoId });
    const res = await t.request<PaymentForm>('POST', API_ROUTES.createOrder, body, auth(runnerToken));
    expect(res.status).toBe(200);
    expect(res.body.result.email).toBe('ravi@example.com');
    // The profile keeps the checkout details for the next prefilled form; an order of downloads only
    // takes no address or PIN code, so those stay as they were.
    const profile = await t.ctx.db.query('select gender, address, pincode from users where email = $1', ['ravi@example.com']);
    expect(profile).toEqual([{ gender: 'Male', address: null, pincode: null }]);
    const orderRef = res.body.result.order_ref;

    const history = await t.request<OrderHistoryResult>('POST', API_ROUTES.orderHistory, { userID: 999, searchtext: '' }, auth(runnerToken));
    expect(history.body.result.order_history).toHaveLength(1);
    expect(history.body.result.order_history[0]).toMatchObject({
      index: 1,
      name: f.eventName,
      order_ref: orderRef,
      bib_id: f.bib,
      photos_count: 2,
      status: 'Pending',
      price: Number(res.body.result.amount),
    });
    const byBib = await t.request<OrderHistoryResult>('POST', API_ROUTES.orderHistory, { searchtext: 'ot100' }, auth(runnerToken));
    expect(byBib.body.result.order_history).toHaveLength(1);
    const none = await t.request<OrderHistoryResult>('POST', API_ROUTES.orderHistory, { searchtext: 'nothing like this' }, auth(runnerToken));
    expect(none.body.result.order_history).toEqual([]);
    expect((await t.request('POST', API_ROUTES.orderHistory, {})).status).toBe(401);

    const mine = await t.request('POST', API_ROUTES.orderDetail, { orderID: orderRef, bibNumber: f.bib }, auth(runnerToken));
    expect(mine.status).toBe(200);
    expect(mine.body.result).toMatchObject({ order_ref: orderRef, status: 'Pending', eventName: f.eventName });
    // Another account's order answers as an unknown reference does: references cannot be tested.
    const theirs = await t.request('POST', API_ROUTES.orderDetail, { orderID: orderRef }, auth(otherToken));
    const unknown = await t.request('POST', API_ROUTES.orderDetail, { orderID: 'FLNOSUCH00' }, auth(otherToken));
    expect({ status: theirs.status, message: theirs.body.Message }).toEqual({ status: 404, message: 'We could not find this order.' });
    expect({ status: unknown.status, message: unknown.body.Message }).toEqual({ status: 404, message: 'We could not find this order.' });
    expect((await t.request('POST', `${API_ROUTES.myOrder}?orderid=${orderRef}`, undefined, auth(otherToken))).status).toBe(404);
    expect((await t.request('POST', `${API_ROUTES.myOrder}?orderid=${orderRef}`, {})).status).toBe(401);
  });

  it('a payment whose browser never came back is confirmed by the reconcile job: history shows Pending until then, Paid after, one mail', async () => {
    const form = await guestOrder(f.photoIds.slice(0, 1), { email: 'ravi@example.com' });
    // The buyer pays at the gateway and closes the tab: the auto-post back to surl never happens.
    await payThroughSandbox(form, SUCCESS_CARDS[0]);
    expect((await orderRow(form.txnid)).status).toBe('Pending');
    const mailsBefore = (await readOutbox(t.ctx.mailer.outboxDir!)).filter((m) => m.to === 'ravi@example.com').length;
    const { order_ref } = (await t.ctx.db.query<{ order_ref: string }>('select order_ref from orders where txnid = $1', [form.txnid]))[0];
    const historyStatus = async () =>
      (await t.request<OrderHistoryResult>('POST', API_ROUTES.orderHistory, { searchtext: '' }, auth(runnerToken))).body.result.order_history.find(
        (r) => r.order_ref === order_ref,
      )?.status;

    // The history shows what is stored and never waits on the gateway.
    expect(await historyStatus()).toBe('Pending');
    // The background job asks the gateway (here without the minimum age, as if a minute had passed).
    const settings = { ...t.ctx.config.jobs.reconcile, minAgeSeconds: 0 };
    // (Earlier cases left orders paid at the gateway whose return was refused: they are settled too.)
    expect((await reconcilePendingOrders(t.ctx, settings)).settled).toBeGreaterThanOrEqual(1);
    expect(await historyStatus()).toBe('Paid');
    expect((await orderRow(form.txnid)).status).toBe('Paid');
    // Running it again changes nothing and mails nothing more.
    expect((await reconcilePendingOrders(t.ctx, { ...settings, recheckSeconds: 0 })).settled).toBe(0);
    const mailsAfter = (await readOutbox(t.ctx.mailer.outboxDir!)).filter((m) => m.to === 'ravi@example.com').length;
    expect(mailsAfter).toBe(mailsBefore + 1);
    const logged = await t.ctx.db.query<{ kind: string }>('select kind from payment_callbacks where txnid = $1', [form.txnid]);
    expect(logged.map((r) => r.kind)).toEqual(['reconcile']);
  });
});
