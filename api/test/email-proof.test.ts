import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { OAuth2Client } from 'google-auth-library';
import {
  API_ROUTES,
  EMAIL_PROOF_MESSAGES,
  type EmailCodeResult,
  type EmailVerifyResult,
  type LoginResult,
  type OrderHistoryResult,
  type PaymentForm,
} from '@finishline/shared/pure';
import { SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { solveCaptcha } from './support/captcha';
import { postBack, startPaymentTestApp, type PaymentTestApp } from './support/paymentApp';
import { seedOrdersFixture, type OrdersFixture } from './ordersFixtures';
import { readOutbox } from '../src/mail/mailer';
import { migrate } from '../src/db/migrate';
import { FEEDBACK_MESSAGES } from '../src/features/feedback/routes';

const PASSWORD = 'Finish@2026';

/**
 * Issue 33 item 1: signing up never proved the address, and guest orders follow the address. An
 * account sees (and downloads) an order it did not place while signed in only after proving that it
 * reads the address's mail; a guest order is claimed by that proof.
 */
describe('the email proof: guest orders of an address go to the account only once it proves the address', () => {
  let p: PaymentTestApp;
  let f: OrdersFixture;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const t = () => p.t;
  const mails = async (to: string, tag?: string) => (await readOutbox(t().ctx.mailer.outboxDir!)).filter((m) => m.to === to && (!tag || m.tag === tag));
  const codeIn = (text: string) => /is (\d{6})/.exec(text)![1]!;

  async function signUp(email: string, firstName = 'Mallory'): Promise<void> {
    const res = await t().request('POST', API_ROUTES.register, {
      firstName,
      lastName: 'Signup',
      email,
      isdCode: '+91',
      primaryPhone: '9876500000',
      password: PASSWORD,
      confirmPassword: PASSWORD,
      gCaptchToken: await solveCaptcha(t().url),
      newUserFlg: 1,
    });
    expect(res.status).toBe(200);
  }

  async function signIn(email: string, password = PASSWORD) {
    return t().request<LoginResult>('POST', API_ROUTES.login, { email, password, gCaptchToken: await solveCaptcha(t().url) });
  }

  /** A paid order of the fixture's BIB; a guest's unless a token is given (then the signed-in checkout). */
  async function paidOrder(email: string, photoIds: number[], token?: string): Promise<PaymentForm> {
    const body = {
      name: 'Priya Runner',
      email,
      phone_number: '9876543210',
      pincode: '560001',
      ...(token ? { gender: 'Female', shipping_address: '4 Lake Road' } : { captcha: await solveCaptcha(t().url) }),
      eventID: f.eventId,
      bibNumber: f.bib,
      cartInfo: { searchKind: 'bib', packageKind: null, lines: photoIds.map((id) => ({ type: 'download', category: 'image', id })), discountedPhotoIds: [] },
    };
    const created = await t().request<PaymentForm>('POST', API_ROUTES.createOrder, body, token ? bearer(token) : {});
    expect(created.status).toBe(200);
    const back = await p.pay(created.body.result);
    expect((await postBack(back.action, back.fields)).status).toBe(303);
    return created.body.result;
  }

  const history = async (token: string) =>
    (await t().request<OrderHistoryResult>('POST', API_ROUTES.orderHistory, { searchtext: '' }, bearer(token))).body.result;

  beforeAll(async () => {
    p = await startPaymentTestApp();
    f = await seedOrdersFixture(t().ctx);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => p?.close(), TEAR_DOWN_TIMEOUT_MS);

  it("someone who signed up with a runner's address sees none of the runner's later guest orders, and cannot download or act on them", async () => {
    const email = 'priya.runner@example.com';
    await signUp(email);
    // The sign-up's welcome mail carries the first proof code (only the address's reader gets it).
    const [welcome] = await mails(email, 'welcome');
    expect(welcome!.text).toMatch(/Your code to confirm this email address is \d{6}/);
    const login = await signIn(email);
    expect(login.body.result.emailVerified).toBe(false);
    const token = login.body.result.token;

    // The runner, not signed in, buys with her address.
    const guest = await paidOrder(email, [f.photoIds[0]!]);

    const seen = await history(token);
    expect(seen).toMatchObject({ order_history: [], withheld_orders: 1, email, email_verified: false });
    for (const [route, body] of [
      [API_ROUTES.orderDetail, { orderID: guest.order_ref }],
      [`${API_ROUTES.myOrder}?orderid=${guest.order_ref}`, {}],
      [API_ROUTES.downloadOrder, { orderID: guest.order_ref }],
      [API_ROUTES.downloadImage, { orderID: guest.order_ref, imageID: f.photoIds[0] }],
    ] as const) {
      const res = await t().request('POST', route, body, bearer(token));
      expect({ route, status: res.status, message: res.body.Message, result: res.body.result }).toEqual({
        route,
        status: 403,
        message: EMAIL_PROOF_MESSAGES.orderWaits(email),
        result: { emailProof: 'needed', email },
      });
    }
    // Nor does the guest order make the account the BIB's owner (Hide changes what everyone sees).
    const hide = await t().request(
      'POST',
      API_ROUTES.recordFeedback,
      { usrfeedback: 1, bibNumber: f.bib, eventID: f.eventId, photoids: `${f.photoIds[0]}` },
      bearer(token),
    );
    expect({ status: hide.status, message: hide.body.Message }).toEqual({ status: 403, message: FEEDBACK_MESSAGES.notOwner });

    // The buyer keeps the pre-authorised link of her confirmation mail, signed out.
    const [confirmation] = (await mails(email, 'order_confirmation')).filter((m) => m.text.includes(guest.order_ref));
    const link = Object.fromEntries(new URL(/http:\/\/shell\.test\/preauthdownload\?\S+/.exec(confirmation!.text)![0]).searchParams);
    expect((await t().request('GET', `${API_ROUTES.preauthDownload}?${new URLSearchParams(link)}`)).status).toBe(200);
    expect((await t().request('POST', API_ROUTES.downloadOrder, { orderID: guest.order_ref, preauth: link })).status).toBe(200);
  });

  it('an unproven account keeps what it bought signed in; proving the address claims the guest orders, which then download', async () => {
    const email = 'kiran.claims@example.com';
    await signUp(email, 'Kiran');
    const token = (await signIn(email)).body.result.token;
    const guest = await paidOrder(email, [f.photoIds[1]!]);
    const own = await paidOrder('ignored@example.com', [f.photoIds[2]!], token);
    expect(own.email).toBe(email);

    const before = await history(token);
    expect(before.order_history.map((r) => r.order_ref)).toEqual([own.order_ref]);
    expect(before.withheld_orders).toBe(1);
    expect((await t().request('POST', API_ROUTES.downloadOrder, { orderID: own.order_ref }, bearer(token))).status).toBe(200);

    // A wrong code is refused (and counted); a code is asked for and mailed; the right one proves the address.
    const wrong = await t().request('POST', API_ROUTES.emailVerify, { code: '000000' }, bearer(token));
    expect({ status: wrong.status, message: wrong.body.Message }).toEqual({ status: 400, message: EMAIL_PROOF_MESSAGES.invalidCode });
    const asked = await t().request<EmailCodeResult>('POST', API_ROUTES.emailCode, {}, bearer(token));
    expect(asked.status).toBe(200);
    expect(asked.body.Message).toBe(EMAIL_PROOF_MESSAGES.codeSent(email, t().ctx.config.security.emailCodeMinutes));
    expect(asked.body.result).toEqual({ email, expiresInMinutes: t().ctx.config.security.emailCodeMinutes, emailVerified: false });
    // The welcome mail's code was retired by the new one.
    const welcomeCode = codeIn((await mails(email, 'welcome'))[0]!.text);
    const code = codeIn((await mails(email, 'email_code')).at(-1)!.text);
    if (welcomeCode !== code) expect((await t().request('POST', API_ROUTES.emailVerify, { code: welcomeCode }, bearer(token))).status).toBe(400);
    const proved = await t().request<EmailVerifyResult>('POST', API_ROUTES.emailVerify, { code }, bearer(token));
    expect(proved.status).toBe(200);
    expect(proved.body.result).toEqual({ email, emailVerified: true, ordersClaimed: 1 });
    expect(proved.body.Message).toBe(EMAIL_PROOF_MESSAGES.confirmed(1));
    expect(
      (await t().ctx.db.query<{ proved: boolean }>('select email_verified_at is not null as proved from users where email = $1', [email]))[0]!.proved,
    ).toBe(true);

    const after = await history(token);
    expect(after.order_history.map((r) => r.order_ref).sort()).toEqual([guest.order_ref, own.order_ref].sort());
    expect(after).toMatchObject({ withheld_orders: 0, email_verified: true });
    expect((await t().request('POST', API_ROUTES.orderDetail, { orderID: guest.order_ref }, bearer(token))).status).toBe(200);
    const zip = await t().request<string>('POST', API_ROUTES.downloadOrder, { orderID: guest.order_ref }, bearer(token));
    expect(zip.status).toBe(200);
    expect((await fetch(zip.body.result)).status).toBe(200);
    expect((await t().request<{ emailVerified: boolean }>('GET', API_ROUTES.currentUser, undefined, bearer(token))).body.result.emailVerified).toBe(true);
    // Proven once: a later guest order of the address is the account's at once; a code is not mailed again.
    const later = await paidOrder(email, [f.photoIds[3]!]);
    expect((await history(token)).order_history.map((r) => r.order_ref)).toContain(later.order_ref);
    const again = await t().request<EmailCodeResult>('POST', API_ROUTES.emailCode, {}, bearer(token));
    expect({ status: again.status, message: again.body.Message, verified: again.body.result.emailVerified }).toEqual({
      status: 200,
      message: EMAIL_PROOF_MESSAGES.alreadyConfirmed,
      verified: true,
    });
    // Signed out, neither call exists for the caller.
    expect((await t().request('POST', API_ROUTES.emailCode, {})).status).toBe(401);
    expect((await t().request('POST', API_ROUTES.emailVerify, { code })).status).toBe(401);
  });

  it('codes expire, die after their tries, and are mailed at most a few times an hour per account', async () => {
    const email = 'limits.proof@example.com';
    await signUp(email, 'Lena');
    const token = (await signIn(email)).body.result.token;
    const latest = async () => codeIn((await mails(email)).filter((m) => m.tag === 'email_code' || m.tag === 'welcome').at(-1)!.text);

    // Expired: refused with the same message.
    let code = await latest();
    await t().ctx.db.query(`update one_time_codes set expires_at = now() - interval '1 second' where purpose = 'email_proof' and used_at is null`);
    expect((await t().request('POST', API_ROUTES.emailVerify, { code }, bearer(token))).body.Message).toBe(EMAIL_PROOF_MESSAGES.invalidCode);

    // Out of tries: after the last wrong one even the right code is refused.
    expect((await t().request('POST', API_ROUTES.emailCode, {}, bearer(token))).status).toBe(200);
    code = await latest();
    const wrongCode = code === '111111' ? '222222' : '111111';
    for (let i = 0; i < t().ctx.config.security.emailCodeMaxAttempts; i++) {
      expect((await t().request('POST', API_ROUTES.emailVerify, { code: wrongCode }, bearer(token))).status).toBe(400);
    }
    expect((await t().request('POST', API_ROUTES.emailVerify, { code }, bearer(token))).status).toBe(400);
    // Not six digits: the form's own message.
    expect((await t().request('POST', API_ROUTES.emailVerify, { code: '12ab' }, bearer(token))).body.Message).toBe(EMAIL_PROOF_MESSAGES.enterCode);

    // The sign-up mailed one and the request above another: three more fit in the hour, then 429.
    for (let i = 0; i < t().ctx.config.security.emailCodesPerAccount - 2; i++) {
      expect((await t().request('POST', API_ROUTES.emailCode, {}, bearer(token))).status).toBe(200);
    }
    const refused = await t().request('POST', API_ROUTES.emailCode, {}, bearer(token));
    expect(refused.status).toBe(429);
    expect((await mails(email, 'email_code')).length).toBe(t().ctx.config.security.emailCodesPerAccount - 1);
  });

  it('a password reset by mailed passcode proves the address too', async () => {
    const email = 'reset.proves@example.com';
    await signUp(email, 'Ravi');
    const guest = await paidOrder(email, [f.photoIds[4]!]);
    expect((await t().request('POST', API_ROUTES.passwordCode, { email })).status).toBe(200);
    const passCode = codeIn((await mails(email, 'password_code')).at(-1)!.text);
    const reset = await t().request('POST', API_ROUTES.passwordReset, { email, passCode, newPassword: 'Other#2027', confirmPassword: 'Other#2027' });
    expect(reset.status).toBe(200);
    const login = await signIn(email, 'Other#2027');
    expect(login.body.result.emailVerified).toBe(true);
    expect((await history(login.body.result.token)).order_history.map((r) => r.order_ref)).toEqual([guest.order_ref]);
  });

  it("a Google sign-in proves the address; a password set before the proof is removed and that account's sessions end", async () => {
    const email = 'google.proves@example.com';
    await signUp(email, 'Gita');
    const squatter = (await signIn(email)).body.result.token;
    const guest = await paidOrder(email, [f.photoIds[0]!]);
    t().ctx.config.security.googleClientId = 'test-client.apps.googleusercontent.com';
    const verify = jest.spyOn(OAuth2Client.prototype, 'verifyIdToken').mockResolvedValue({
      getPayload: () => ({ email, email_verified: true, given_name: 'Gita', family_name: 'Rao' }),
    } as never);
    try {
      const google = await t().request<LoginResult>('POST', API_ROUTES.socialLogin, {
        tokenkey: 'eyJhbGciOiJSUzI1NiJ9.a-google-id-token.signature',
        login_type: 2,
      });
      expect(google.status).toBe(200);
      expect(google.body.result.emailVerified).toBe(true);
      expect((await history(google.body.result.token)).order_history.map((r) => r.order_ref)).toEqual([guest.order_ref]);
    } finally {
      verify.mockRestore();
      t().ctx.config.security.googleClientId = null;
    }
    // Whoever set the password before the proof is out: the session ended, the password no longer signs in.
    expect((await t().request('GET', API_ROUTES.currentUser, undefined, bearer(squatter))).status).toBe(401);
    expect((await signIn(email)).status).toBe(401);
    expect((await mails(email, 'password_removed')).length).toBe(1);
  });

  it('migrates existing accounts and orders: Google accounts proven, signed-in orders kept, guest orders wait for the proof; file names cleaned', async () => {
    const db = t().ctx.db;
    // Back to the schema before migrations 110, 404 and 540, with rows as the earlier code stored them.
    await db.exec(
      `alter table users drop column email_verified_at; alter table orders drop column placed_by_user_id; alter table photos drop column metadata_cleaned_at`,
    );
    await db.query(`delete from schema_migrations where name in ('110_email_proof.sql', '404_order_placed_by.sql', '540_clean_originals.sql')`);
    const user = async (email: string, loginType: number, password: string | null) =>
      (
        await db.query<{ id: number }>(
          `insert into users (first_name, last_name, email, password_hash, login_type) values ('Old', 'Account', $1, $2, $3) returning id`,
          [email, password, loginType],
        )
      )[0]!.id;
    const google = await user('old.google@example.com', 2, null);
    const withPassword = await user('old.password@example.com', 1, 'argon2-hash');
    const order = async (userId: number, email: string, gender: string | null) =>
      (
        await db.query<{ id: number }>(
          `insert into orders (order_ref, txnid, user_id, event_id, bib_number, name, email, phone, gender, status, amount, amount_text, productinfo)
           values ('FLMIG' || (random() * 1e8)::int, 'TMIG' || (random() * 1e8)::int, $1, $2, 'OT100', 'Old Buyer', $3, '9800000000', $4, 'Paid', 118, '118.00', 'photos') returning id`,
          [userId, f.eventId, email, gender],
        )
      )[0]!.id;
    const signedInOrder = await order(withPassword, 'old.password@example.com', 'Female');
    const guestOrder = await order(withPassword, 'old.password@example.com', null);
    const photo = (
      await db.query<{ id: number }>(`update photos set original_name = $2 where id = $1 returning id`, [f.photoIds[0], '../../x\u202Egpj.jpg'])
    )[0]!.id;
    await db.query(`update photos set original_name = '..' where id = $1`, [f.photoIds[1]]);

    expect(await migrate(db)).toEqual(['110_email_proof.sql', '404_order_placed_by.sql', '540_clean_originals.sql']);
    const proven = await db.query<{ id: number; proven: boolean }>(
      'select id, email_verified_at is not null as proven from users where id = any($1::int[]) order by id',
      [[google, withPassword]],
    );
    expect(proven).toEqual([
      { id: google, proven: true },
      { id: withPassword, proven: false },
    ]);
    const placed = await db.query<{ id: number; placed_by_user_id: number | null }>(
      'select id, placed_by_user_id from orders where id = any($1::int[]) order by id',
      [[signedInOrder, guestOrder]],
    );
    expect(placed).toEqual([
      { id: signedInOrder, placed_by_user_id: withPassword },
      { id: guestOrder, placed_by_user_id: null },
    ]);
    const names = await db.query<{ id: number; original_name: string | null }>('select id, original_name from photos where id = any($1::int[]) order by id', [
      [photo, f.photoIds[1]],
    ]);
    expect(names).toEqual([
      { id: photo, original_name: 'xgpj.jpg' },
      { id: f.photoIds[1], original_name: null },
    ]);
    // Every original stored before is left for the clean-originals job.
    expect((await db.query<{ n: number }>(`select count(*)::int as n from photos where kind = 'image' and metadata_cleaned_at is not null`))[0]!.n).toBe(0);
  });
});
