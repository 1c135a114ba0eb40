import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, FACE_CONSENT_VERSION, FACE_DESCRIPTOR_LENGTH, SELFIE_MESSAGES } from '@finishline/shared/pure';
import { loadConfig } from '../src/config/config';
import { CAPTCHA_INVALID_MESSAGE } from '../src/security/captcha';
import { LIMIT_MESSAGES } from '../src/security/limits';
import { createSession } from '../src/features/accounts';
import { createSelfieEvent } from '../bench/faceScenes';
import { solveCaptcha } from './support/captcha';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { GOOD_FACE_QUALITY } from './support/faceQuality';

/**
 * Consent and limits of selfie search: the API refuses a search without the notice's current
 * consent version, and counts searches per device session (a captcha past the allowance), with the
 * address only as a high backstop. Searches send an on-device descriptor, so no face detection runs.
 */
const PER_SESSION = 3;
const PER_ADDRESS = 8;

/** A descriptor shaped like the model's (norm about 1.4); it matches no face of the empty event. */
const descriptor = Array.from({ length: FACE_DESCRIPTOR_LENGTH }, (_, i) => (i % 2 === 0 ? 0.125 : -0.125));

describe('selfie search consent and per-session limits', () => {
  let t: TestApp;
  let eventId: number;

  beforeAll(async () => {
    const defaults = loadConfig({}).security;
    t = await startTestApp({ trustProxy: ['127.0.0.1'], security: { ...defaults, selfieSearchesPerSession: PER_SESSION, selfieSearchesPerIp: PER_ADDRESS } });
    eventId = await createSelfieEvent(t.ctx.db, 'Consent Run 2026');
  }, SET_UP_TIMEOUT_MS);

  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  const search = (address: string, body: Record<string, unknown>) =>
    t.request<unknown>(
      'POST',
      API_ROUTES.searchBySelfie,
      { eventID: eventId, embedding: descriptor, faceQuality: GOOD_FACE_QUALITY, ...body },
      { 'x-forwarded-for': address },
    );
  const anonymousSession = async () => (await createSession(t.ctx.db, null)).token;
  const hits = async () => (await t.ctx.db.query<{ n: number }>(`select count(*)::int as n from rate_limit_hits where bucket like 'selfie:%'`))[0]!.n;

  it('refuses a search without the consent the page records, before counting or matching anything', async () => {
    const sessionToken = await anonymousSession();
    for (const consent of [{}, { consentVersion: '' }, { consentVersion: '2020-01-01' }]) {
      const res = await search('10.20.0.1', { sessionToken, ...consent });
      expect({ status: res.status, message: res.body.Message }).toEqual({ status: 400, message: SELFIE_MESSAGES.consentNeeded });
    }
    expect(await hits()).toBe(0);
    const agreed = await search('10.20.0.1', { sessionToken, consentVersion: FACE_CONSENT_VERSION });
    expect(agreed.status).toBe(404);
    expect(agreed.body.Message).toBe('No photos of you were found in Consent Run 2026. Try another selfie, or search by your BIB number.');
    // Nothing of the runner is kept for the consent: only the session's count of searches.
    expect(await t.ctx.db.query<{ bucket: string }>(`select bucket from rate_limit_hits where bucket like 'selfie:%'`)).toEqual([
      { bucket: expect.stringMatching(/^selfie:session:\d+$/) },
    ]);
  });

  it('counts searches per device session: past the allowance a captcha, and a solved one gives a new allowance', async () => {
    const carrier = '10.20.1.1';
    const runner = await anonymousSession();
    const neighbour = await anonymousSession();
    const consentVersion = FACE_CONSENT_VERSION;
    for (let i = 0; i < PER_SESSION; i += 1) expect((await search(carrier, { sessionToken: runner, consentVersion })).status).toBe(404);
    const asked = await search(carrier, { sessionToken: runner, consentVersion });
    expect(asked.status).toBe(400);
    expect(asked.body).toMatchObject({ Message: SELFIE_MESSAGES.captchaNeeded, result: { captcha: 'standard' } });

    // Another runner on the same carrier's address is not held up by it.
    expect((await search(carrier, { sessionToken: neighbour, consentVersion })).status).toBe(404);

    const wrong = await search(carrier, { sessionToken: runner, consentVersion, gCaptchToken: 'bm90IGEgY2FwdGNoYQ==' });
    expect({ status: wrong.status, message: wrong.body.Message }).toEqual({ status: 400, message: CAPTCHA_INVALID_MESSAGE });
    const solved = await search(carrier, { sessionToken: runner, consentVersion, gCaptchToken: await solveCaptcha(t.url) });
    expect(solved.status).toBe(404);
    for (let i = 1; i < PER_SESSION; i += 1) expect((await search(carrier, { sessionToken: runner, consentVersion })).status).toBe(404);
    expect((await search(carrier, { sessionToken: runner, consentVersion })).body.Message).toBe(SELFIE_MESSAGES.captchaNeeded);
  }, 120_000);

  it('counts a search without a session against its address, with the same captcha', async () => {
    const consentVersion = FACE_CONSENT_VERSION;
    for (let i = 0; i < PER_SESSION; i += 1) expect((await search('10.20.2.1', { consentVersion })).status).toBe(404);
    expect((await search('10.20.2.1', { consentVersion })).body.Message).toBe(SELFIE_MESSAGES.captchaNeeded);
  });

  it('keeps a high per-address backstop against one machine rotating sessions', async () => {
    const consentVersion = FACE_CONSENT_VERSION;
    for (let i = 0; i < PER_ADDRESS; i += 1) {
      expect((await search('10.20.3.1', { sessionToken: await anonymousSession(), consentVersion })).status).toBe(404);
    }
    const refused = await search('10.20.3.1', { sessionToken: await anonymousSession(), consentVersion });
    expect({ status: refused.status, message: refused.body.Message }).toEqual({ status: 429, message: LIMIT_MESSAGES.selfieSearch });
  });
});
