import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, type LoginResult, type SignUpResult, type User } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { solveCaptcha } from './support/captcha';
import { loadConfig, type SecurityConfig } from '../src/config/config';
import { readOutbox } from '../src/mail/mailer';
import { createUser } from '../src/features/accounts/users';
import { STRONG_CAPTCHA_MESSAGE } from '../src/features/auth/routes';

/** Cheap captcha and small limits so the rules are reached quickly; production defaults stay in config. */
function testSecurity(overrides: Partial<SecurityConfig> = {}): SecurityConfig {
  return { ...loadConfig().security, captchaCost: 20, captchaMaxCounter: 400, signInFailuresBeforeStrongCaptcha: 3, ...overrides };
}

const PASSWORD = 'Finish@2026';
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

describe('accounts over HTTP: sign-up, sign-in, sessions, passwords', () => {
  let t: TestApp;
  const captcha = () => solveCaptcha(t.url);

  async function signUp(email: string, overrides: Record<string, unknown> = {}) {
    return t.request('POST', API_ROUTES.register, {
      firstName: 'Meera',
      lastName: 'Iyer',
      email,
      isdCode: '+91',
      primaryPhone: '98765 43210',
      password: PASSWORD,
      confirmPassword: PASSWORD,
      gCaptchToken: await captcha(),
      newUserFlg: 1,
      ...overrides,
    });
  }

  async function signIn(email: string, password = PASSWORD) {
    return t.request<LoginResult>('POST', API_ROUTES.login, { email, password, gCaptchToken: await captcha() });
  }

  async function mailsTo(address: string) {
    return (await readOutbox(t.ctx.mailer.outboxDir!)).filter((m) => m.to === address);
  }

  beforeAll(async () => {
    t = await startTestApp({ security: testSecurity() });
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('signs a runner up with an argon2id hash and mails a welcome', async () => {
    const response = await signUp('Meera.Iyer@Example.com');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ StatusCode: 200, HasError: false, Message: 'Registered Successfully ! Please sign in.' });
    const rows = await t.ctx.db.query<{ password_hash: string; primary_phone: string; is_organiser: boolean }>(
      'select password_hash, primary_phone, is_organiser from users where email = $1',
      ['meera.iyer@example.com'],
    );
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0].primary_phone).toBe('9876543210');
    expect(rows[0].is_organiser).toBe(false);
    const welcome = await mailsTo('meera.iyer@example.com');
    expect(welcome.map((m) => m.tag)).toContain('welcome');
  });

  it("checkout's sign-up is signed in at once: the answer carries a session the server knows, unproven like any new account", async () => {
    const response = await signUp('nila.checkout@example.com', { signIn: true });
    expect(response.status).toBe(200);
    const result = response.body.result as SignUpResult;
    expect(result.session).toMatchObject({
      email: 'nila.checkout@example.com',
      firstName: 'Meera',
      emailVerified: false,
      isOrganiser: false,
      isPartner: false,
    });
    const me = await t.request<{ email: string }>('GET', API_ROUTES.currentUser, undefined, auth(result.session!.token));
    expect(me.status).toBe(200);
    expect(me.body.result.email).toBe('nila.checkout@example.com');
    // The /sign-up page's request (no signIn) starts no session, as the spec's flow goes on to Sign In.
    const plain = await signUp('plain.signup@example.com');
    expect((plain.body.result as SignUpResult).session).toBeUndefined();
  });

  it('refuses a second account for the same email, whatever its case', async () => {
    const response = await signUp('MEERA.IYER@example.com');
    expect(response.status).toBe(409);
    expect(response.body.Message).toBe('An account with this email already exists. Please sign in.');
  });

  it("answers bad sign-up input with the spec's messages", async () => {
    expect((await signUp('x@example.com', { primaryPhone: '12345' })).body.Message).toBe('Invalid phone number!');
    expect((await signUp('x@example.com', { confirmPassword: 'Other@2026' })).body.Message).toBe('Passwords must match');
    expect((await signUp('not-an-email')).body.Message).toBe('Invalid email');
    const intl = await signUp('intl@example.com', { isdCode: '+44', primaryPhone: '7911123456' });
    expect(intl.status).toBe(200);
  });

  it('signs in with the spec result, keeps only the token hash and serves the current user', async () => {
    const response = await signIn('meera.iyer@example.com');
    expect(response.status).toBe(200);
    const login = response.body.result;
    expect(login).toMatchObject({
      firstName: 'Meera',
      lastName: 'Iyer',
      email: 'meera.iyer@example.com',
      isOrganiser: false,
      isPartner: false,
      isdCode: '+91',
    });
    expect(typeof login.id).toBe('number');
    expect(login.token.length).toBeGreaterThan(30);
    const sessions = await t.ctx.db.query<{ token_hash: string }>('select token_hash from sessions where user_id = $1', [login.id]);
    expect(sessions.map((s) => s.token_hash)).not.toContain(login.token);
    const me = await t.request<User>('GET', API_ROUTES.currentUser, undefined, auth(login.token));
    expect(me.body.result.email).toBe('meera.iyer@example.com');
    expect(JSON.stringify(me.body)).not.toContain('argon2');
  });

  it('refuses a wrong password; after the failures reach the limit the right one needs the strong captcha', async () => {
    await signUp('limit@example.com');
    for (let i = 0; i < 3; i++) {
      const wrong = await signIn('limit@example.com', 'Wrong@20260');
      expect(wrong.status).toBe(401);
      expect(wrong.body.Message).toBe('Invalid email or password.');
      // The third failure tells the form to show the strong captcha for the next try.
      expect(wrong.body.result).toEqual(i < 2 ? null : { captcha: 'strong' });
    }
    const standard = await signIn('limit@example.com');
    expect(standard.status).toBe(400);
    expect(standard.body).toMatchObject({ Message: STRONG_CAPTCHA_MESSAGE, result: { captcha: 'strong' } });
    const strong = await t.request<LoginResult>('POST', API_ROUTES.login, {
      email: 'limit@example.com',
      password: PASSWORD,
      gCaptchToken: await solveCaptcha(t.url, 'strong'),
    });
    expect(strong.status).toBe(200);
    // Another account is not affected by this one's failures.
    expect((await signIn('meera.iyer@example.com')).status).toBe(200);
  });

  it('checkout user info answers with the session user, not the userID sent', async () => {
    const other = await createUser(t.ctx.db, { firstName: 'Other', lastName: 'Person', email: 'other@example.com', password: PASSWORD });
    const login = (await signIn('meera.iyer@example.com')).body.result;
    const info = await t.request<User>('POST', API_ROUTES.checkoutUserInfo, { userID: other }, auth(login.token));
    expect(info.status).toBe(200);
    expect(info.body.result.email).toBe('meera.iyer@example.com');
    const anonymous = await t.request('POST', API_ROUTES.checkoutUserInfo, { userID: other });
    expect(anonymous.status).toBe(401);
  });

  it('logs out by revoking the session on the server', async () => {
    const login = (await signIn('meera.iyer@example.com')).body.result;
    expect((await t.request('GET', API_ROUTES.currentUser, undefined, auth(login.token))).status).toBe(200);
    const out = await t.request('POST', API_ROUTES.logout, {}, auth(login.token));
    expect(out.status).toBe(200);
    const after = await t.request('GET', API_ROUTES.currentUser, undefined, auth(login.token));
    expect(after.status).toBe(401);
    const revoked = await t.ctx.db.query<{ n: number }>('select count(*)::int as n from sessions where user_id = $1 and revoked_at is not null', [login.id]);
    expect(revoked[0].n).toBeGreaterThanOrEqual(1);
  });

  it('changes the password: checks the current one, keeps this session and revokes the others', async () => {
    await signUp('change@example.com');
    const here = (await signIn('change@example.com')).body.result;
    const elsewhere = (await signIn('change@example.com')).body.result;
    const body = { userID: 999999, currentPassword: PASSWORD, newPassword: 'Newpass2027', confirmPassword: 'Newpass2027' };

    expect((await t.request('POST', API_ROUTES.changePassword, body)).status).toBe(401);
    const weak = await t.request('POST', API_ROUTES.changePassword, { ...body, newPassword: 'weakpass', confirmPassword: 'weakpass' }, auth(here.token));
    expect(weak.body.Message).toBe(
      'Password must be at least eight characters long and should include one each of uppercase, lowercase, number, special character.',
    );
    const mismatch = await t.request('POST', API_ROUTES.changePassword, { ...body, confirmPassword: 'Newpass2028' }, auth(here.token));
    expect(mismatch.body.Message).toBe('Passwords must match');
    const wrongCurrent = await t.request('POST', API_ROUTES.changePassword, { ...body, currentPassword: 'Wrong@2026' }, auth(here.token));
    expect(wrongCurrent.status).toBe(400);
    expect(wrongCurrent.body.Message).toBe('Your current password is not correct.');

    const ok = await t.request('POST', API_ROUTES.changePassword, body, auth(here.token));
    expect(ok.status).toBe(200);
    expect(ok.body.Message).toBe('Password changed successfully');
    expect((await t.request('GET', API_ROUTES.currentUser, undefined, auth(here.token))).status).toBe(200);
    expect((await t.request('GET', API_ROUTES.currentUser, undefined, auth(elsewhere.token))).status).toBe(401);
    expect((await signIn('change@example.com')).status).toBe(401);
    expect((await signIn('change@example.com', 'Newpass2027')).status).toBe(200);
  });

  describe('forgot and reset password', () => {
    const email = 'reset@example.com';
    const newPassword = 'Reset2027x';
    const reset = (passCode: string, password = newPassword) =>
      t.request('POST', API_ROUTES.passwordReset, { passCode, email, newPassword: password, confirmPassword: password });
    const latestCode = async () => {
      const mail = (await mailsTo(email)).filter((m) => m.tag === 'password_code').at(-1);
      return /passcode to reset your password is (\d{6})/.exec(mail?.text ?? '')?.[1] ?? '';
    };

    it('mails a code, never returns it, stores only its hash, and accepts it once', async () => {
      await signUp(email);
      const oldSession = (await signIn(email)).body.result;
      const asked = await t.request<Record<string, unknown>>('POST', API_ROUTES.passwordCode, { email });
      expect(asked.status).toBe(200);
      const code = await latestCode();
      expect(code).toMatch(/^\d{6}$/);
      expect(JSON.stringify(asked.body)).not.toContain(code);
      const stored = await t.ctx.db.query<{ code_hash: string; expires_at: Date }>('select code_hash, expires_at from one_time_codes where subject = $1', [
        email,
      ]);
      expect(stored[0].code_hash).not.toContain(code);
      expect(new Date(stored[0].expires_at).getTime()).toBeGreaterThan(Date.now());

      const wrong = await reset(code === '000000' ? '111111' : '000000');
      expect(wrong.status).toBe(400);
      expect(wrong.body.Message).toBe('please provide a valid passcode');
      const attempts = await t.ctx.db.query<{ attempts: number }>('select attempts from one_time_codes where subject = $1', [email]);
      expect(attempts[0].attempts).toBe(1);

      const ok = await reset(code);
      expect(ok.status).toBe(200);
      expect((await signIn(email, newPassword)).status).toBe(200);
      // Resetting signs every earlier session out, and the code cannot be used again.
      expect((await t.request('GET', API_ROUTES.currentUser, undefined, auth(oldSession.token))).status).toBe(401);
      expect((await reset(code, 'Another2028')).body.Message).toBe('please provide a valid passcode');
    });

    it('kills a code after its last allowed try', async () => {
      await t.request('POST', API_ROUTES.passwordCode, { email });
      const code = await latestCode();
      const wrongCode = code === '123456' ? '654321' : '123456';
      for (let i = 0; i < 5; i++) expect((await reset(wrongCode)).status).toBe(400);
      expect((await reset(code)).body.Message).toBe('please provide a valid passcode');
    });

    it('answers the same for an unknown email and mails nothing', async () => {
      const before = (await readOutbox(t.ctx.mailer.outboxDir!)).length;
      const response = await t.request('POST', API_ROUTES.passwordCode, { email: 'nobody@example.com' });
      expect(response.status).toBe(200);
      expect(response.body.Message).toContain('If nobody@example.com has an account');
      expect((await readOutbox(t.ctx.mailer.outboxDir!)).length).toBe(before);
    });

    it("checks the reset form with the spec's messages", async () => {
      expect((await reset('abcd')).body.Message).toBe('Enter the passcode');
      const badMail = await t.request('POST', API_ROUTES.passwordReset, { passCode: '123456', email: 'nope', newPassword, confirmPassword: newPassword });
      expect(badMail.body.Message).toBe('Enter a Valid mail');
    });
  });

  it('offers Google sign-in only with a client id', async () => {
    const response = await t.request('POST', API_ROUTES.socialLogin, { tokenkey: 'x'.repeat(40), login_type: 2 });
    expect(response.status).toBe(400);
    expect(response.body.Message).toBe('Google sign-in is not available.');
  });
});

describe('accounts: limits on passcode mails', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ security: testSecurity({ passwordCodesPerEmail: 2 }) });
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('refuses the third passcode request for one email within the window', async () => {
    const ask = () => t.request('POST', API_ROUTES.passwordCode, { email: 'busy@example.com' });
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    const third = await ask();
    expect(third.status).toBe(429);
    expect(third.body.Message).toBe('Too many passcode requests. Please wait an hour and try again.');
  });
});

describe('Google sign-in with a client id configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ security: testSecurity({ googleClientId: 'finishline-test.apps.googleusercontent.com' }) });
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('refuses an ID token that Google did not sign, whatever it claims, and creates no account', async () => {
    const now = Math.floor(Date.now() / 1000);
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const forged = [
      part({ alg: 'RS256', kid: 'forged', typ: 'JWT' }),
      part({
        iss: 'https://accounts.google.com',
        aud: 'finishline-test.apps.googleusercontent.com',
        email: 'victim@example.com',
        email_verified: true,
        iat: now,
        exp: now + 3600,
      }),
      Buffer.from('not a signature').toString('base64url'),
    ].join('.');
    const response = await t.request('POST', API_ROUTES.socialLogin, { tokenkey: forged, login_type: 2, email: 'victim@example.com', firstName: 'Victim' });
    expect(response.status).toBe(401);
    expect(response.body.Message).toBe('Login failed');
    const users = await t.ctx.db.query<{ n: number }>('select count(*)::int as n from users where email = $1', ['victim@example.com']);
    expect(users[0].n).toBe(0);
  });
});
