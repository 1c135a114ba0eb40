import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { closeAll, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS, type TestApp } from './support/testApp';
import { API_ROUTES, type Bill, type PaymentForm, type PreorderLinkResult } from '@finishline/shared/pure';
import { solveCaptcha } from './support/captcha';
import { postBack, startPaymentTestApp, type PaymentTestApp } from './support/paymentApp';
import { seedOrdersFixture, type OrdersFixture } from './ordersFixtures';
import { createSession } from '../src/features/accounts/sessions';
import { createUser } from '../src/features/accounts/users';
import { readOutbox } from '../src/mail/mailer';
import { FEEDBACK_MESSAGES } from '../src/features/feedback/routes';

const PRIVACY_MESSAGE = 'Please verify the OTP sent to the participant to see these photos.';

/** The privacy OTP holds on every path that releases photos, buying included. */
describe('privacy-checked BIBs are released only to the session that verified them', () => {
  let p: PaymentTestApp;
  let t: TestApp;
  let f: OrdersFixture;

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const guest = { name: 'Asha Rao', email: 'asha.guest@example.com', phone_number: '9876543210', pincode: '560001' };
  const lines = (ids: number[]) => ids.map((id) => ({ type: 'download', category: 'image', id }));
  const billOf = (ids: number[], headers: Record<string, string> = {}, searchKind = 'bib', bibNumber = f.bib) =>
    t.request<Bill>(
      'POST',
      API_ROUTES.cartDetails,
      { eventId: f.eventId, bibNumber, searchKind, packageKind: null, lines: lines(ids), sponsorofferID: null, discountedPhotoIds: [] },
      headers,
    );
  const orderOf = async (ids: number[], headers: Record<string, string> = {}) =>
    t.request<PaymentForm>(
      'POST',
      API_ROUTES.createOrder,
      {
        ...guest,
        captcha: await solveCaptcha(t.url),
        eventID: f.eventId,
        bibNumber: f.bib,
        cartInfo: { searchKind: 'bib', packageKind: null, lines: lines(ids), discountedPhotoIds: [] },
      },
      headers,
    );

  /** The runner's way: a code mailed to the BIB's address, typed into this session. */
  async function verifyBib(token: string, eventID: number, bibNumber: string): Promise<void> {
    expect((await t.request('POST', API_ROUTES.generateOtp, { eventID, bibNumber }, bearer(token))).status).toBe(200);
    const mail = (await readOutbox(t.ctx.mailer.outboxDir!)).filter((m) => m.tag === 'privacy_otp').at(-1)!;
    const otp = /is (\d{6})\./.exec(mail.text)![1];
    expect((await t.request('POST', API_ROUTES.verifyOtp, { eventID, bibNumber, otp }, bearer(token))).status).toBe(200);
  }

  beforeAll(async () => {
    p = await startPaymentTestApp();
    t = p.t;
    f = await seedOrdersFixture(t.ctx);
    await t.ctx.db.query('update events set privacy_check = true where id = any($1::int[])', [[f.eventId, f.preorderEventId]]);
    await t.ctx.db.query(`insert into participants (event_id, bib_number, name, email) values ($1, $2, 'Kiran Shah', 'kiran.runner@example.com')`, [
      f.preorderEventId,
      f.preorderBib,
    ]);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(p), TEAR_DOWN_TIMEOUT_MS);

  it('the cart bill does not price (nor list the photo ids of) an unverified BIB, with or without a session', async () => {
    const { token } = await createSession(t.ctx.db, null);
    for (const headers of [{}, bearer(token)]) {
      const res = await billOf(f.photoIds.slice(0, 2), headers);
      expect(res.status).toBe(403);
      expect(res.body.Message).toBe(PRIVACY_MESSAGE);
      expect(JSON.stringify(res.body)).not.toContain(`${f.photoIds[0]}`);
    }
    // Another BIB's photo in the cart gets the same answer: no message tells which BIB a photo is of.
    const mixed = await billOf([f.photoIds[0], f.otherBibPhotoId], bearer(token));
    expect(mixed.status).toBe(403);
    expect(mixed.body.Message).toBe(PRIVACY_MESSAGE);
    // A selfie cart holding the BIB's photos is the same purchase by another door: refused, and
    // answered exactly as a photo id the event does not have, so the answer tells nothing of the BIB.
    const locked = await billOf([f.photoIds[0]], bearer(token), 'selfie', 'selfie');
    const absent = await billOf([999_999], bearer(token), 'selfie', 'selfie');
    const shape = (res: { status: number; body: { Message: string } }, id: number) => ({
      status: res.status,
      message: res.body.Message.replace(String(id), '<id>'),
    });
    expect(shape(locked, f.photoIds[0]!)).toEqual(shape(absent, 999_999));
    expect(shape(locked, f.photoIds[0]!)).toEqual({ status: 400, message: `Photo <id> is not part of ${f.eventName}. Please remove it from your cart.` });
    // The unlabeled cart too (a tagged photo of a locked BIB is no more there than an unknown id).
    const lockedUnlabeled = await billOf([f.photoIds[0]], bearer(token), 'unlabeled', 'unlabeled');
    const absentUnlabeled = await billOf([999_999], bearer(token), 'unlabeled', 'unlabeled');
    expect(shape(lockedUnlabeled, f.photoIds[0]!)).toEqual(shape(absentUnlabeled, 999_999));
    // A cart of a BIB the session verified with another, locked BIB's photo: the same answer again.
    await t.ctx.db.query(`insert into participants (event_id, bib_number, name, email) values ($1, 'OT200', 'Omar Sheikh', 'omar.runner@example.com')`, [
      f.eventId,
    ]);
    await verifyBib(token, f.eventId, 'OT200');
    const other = await billOf([f.photoIds[0]], bearer(token), 'bib', 'OT200');
    const otherAbsent = await billOf([999_999], bearer(token), 'bib', 'OT200');
    expect(shape(other, f.photoIds[0]!)).toEqual(shape(otherAbsent, 999_999));
  });

  it('create-order refuses an unverified BIB: no order, so no previews and no originals for a guest', async () => {
    const before = (await t.ctx.db.query<{ n: number }>('select count(*)::int as n from orders'))[0].n;
    const res = await orderOf([f.photoIds[0]]);
    expect(res.status).toBe(403);
    expect(res.body.Message).toBe(PRIVACY_MESSAGE);
    expect((await t.ctx.db.query<{ n: number }>('select count(*)::int as n from orders'))[0].n).toBe(before);
  });

  it('after the OTP the same session prices and buys; another session still cannot', async () => {
    const { token } = await createSession(t.ctx.db, null);
    await verifyBib(token, f.eventId, f.bib);
    const bill = await billOf(f.photoIds.slice(0, 2), bearer(token));
    expect(bill.status).toBe(200);
    expect(bill.body.result.photo_count).toBe(2);
    const order = await orderOf([f.photoIds[0]], bearer(token));
    expect(order.status).toBe(200);

    const other = await createSession(t.ctx.db, null);
    expect((await billOf([f.photoIds[0]], bearer(other.token))).status).toBe(403);
  });

  it('a visitor who verified the BIB and then signs in at checkout keeps the verification', async () => {
    await createUser(t.ctx.db, { firstName: 'Asha', lastName: 'Rao', email: 'asha.signin@example.com', password: 'Finish@2026' });
    const visitor = await createSession(t.ctx.db, null);
    await verifyBib(visitor.token, f.eventId, f.bib);
    const login = await t.request<{ token: string }>(
      'POST',
      API_ROUTES.login,
      { email: 'asha.signin@example.com', password: 'Finish@2026', gCaptchToken: await solveCaptcha(t.url) },
      bearer(visitor.token),
    );
    expect(login.status).toBe(200);
    expect((await billOf([f.photoIds[0]], bearer(login.body.result.token))).status).toBe(200);
  });

  it('pre-order mapping takes only a BIB of the event, and a privacy-checked one only once verified in this session', async () => {
    const created = await t.request<PaymentForm>('POST', API_ROUTES.createPreorder, {
      name: 'Kiran Shah',
      email: 'kiran@example.com',
      phone_number: '9123456789',
      eventID: f.preorderEventId,
      bibNumber: 'prebook',
      captcha: await solveCaptcha(t.url),
    });
    expect(created.status).toBe(200);
    const back = await p.pay(created.body.result);
    expect((await postBack(back.action, back.fields)).status).toBe(303);

    const mapping = { orderId: created.body.result.order_ref, orderEmail: 'kiran@example.com', orderBibNumber: 'NOSUCH9', mobilenum: '9123456789' };
    const unknown = await t.request('POST', API_ROUTES.preorderLink, mapping);
    expect(unknown.status).toBe(400);
    expect(unknown.body.Message).toBe('BIB NOSUCH9 is not part of Preorder Ultra 2027. Please check the number on your BIB.');

    const { token } = await createSession(t.ctx.db, null);
    const unverified = await t.request('POST', API_ROUTES.preorderLink, { ...mapping, orderBibNumber: f.preorderBib }, bearer(token));
    expect(unverified.status).toBe(403);
    expect(unverified.body.Message).toBe(PRIVACY_MESSAGE);
    expect((await t.ctx.db.query<{ bib_number: string }>('select bib_number from orders where order_ref = $1', [mapping.orderId]))[0].bib_number).toBe(
      'prebook',
    );

    await verifyBib(token, f.preorderEventId, f.preorderBib);
    const mapped = await t.request<PreorderLinkResult>('POST', API_ROUTES.preorderLink, { ...mapping, orderBibNumber: f.preorderBib }, bearer(token));
    expect(mapped.status).toBe(200);
    expect(mapped.body.result.bib_no).toBe(f.preorderBib);
  });

  it('Hide: the runner who verified the BIB by its OTP in this session may hide its photos; another signed-in runner may not', async () => {
    const ownerId = await createUser(t.ctx.db, { firstName: 'Kiran', lastName: 'Shah', email: 'kiran.owner@example.com', password: 'Secret#2026' });
    const owner = await createSession(t.ctx.db, ownerId);
    const strangerId = await createUser(t.ctx.db, { firstName: 'Ravi', lastName: 'K', email: 'ravi.stranger@example.com', password: 'Secret#2026' });
    const stranger = await createSession(t.ctx.db, strangerId);
    const hide = { usrfeedback: 1, bibNumber: f.bib, eventID: f.eventId, photoids: String(f.photoIds[1]) };
    const hidden = () => t.ctx.db.query('select photo_id from photo_feedback where photo_id = $1', [f.photoIds[1]]);

    const refused = await t.request('POST', API_ROUTES.recordFeedback, hide, bearer(stranger.token));
    expect(refused.status).toBe(403);
    expect(refused.body.Message).toBe(FEEDBACK_MESSAGES.notOwner);
    // Before the OTP the owner is a stranger too: no order, no verification.
    expect((await t.request('POST', API_ROUTES.recordFeedback, hide, bearer(owner.token))).status).toBe(403);
    expect(await hidden()).toEqual([]);

    await verifyBib(owner.token, f.eventId, f.bib);
    const accepted = await t.request('POST', API_ROUTES.recordFeedback, hide, bearer(owner.token));
    expect(accepted.status).toBe(200);
    expect(accepted.body.Message).toBe(FEEDBACK_MESSAGES.recorded);
    expect(await hidden()).toHaveLength(1);
    // An undo withdraws only the caller's own feedback: the stranger's does not bring the photo back.
    await t.request('POST', API_ROUTES.recordFeedback, { ...hide, undo: true }, bearer(stranger.token));
    expect(await hidden()).toHaveLength(1);
  });
});
