import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { solveCaptcha } from './support/captcha';
import { loadConfig } from '../src/config/config';
import { createUser } from '../src/features/accounts/users';

const PASSWORD = 'Finish@2026';
const decode = (payload: string) => JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

describe('captcha (ALTCHA) issued and verified by the server', () => {
  let t: TestApp;
  const login = (gCaptchToken: unknown) => t.request('POST', API_ROUTES.login, { email: 'runner@example.com', password: PASSWORD, gCaptchToken });

  // A challenge lives long enough here for a solve and a sign-in on a busy machine; the expiry test
  // has an app of its own whose challenges expire after 2 s.
  const app = async (captchaTtlSeconds: number) => {
    const started = await startTestApp({ security: { ...loadConfig().security, captchaCost: 20, captchaMaxCounter: 400, captchaTtlSeconds } });
    await createUser(started.ctx.db, { firstName: 'Ravi', lastName: 'Kumar', email: 'runner@example.com', password: PASSWORD });
    return started;
  };
  let shortLived: TestApp;

  beforeAll(async () => {
    t = await app(120);
    shortLived = await app(2);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t, shortLived), TEAR_DOWN_TIMEOUT_MS);

  it('issues a signed challenge that expires and never reveals its answer', async () => {
    const response = await fetch(`${t.url}${API_ROUTES.captchaChallenge}`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const challenge = await response.json();
    expect(challenge.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', cost: 20 });
    expect(typeof challenge.signature).toBe('string');
    expect(challenge.parameters.expiresAt * 1000).toBeGreaterThan(Date.now());
    expect(JSON.stringify(challenge)).not.toMatch(/counter/);
  });

  it('refuses a missing captcha', async () => {
    const response = await login(undefined);
    expect(response.status).toBe(400);
    expect(response.body.Message).toBe('Please complete the captcha.');
  });

  it("refuses garbage, the widget's test-mode payload and a wrong answer", async () => {
    expect((await login('not-base64-json')).body.Message).toBe('The captcha could not be verified. Please solve it again.');
    expect((await login(encode({ challenge: null, solution: null, test: true }))).status).toBe(400);
    const solved = decode(await solveCaptcha(t.url));
    // The server checks the derived key against its own signature of the right one.
    const key: string = solved.solution.derivedKey;
    solved.solution.derivedKey = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
    const wrong = await login(encode(solved));
    expect(wrong.status).toBe(400);
    expect(wrong.body.Message).toBe('The captcha could not be verified. Please solve it again.');
  });

  it('refuses a challenge whose parameters were altered (signature check)', async () => {
    const solved = decode(await solveCaptcha(t.url));
    solved.challenge.parameters.expiresAt += 3600;
    expect((await login(encode(solved))).status).toBe(400);
  });

  it('accepts a solved captcha once, then refuses its reuse', async () => {
    const payload = await solveCaptcha(t.url);
    expect((await login(payload)).status).toBe(200);
    const again = await login(payload);
    expect(again.status).toBe(400);
    expect(again.body.Message).toBe('This captcha was already used. Please solve it again.');
  });

  it('refuses an expired challenge', async () => {
    const payload = await solveCaptcha(shortLived.url);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const response = await shortLived.request('POST', API_ROUTES.login, { email: 'runner@example.com', password: PASSWORD, gCaptchToken: payload });
    expect(response.status).toBe(400);
    expect(response.body.Message).toBe('The captcha has expired. Please solve it again.');
  });
});
