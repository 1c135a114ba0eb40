import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, type BibSearchResult, type GenerateOtpResult } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { seedCartFixture, type CartFixture } from './cartFixtures';
import { createSession } from '../src/features/accounts/sessions';
import { readOutbox } from '../src/mail/mailer';

describe('privacy OTP: no photos for a BIB until it is verified in the session', () => {
  let t: TestApp;
  let f: CartFixture;
  beforeAll(async () => {
    t = await startTestApp();
    f = await seedCartFixture(t.ctx.db);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const body = () => ({ eventID: f.privateEventId, bibNumber: 'pr7', eventName: 'Private Trail Run 2026' });
  async function lastOtp(): Promise<string> {
    const mails = await readOutbox(t.ctx.mailer.outboxDir!);
    const mail = mails.filter((m) => m.tag === 'privacy_otp').at(-1)!;
    return /is (\d{6})\./.exec(mail.text)![1];
  }

  it('withholds the photos, mails a code to the masked address, verifies it and then shows the photos', async () => {
    const { token } = await createSession(t.ctx.db, null);
    const before = await t.request<BibSearchResult>('POST', API_ROUTES.searchByBib, body(), bearer(token));
    expect(before.status).toBe(200);
    expect(before.body.result.photo).toHaveLength(0);
    expect(before.body.result).toMatchObject({ isPrivacyCheckEnabled: true, isVerified: false, participantExists: [{ email1: 'pr****@example.com' }] });

    const sent = await t.request<GenerateOtpResult>('POST', API_ROUTES.generateOtp, body(), bearer(token));
    expect(sent.status).toBe(200);
    expect(sent.body.Message).toBe('OTP sent to pr****@example.com');
    expect(sent.body.result.resendAfterSeconds).toBe(30);
    const mails = await readOutbox(t.ctx.mailer.outboxDir!);
    expect(mails.at(-1)).toMatchObject({ to: 'priya.runner@example.com', tag: 'privacy_otp' });
    const code = await lastOtp();
    const stored = await t.ctx.db.query<{ code_hash: string }>(`select code_hash from one_time_codes where purpose = 'privacy_otp'`);
    expect(stored.map((r) => r.code_hash)).not.toContain(code);

    const wrong = await t.request('POST', API_ROUTES.verifyOtp, { ...body(), otp: code === '000000' ? '111111' : '000000' }, bearer(token));
    expect(wrong.status).toBe(400);
    expect(wrong.body.Message).toBe('Invalid OTP. 4 attempts left.');

    const ok = await t.request('POST', API_ROUTES.verifyOtp, { ...body(), otp: code }, bearer(token));
    expect(ok.status).toBe(200);
    expect(ok.body.Message).toBe('OTP Verified Successfully');
    const rows = await t.ctx.db.query('select * from session_verified_bibs where event_id = $1 and bib_number = $2', [f.privateEventId, 'PR7']);
    expect(rows).toHaveLength(1);

    const after = await t.request<BibSearchResult>('POST', API_ROUTES.searchByBib, body(), bearer(token));
    expect(after.body.result.isVerified).toBe(true);
    expect(after.body.result.photo.map((p) => p.id).sort()).toEqual([...f.privatePhotoIds].sort());

    // a used code does not work twice, and another session is still not verified
    const again = await t.request('POST', API_ROUTES.verifyOtp, { ...body(), otp: code }, bearer(token));
    expect(again.status).toBe(400);
    const other = await createSession(t.ctx.db, null);
    const otherSearch = await t.request<BibSearchResult>('POST', API_ROUTES.searchByBib, body(), bearer(other.token));
    expect(otherSearch.body.result.photo).toHaveLength(0);
  });

  it('locks the code after 5 wrong attempts and refuses an expired code', async () => {
    const { token } = await createSession(t.ctx.db, null);
    await t.request('POST', API_ROUTES.generateOtp, body(), bearer(token));
    const code = await lastOtp();
    const wrongCode = code === '123456' ? '654321' : '123456';
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) messages.push((await t.request('POST', API_ROUTES.verifyOtp, { ...body(), otp: wrongCode }, bearer(token))).body.Message);
    expect(messages).toEqual([
      'Invalid OTP. 4 attempts left.',
      'Invalid OTP. 3 attempts left.',
      'Invalid OTP. 2 attempts left.',
      'Invalid OTP. 1 attempt left.',
      'Too many wrong attempts. Please click Resend to get a new OTP.',
    ]);
    const locked = await t.request('POST', API_ROUTES.verifyOtp, { ...body(), otp: code }, bearer(token));
    expect(locked.status).toBe(400);
    expect(locked.body.Message).toBe('Too many wrong attempts. Please click Resend to get a new OTP.');

    await t.request('POST', API_ROUTES.generateOtp, body(), bearer(token));
    const fresh = await lastOtp();
    await t.ctx.db.query(`update one_time_codes set expires_at = now() - interval '1 minute' where purpose = 'privacy_otp' and used_at is null`);
    const expired = await t.request('POST', API_ROUTES.verifyOtp, { ...body(), otp: fresh }, bearer(token));
    expect(expired.status).toBe(400);
    expect(expired.body.Message).toBe('The OTP has expired. Please click Resend to get a new one.');
  });

  it('checks the input, the session and the request rate', async () => {
    const { token } = await createSession(t.ctx.db, null);
    const letters = await t.request('POST', API_ROUTES.verifyOtp, { ...body(), otp: '12ab56' }, bearer(token));
    expect(letters.status).toBe(400);
    expect(letters.body.Message).toBe('Please enter the 6 digit OTP sent to your email.');
    const noSession = await t.request('POST', API_ROUTES.generateOtp, body());
    expect(noSession.status).toBe(400);
    expect(noSession.body.Message).toBe('Your search session is expired please search again.');
    const publicEvent = await t.request('POST', API_ROUTES.generateOtp, { ...body(), eventID: f.eventId, bibNumber: 'TT100' }, bearer(token));
    expect(publicEvent.body.Message).toBe('This event does not need an OTP.');

    // Earlier tests mailed the BIB the 3 codes it gets without a captcha; a further one asks for it.
    const further = await t.request('POST', API_ROUTES.generateOtp, body(), bearer(token));
    expect(further.status).toBe(400);
    expect(further.body).toMatchObject({
      Message: 'Several OTPs were sent for this BIB recently. Please complete the captcha to get another one.',
      result: { captcha: 'standard' },
    });
  });
});
