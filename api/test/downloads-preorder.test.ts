import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { API_ROUTES, type OrderDetail, type PaymentForm, type PreorderInfoResult, type PreorderLinkResult } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { solveCaptcha } from './support/captcha';
import { formAction, hiddenInputs, seedOrdersFixture, zipEntryNames, type OrdersFixture } from './ordersFixtures';
import { loadConfig } from '../src/config/config';
import { buildSandbox, SUCCESS_CARDS } from '../src/payment-sandbox/sandbox';
import { signPreauth } from '../src/features/orders/preauth';
import { readOutbox } from '../src/mail/mailer';

const KEY = 'TESTKEY';
const SALT = 'test-salt-42';

describe('downloads, pre-authorised links and pre-orders', () => {
  let t: TestApp;
  let sandbox: FastifyInstance;
  let sandboxUrl: string;
  let f: OrdersFixture;

  async function pay(form: PaymentForm): Promise<void> {
    await fetch(form.PAYU_API_URL, {
      method: 'POST',
      body: new URLSearchParams({
        key: form.key,
        txnid: form.txnid,
        amount: form.amount,
        productinfo: form.productinfo,
        firstname: form.firstname,
        email: form.email,
        surl: form.surl,
        furl: form.furl,
        hash: form.hash,
        udf1: form.udf1,
      }),
    });
    const html = await (
      await fetch(`${sandboxUrl}/_payment/complete`, {
        method: 'POST',
        body: new URLSearchParams({ txnid: form.txnid, ccnum: SUCCESS_CARDS[0], action: 'pay' }),
      })
    ).text();
    const back = await fetch(formAction(html), { method: 'POST', body: new URLSearchParams(hiddenInputs(html)), redirect: 'manual' });
    expect(back.status).toBe(303);
  }

  async function paidOrder(lines: object[], packageKind: 'a' | 'b' | null = null): Promise<PaymentForm> {
    const res = await t.request<PaymentForm>('POST', API_ROUTES.createOrder, {
      name: 'Asha Rao',
      email: 'asha@example.com',
      phone_number: '9876543210',
      pincode: '560001',
      captcha: await solveCaptcha(t.url),
      eventID: f.eventId,
      bibNumber: f.bib,
      cartInfo: { searchKind: 'bib', packageKind, lines, discountedPhotoIds: [] },
    });
    expect(res.status).toBe(200);
    await pay(res.body.result);
    return res.body.result;
  }

  /** The pre-authorised link values from the order's confirmation mail. */
  async function preauthFromMail(orderRef: string): Promise<Record<string, string>> {
    const mail = (await readOutbox(t.ctx.mailer.outboxDir!)).find((m) => m.tag === 'order_confirmation' && m.text.includes(orderRef));
    const url = mail!.text.match(/http:\/\/shell\.test\/preauthdownload\?\S+/)![0];
    return Object.fromEntries(new URL(url).searchParams);
  }

  const status = async (orderRef: string) => (await t.ctx.db.query<{ status: string }>('select status from orders where order_ref = $1', [orderRef]))[0].status;

  beforeAll(async () => {
    sandbox = await buildSandbox({ key: KEY, salt: SALT });
    sandboxUrl = (await sandbox.listen({ port: 0, host: '127.0.0.1' })).replace('127.0.0.1', 'localhost');
    t = await startTestApp({
      shellUrl: 'http://shell.test',
      payu: { key: KEY, salt: SALT, url: `${sandboxUrl}/_payment`, verifyUrl: `${sandboxUrl}/merchant/postservice?form=2` },
      security: { ...loadConfig().security, captchaCost: 20, captchaMaxCounter: 400 },
    });
    f = await seedOrdersFixture(t.ctx);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t, sandbox), TEAR_DOWN_TIMEOUT_MS);

  it('the pre-authorised link shows the order signed out; a tampered or expired link is refused', async () => {
    const form = await paidOrder([{ type: 'download', category: 'image', id: f.photoIds[0] }]);
    const params = await preauthFromMail(form.order_ref);
    const ok = await t.request<OrderDetail>('GET', `${API_ROUTES.preauthDownload}?${new URLSearchParams(params)}`);
    expect(ok.status).toBe(200);
    expect(ok.body.result).toMatchObject({ order_ref: form.order_ref, bib_no: f.bib, status: 'Paid', eventName: f.eventName });
    expect(ok.body.result.photo.map((p) => p.id)).toEqual([f.photoIds[0]]);

    for (const tampered of [
      { ...params, h: params.h.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) },
      { ...params, e: 'someone@example.com' },
      { ...params, lt: String(Number(params.lt) + 86400) },
    ]) {
      const res = await t.request('GET', `${API_ROUTES.preauthDownload}?${new URLSearchParams(tampered)}`);
      expect(res.status).toBe(403);
      expect(res.body.Message).toBe('This download link is not valid. Please use the link from your confirmation mail.');
    }
    const expired = signPreauth(t.ctx.config.signingSecret, form.order_ref, 'asha@example.com', new Date(Date.now() - 1000));
    const old = await t.request('GET', `${API_ROUTES.preauthDownload}?${new URLSearchParams({ ...expired })}`);
    expect(old.status).toBe(410);
    expect(old.body.Message).toMatch(/expired 30 days after purchase/);
    // The download call refuses the tampered link too.
    const dl = await t.request('POST', API_ROUTES.downloadOrder, { orderID: form.order_ref, preauth: { ...params, h: '0'.repeat(64) } });
    expect(dl.status).toBe(403);
  });

  it('downloads a streamed zip of the originals, marks the order Downloaded, serves single images only for the order', async () => {
    const form = await paidOrder([
      { type: 'download', category: 'image', id: f.photoIds[0] },
      { type: 'download', category: 'image', id: f.photoIds[1] },
      { type: 'download', category: 'video', id: f.videoId },
    ]);
    const preauth = await preauthFromMail(form.order_ref);
    expect(await status(form.order_ref)).toBe('Paid');
    const link = await t.request<string>('POST', API_ROUTES.downloadOrder, { orderID: form.order_ref, bibNumber: f.bib, preauth });
    expect(link.status).toBe(200);
    expect(await status(form.order_ref)).toBe('Downloaded');
    const zip = await fetch(link.body.result);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const names = zipEntryNames(Buffer.from(await zip.arrayBuffer())).sort();
    expect(names).toEqual([`photos/${f.bib}-1.jpg`, `photos/${f.bib}-2.jpg`, `videos/${f.bib}-V1.mp4`]);

    const image = await t.request<string>('POST', API_ROUTES.downloadImage, { orderID: form.order_ref, imageID: f.photoIds[1], preauth });
    const file = await fetch(image.body.result);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${f.bib}-2.jpg"`);
    const original = await t.ctx.storage.getBuffer(`originals/${f.eventId}/${f.bib}-2.jpg`);
    expect(Buffer.from(await file.arrayBuffer()).equals(original)).toBe(true);

    const notBought = await t.request('POST', API_ROUTES.downloadImage, { orderID: form.order_ref, imageID: f.photoIds[4], preauth });
    expect(notBought.status).toBe(403);
    // A changed link signature is refused.
    expect((await fetch(link.body.result.replace(/sig=.*/, 'sig=forged'))).status).toBe(403);
  });

  it('refuses downloads of an unpaid order and after 30 days with a clear message', async () => {
    const unpaid = await t.request<PaymentForm>('POST', API_ROUTES.createOrder, {
      name: 'Asha Rao',
      email: 'asha@example.com',
      phone_number: '9876543210',
      pincode: '560001',
      captcha: await solveCaptcha(t.url),
      eventID: f.eventId,
      bibNumber: f.bib,
      cartInfo: { searchKind: 'bib', packageKind: null, lines: [{ type: 'download', category: 'image', id: f.photoIds[2] }], discountedPhotoIds: [] },
    });
    const ref = unpaid.body.result.order_ref;
    const fakeLink = signPreauth(t.ctx.config.signingSecret, ref, 'asha@example.com', new Date(Date.now() + 86400_000));
    const refused = await t.request('POST', API_ROUTES.downloadOrder, { orderID: ref, preauth: fakeLink });
    expect(refused.status).toBe(409);
    expect(refused.body.Message).toBe('This order is not paid yet, so there is nothing to download.');

    const form = await paidOrder([{ type: 'download', category: 'image', id: f.photoIds[3] }]);
    const preauth = await preauthFromMail(form.order_ref);
    await t.ctx.db.query(`update orders set paid_at = now() - interval '31 days' where order_ref = $1`, [form.order_ref]);
    const late = await t.request('POST', API_ROUTES.downloadOrder, { orderID: form.order_ref, preauth });
    expect(late.status).toBe(410);
    expect(late.body.Message).toBe('Downloads for this order expired 30 days after purchase. Please contact support for help.');
    expect(await status(form.order_ref)).toBe('Paid');
  });

  it("the ultra premium bundle's zip holds the 'certs' folder with the participant's certificates", async () => {
    const lines = f.photoIds.slice(0, 4).map((id) => ({ type: 'download', category: 'image', id }));
    const form = await paidOrder(lines, 'b');
    const detail = await t.request<OrderDetail>('GET', `${API_ROUTES.preauthDownload}?${new URLSearchParams(await preauthFromMail(form.order_ref))}`);
    expect(detail.body.result.bundle).toBe('b_ultraprem');
    const link = await t.request<string>('POST', API_ROUTES.downloadOrder, { orderID: form.order_ref, preauth: await preauthFromMail(form.order_ref) });
    const names = zipEntryNames(Buffer.from(await (await fetch(link.body.result)).arrayBuffer())).sort();
    // The timed certificate of the race, drawn from the standard template (no achievement holds this event).
    expect(names).toEqual([`certs/timed-certificate-${f.bib}.jpg`, ...f.photoIds.slice(0, 4).map((_, i) => `photos/${f.bib}-${i + 1}.jpg`)].sort());
  });

  it('a pre-order: info, guest pre-order with captcha, paid through the gateway, mapped to a BIB once, then downloaded', async () => {
    const info = await t.request<PreorderInfoResult>('POST', `${API_ROUTES.preorderInfo}?eventId=${f.preorderEventId}`);
    expect(info.body.result.preorderprice).toEqual({ price: 472, cut_price: 708 });
    expect(info.body.result.eventslist[0]).toMatchObject({ event_name: 'Preorder Ultra 2027', event_from_date: '2026-01-10' });
    expect((await t.request('POST', `${API_ROUTES.preorderInfo}?eventId=${f.eventId}`)).body.Message).toBe(
      'Pre-orders are not open for Orders Test Marathon 2026.',
    );

    const guest = { name: 'Kiran Shah', email: 'kiran@example.com', phone_number: '9123456789', eventID: f.preorderEventId, bibNumber: 'prebook', amount: 1 };
    expect((await t.request('POST', API_ROUTES.createPreorder, guest)).body.Message).toBe('Please solve the captcha.');
    const created = await t.request<PaymentForm>('POST', API_ROUTES.createPreorder, { ...guest, captcha: await solveCaptcha(t.url) });
    expect(created.status).toBe(200);
    expect(created.body.result.amount).toBe('472.00');
    const ref = created.body.result.order_ref;
    const mapping = { orderId: ref, orderEmail: 'kiran@example.com', orderBibNumber: f.preorderBib, mobilenum: '9123456789' };
    expect((await t.request('POST', API_ROUTES.preorderLink, mapping)).body.Message).toBe('This pre-order is not paid yet. Please complete the payment first.');

    await pay(created.body.result);
    const row = (await t.ctx.db.query<{ status: string; bib_number: string }>('select status, bib_number from orders where order_ref = $1', [ref]))[0];
    expect(row).toEqual({ status: 'Paid', bib_number: 'prebook' });

    expect((await t.request('POST', API_ROUTES.preorderLink, { ...mapping, mobilenum: '9000000000' })).status).toBe(400);
    const mapped = await t.request<PreorderLinkResult>('POST', API_ROUTES.preorderLink, mapping);
    expect(mapped.status).toBe(200);
    expect(mapped.body.result).toMatchObject({ order_ref: ref, bib_no: f.preorderBib });
    expect(mapped.body.result.link).toMatch(/^http:\/\/shell\.test\/preauthdownload\?orderref=/);

    const again = await t.request('POST', API_ROUTES.preorderLink, { ...mapping, orderBibNumber: 'OTHER1' });
    expect(again.status).toBe(400);
    expect(again.body.Message).toBe(`Order ${ref} is already mapped to BIB ${f.preorderBib}. A mapping cannot be changed.`);

    const detail = await t.request<OrderDetail>('GET', `${API_ROUTES.preauthDownload}?${new URLSearchParams({ ...mapped.body.result.preauth })}`);
    expect(detail.body.result.photo.map((p) => p.id).sort()).toEqual([...f.preorderPhotoIds].sort());
    const link = await t.request<string>('POST', API_ROUTES.downloadOrder, { orderID: ref, preauth: mapped.body.result.preauth });
    const names = zipEntryNames(Buffer.from(await (await fetch(link.body.result)).arrayBuffer())).sort();
    expect(names).toEqual([`photos/${f.preorderBib}-1.jpg`, `photos/${f.preorderBib}-2.jpg`]);
  });
});
