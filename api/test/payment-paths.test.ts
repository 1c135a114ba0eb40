import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { closeAll, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS, type TestApp } from './support/testApp';
import { API_ROUTES, type PaymentForm } from '@finishline/shared/pure';
import { solveCaptcha } from './support/captcha';
import { PAYU_TEST_SALT, postBack, startPaymentTestApp, type PaymentTestApp } from './support/paymentApp';
import { freeCartOf, seedOrdersFixture, zipEntryNames, type OrdersFixture } from './ordersFixtures';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';
import { CONVENIENCE_FEE_CARD } from '../src/payment-sandbox/sandbox';
import { payuReverseHash } from '../src/payu/payuHash';
import { readOutbox } from '../src/mail/mailer';

/** Payment returns the first suites never sent: convenience fees, re-signed fields, late failures. */
describe('payment paths', () => {
  let p: PaymentTestApp;
  let t: TestApp;
  let f: OrdersFixture;

  const guest = { name: 'Asha Rao', email: 'asha.guest@example.com', phone_number: '9876543210', pincode: '560001' };
  const statusOf = async (txnid: string) => (await t.ctx.db.query<{ status: string }>('select status from orders where txnid = $1', [txnid]))[0].status;
  async function order(photoIds: number[], cart: { searchKind?: string; bibNumber?: string; headers?: Record<string, string> } = {}): Promise<PaymentForm> {
    const res = await t.request<PaymentForm>(
      'POST',
      API_ROUTES.createOrder,
      {
        ...guest,
        // A signed-in checkout also asks for these.
        ...(cart.headers ? { gender: 'Male', shipping_address: '12 MG Road' } : {}),
        captcha: await solveCaptcha(t.url),
        eventID: f.eventId,
        bibNumber: cart.bibNumber ?? f.bib,
        cartInfo: {
          searchKind: cart.searchKind ?? 'bib',
          packageKind: null,
          lines: photoIds.map((id) => ({ type: 'download', category: 'image', id })),
          discountedPhotoIds: [],
        },
      },
      cart.headers,
    );
    expect(res.status).toBe(200);
    return res.body.result;
  }
  async function paidOrder(photoIds: number[], cart: Parameters<typeof order>[1] = {}) {
    const form = await order(photoIds, cart);
    const back = await p.pay(form);
    expect((await postBack(back.action, back.fields)).status).toBe(303);
    expect(await statusOf(form.txnid)).toBe('Paid');
    return { form, back };
  }
  /** The pre-authorised link values from the order's confirmation mail. */
  async function preauthFromMail(orderRef: string): Promise<Record<string, string>> {
    const mail = (await readOutbox(t.ctx.mailer.outboxDir!)).find((m) => m.tag === 'order_confirmation' && m.text.includes(orderRef))!;
    return Object.fromEntries(new URL(mail.text.match(/http:\/\/shell\.test\/preauthdownload\?\S+/)![0]).searchParams);
  }
  async function zipOf(orderRef: string, preauth: Record<string, string>): Promise<string[]> {
    const link = await t.request<string>('POST', API_ROUTES.downloadOrder, { orderID: orderRef, preauth });
    expect(link.status).toBe(200);
    return zipEntryNames(Buffer.from(await (await fetch(link.body.result)).arrayBuffer())).sort();
  }
  /** A return re-signed with the merchant's own salt, as only someone holding it could. */
  const resign = (fields: Record<string, string>) => ({
    ...fields,
    hash: payuReverseHash(
      {
        key: fields.key,
        txnid: fields.txnid,
        amount: fields.amount,
        productinfo: fields.productinfo,
        firstname: fields.firstname,
        email: fields.email,
        status: fields.status,
        udf1: fields.udf1,
        udf2: fields.udf2,
        udf3: fields.udf3,
        udf4: fields.udf4,
        udf5: fields.udf5,
        ...(fields.additionalCharges === undefined ? {} : { additionalCharges: fields.additionalCharges }),
      },
      PAYU_TEST_SALT,
    ),
  });

  beforeAll(async () => {
    p = await startPaymentTestApp();
    t = p.t;
    f = await seedOrdersFixture(t.ctx);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(p), TEAR_DOWN_TIMEOUT_MS);

  it('a return with a convenience fee (additionalCharges, hashed first) is accepted: Paid once, one mail', async () => {
    const form = await order([f.photoIds[0]]);
    const back = await p.pay(form, CONVENIENCE_FEE_CARD);
    expect(back.fields.additionalCharges).toBe('2.36'); // 2% of ₹118.00
    expect(back.fields.amount).toBe(form.amount);

    // A fee changed on the way (or dropped) no longer matches the hash.
    expect((await postBack(back.action, { ...back.fields, additionalCharges: '0.01' })).status).toBe(400);
    const { additionalCharges: _dropped, ...withoutFee } = back.fields;
    expect((await postBack(back.action, withoutFee)).status).toBe(400);
    // A fee that is no sum of rupees is refused even when signed.
    expect((await postBack(back.action, resign({ ...back.fields, additionalCharges: '-5' }))).status).toBe(400);
    expect(await statusOf(form.txnid)).toBe('Pending');

    expect((await postBack(back.action, back.fields)).status).toBe(303);
    expect(await statusOf(form.txnid)).toBe('Paid');
    const mails = (await readOutbox(t.ctx.mailer.outboxDir!)).filter((m) => m.tag === 'order_confirmation' && m.text.includes(form.order_ref));
    expect(mails).toHaveLength(1);
  });
  it('a correctly signed return with another email, product text or key is refused; the order stays Pending', async () => {
    const form = await order([f.photoIds[1]]);
    const back = await p.pay(form);
    const changes: Array<Record<string, string>> = [{ email: 'someone.else@example.com' }, { productinfo: 'Another Marathon BIB 1' }, { key: 'OTHERKEY' }];
    for (const changed of changes) {
      const res = await postBack(back.action, resign({ ...back.fields, ...changed }));
      expect(res.status).toBe(400);
    }
    expect(await statusOf(form.txnid)).toBe('Pending');
  });

  it("the gateway's check unreachable, or reporting another amount, leaves the order Pending", async () => {
    const verifyUrl = t.ctx.config.payu.verifyUrl;
    const liar = Fastify();
    liar.post('/verify', async () => ({
      status: 1,
      transaction_details: new Proxy({}, { get: (_t, txnid) => ({ txnid, status: 'success', amt: '1.00', mihpayid: '1' }) }),
    }));
    const liarUrl = await liar.listen({ port: 0, host: '127.0.0.1' });
    try {
      const form = await order([f.photoIds[2]]);
      const back = await p.pay(form);
      t.ctx.config.payu.verifyUrl = 'http://127.0.0.1:9/unreachable';
      expect((await postBack(back.action, back.fields)).status).toBe(400);
      expect(await statusOf(form.txnid)).toBe('Pending');
      t.ctx.config.payu.verifyUrl = `${liarUrl}/verify`;
      expect((await postBack(back.action, back.fields)).status).toBe(400);
      expect(await statusOf(form.txnid)).toBe('Pending');
    } finally {
      t.ctx.config.payu.verifyUrl = verifyUrl;
      await liar.close();
    }
  });

  it('a late failure callback for an order already Paid changes nothing', async () => {
    const { form, back } = await paidOrder([f.photoIds[3]]);
    const failure = await postBack(form.furl, resign({ ...back.fields, status: 'failure', error_Message: 'Bank timeout' }));
    expect(failure.status).toBe(303);
    expect(failure.headers.get('location')).toContain('ordersuccess');
    expect(await statusOf(form.txnid)).toBe('Paid');
    expect((await readOutbox(t.ctx.mailer.outboxDir!)).filter((m) => m.tag === 'order_confirmation' && m.text.includes(form.order_ref))).toHaveLength(1);
  });

  it('the pre-authorised link of order A does not open order B', async () => {
    const a = (await paidOrder([f.photoIds[0]])).form;
    const b = (await paidOrder([f.photoIds[4]])).form;
    const linkA = await preauthFromMail(a.order_ref);
    expect((await t.request('POST', API_ROUTES.downloadOrder, { orderID: b.order_ref, preauth: linkA })).status).toBe(403);
    expect((await t.request('POST', API_ROUTES.downloadImage, { orderID: b.order_ref, imageID: f.photoIds[4], preauth: linkA })).status).toBe(403);
    expect((await t.request('GET', `${API_ROUTES.preauthDownload}?${new URLSearchParams({ ...linkA, orderref: b.order_ref })}`)).status).toBe(403);
  });

  it("another account cannot call the download endpoints for someone's order", async () => {
    const ownerId = await createUser(t.ctx.db, {
      firstName: 'Ravi',
      lastName: 'Kumar',
      email: 'ravi.dl@example.com',
      password: 'Finish@2026',
      primaryPhone: '9811111111',
    });
    const otherId = await createUser(t.ctx.db, { firstName: 'Meera', lastName: 'Iyer', email: 'meera.dl@example.com', password: 'Finish@2026' });
    const ownerAuth = { authorization: `Bearer ${(await createSession(t.ctx.db, ownerId)).token}` };
    const otherAuth = { authorization: `Bearer ${(await createSession(t.ctx.db, otherId)).token}` };
    const { form } = await paidOrder([f.photoIds[1]], { headers: ownerAuth });
    expect((await t.request('POST', API_ROUTES.downloadOrder, { orderID: form.order_ref }, ownerAuth)).status).toBe(200);
    // Answered as an unknown order is: the reply does not tell that the reference exists.
    expect((await t.request('POST', API_ROUTES.downloadOrder, { orderID: form.order_ref }, otherAuth)).status).toBe(404);
    expect((await t.request('POST', API_ROUTES.downloadImage, { orderID: form.order_ref, imageID: f.photoIds[1] }, otherAuth)).status).toBe(404);
    expect((await t.request('POST', API_ROUTES.downloadOrder, { orderID: form.order_ref })).status).toBe(401);
    expect((await fetch(`${t.url}${API_ROUTES.downloadFile}/zip/${form.order_ref}`)).status).toBe(403);
  });

  it('the download link expires after 10 minutes (a fake clock, not a sleep)', async () => {
    const { form } = await paidOrder([f.photoIds[2]]);
    const link = (await t.request<string>('POST', API_ROUTES.downloadOrder, { orderID: form.order_ref, preauth: await preauthFromMail(form.order_ref) })).body
      .result;
    const realNow = Date.now();
    const clock = jest.spyOn(Date, 'now');
    try {
      clock.mockReturnValue(realNow + 9 * 60_000);
      expect((await fetch(link)).status).toBe(200);
      clock.mockReturnValue(realNow + 11 * 60_000);
      const expired = await fetch(link);
      expect(expired.status).toBe(410);
      expect(((await expired.json()) as { Message: string }).Message).toBe('This download link has expired. Please press Download again.');
    } finally {
      clock.mockRestore();
    }
  });

  it('a zero-amount order is Paid at once, mailed, and downloadable', async () => {
    const res = await t.request<PaymentForm>('POST', API_ROUTES.createOrder, { ...guest, captcha: await solveCaptcha(t.url), ...freeCartOf(f) });
    expect(res.body.result.amount).toBe('0.00');
    expect(await statusOf(res.body.result.txnid)).toBe('Paid');
    expect(await zipOf(res.body.result.order_ref, await preauthFromMail(res.body.result.order_ref))).toEqual(['photos/FR1-1.jpg', 'photos/FR1-2.jpg']);
  });

  it('unlabeled and selfie carts are paid through the gateway and downloaded', async () => {
    const unlabeledId = (
      await t.ctx.db.query<{ id: number }>(
        `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height)
         select event_id, 'UNL-1', kind, original_key, preview_key, thumb_key, width, height from photos where id = $1 returning id`,
        [f.photoIds[0]],
      )
    )[0].id;
    const unlabeled = (await paidOrder([unlabeledId], { searchKind: 'unlabeled', bibNumber: 'unlabeled' })).form;
    expect(await zipOf(unlabeled.order_ref, await preauthFromMail(unlabeled.order_ref))).toHaveLength(1);

    // Selfie results may span BIBs of the event: one order holds them all.
    const selfie = (await paidOrder([f.photoIds[3], f.otherBibPhotoId], { searchKind: 'selfie', bibNumber: 'selfie' })).form;
    expect(await zipOf(selfie.order_ref, await preauthFromMail(selfie.order_ref))).toHaveLength(2);
  });
});
