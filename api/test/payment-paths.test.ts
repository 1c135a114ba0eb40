import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, type PaymentForm } from '@finishline/shared/pure';
import type { TestApp } from './support/testApp';
import { solveCaptcha } from './support/captcha';
import { PAYU_TEST_SALT, postBack, startPaymentTestApp, type PaymentTestApp } from './support/paymentApp';
import { seedOrdersFixture, type OrdersFixture } from './ordersFixtures';
import { CONVENIENCE_FEE_CARD } from '../src/payment-sandbox/sandbox';
import { payuReverseHash } from '../src/features/payment/payuHash';
import { readOutbox } from '../src/mail/mailer';

/** Payment returns the first suites never sent: convenience fees, re-signed fields, late failures. */
describe('payment paths', () => {
  let p: PaymentTestApp;
  let t: TestApp;
  let f: OrdersFixture;

  const guest = { name: 'Asha Rao', email: 'asha.guest@example.com', phone_number: '9876543210', pincode: '560001' };
  const statusOf = async (txnid: string) => (await t.ctx.db.query<{ status: string }>('select status from orders where txnid = $1', [txnid]))[0].status;
  async function order(photoIds: number[]): Promise<PaymentForm> {
    const res = await t.request<PaymentForm>('POST', API_ROUTES.createOrder, {
      ...guest,
      captcha: await solveCaptcha(t.url),
      eventID: f.eventId,
      bibNumber: f.bib,
      cartInfo: { searchKind: 'bib', packageKind: null, lines: photoIds.map((id) => ({ type: 'download', category: 'image', id })), discountedPhotoIds: [] },
    });
    expect(res.status).toBe(200);
    return res.body.result;
  }
  /** A return re-signed with the merchant's own salt, as only someone holding it could. */
  const resign = (fields: Record<string, string>) => ({ ...fields, hash: payuReverseHash({ key: fields.key, txnid: fields.txnid, amount: fields.amount, productinfo: fields.productinfo, firstname: fields.firstname, email: fields.email, status: fields.status, udf1: fields.udf1, udf2: fields.udf2, udf3: fields.udf3, udf4: fields.udf4, udf5: fields.udf5, ...(fields.additionalCharges === undefined ? {} : { additionalCharges: fields.additionalCharges }) }, PAYU_TEST_SALT) });

  beforeAll(async () => {
    p = await startPaymentTestApp();
    t = p.t;
    f = await seedOrdersFixture(t.ctx);
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  }, 30_000);

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
});
