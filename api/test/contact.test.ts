import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { contactForm } from './support/captcha';
import { loadConfig } from '../src/config/config';
import { readOutbox } from '../src/mail/mailer';

describe('contact form: validated, captcha-checked, stored, mailed to support, rate limited', () => {
  let t: TestApp;
  const form = (overrides: Record<string, string> = {}) => contactForm(t.url, overrides);

  beforeAll(async () => {
    t = await startTestApp({ security: { ...loadConfig().security, captchaCost: 20, captchaMaxCounter: 400, contactPerIp: 3 } });
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('accepts the multipart form, stores it and mails support and the sender', async () => {
    const data = new FormData();
    Object.entries(await form()).forEach(([k, v]) => data.append(k, v));
    const response = await fetch(`${t.url}${API_ROUTES.contact}`, { method: 'POST', body: data });
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.Message).toBe('Thank you for contacting us. Our support team will reply within 48 hours.');
    const rows = await t.ctx.db.query<{ email: string; bib_id: string; message: string }>('select email, bib_id, message from contact_messages');
    expect(rows).toEqual([{ email: 'kavya@example.com', bib_id: 'KM1042', message: 'My photos from the Kochi half marathon are missing.' }]);
    const mails = await readOutbox(t.ctx.mailer.outboxDir!);
    const support = mails.find((m) => m.tag === 'contact');
    expect(support?.to).toBe(t.ctx.config.mail.supportAddress);
    expect(support?.text).toContain('Kochi half marathon');
    expect(mails.some((m) => m.tag === 'contact_ack' && m.to === 'kavya@example.com')).toBe(true);
  });

  it("answers bad input with the spec's messages (and stores nothing)", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ firstName: 'Al' }, 'Too Short!'],
      [{ lastName: 'Men0n' }, 'only alphabets'],
      [{ phoneNo: '98765' }, 'Must contain 10 Digits!'],
      [{ phoneNo: '1234567890' }, 'Invalid phone number!'],
      [{ email: 'kavya@' }, 'Invalid email'],
      [{ gCaptchToken: '' }, 'Please complete the captcha.'],
    ];
    for (const [overrides, message] of cases) {
      const response = await t.request('POST', API_ROUTES.contact, { ...(await form()), ...overrides });
      expect({ status: response.status, message: response.body.Message }).toEqual({ status: 400, message });
    }
    const rows = await t.ctx.db.query<{ n: number }>('select count(*)::int as n from contact_messages');
    expect(rows[0].n).toBe(1);
  });

  it('reports the limit once a client has sent too many messages', async () => {
    // The first test's message counts, and refused captchas above were cut before the limit counter.
    let last = await t.request('POST', API_ROUTES.contact, await form());
    for (let i = 0; i < 5 && last.status === 200; i++) last = await t.request('POST', API_ROUTES.contact, await form());
    expect(last.status).toBe(429);
    expect(last.body.Message).toBe(`You have sent several messages recently. Please try again in an hour, or write to ${t.ctx.config.mail.supportAddress}.`);
  });
});

describe('development outbox page', () => {
  it('lists the outbox as HTML while mail goes to the outbox folder', async () => {
    const t = await startTestApp();
    try {
      await t.ctx.mailer.send({ to: 'asha@example.com', subject: 'Your <passcode>', text: 'Code 123456', tag: 'password_code' });
      const response = await fetch(`${t.url}${API_ROUTES.devOutbox}`);
      expect(response.headers.get('content-type')).toContain('text/html');
      const html = await response.text();
      expect(html).toContain('Your &lt;passcode&gt;');
      expect(html).toContain('Code 123456');
      const json = await t.request<Array<{ to: string }>>('GET', `${API_ROUTES.devOutboxJson}?to=asha@example.com`);
      expect(json.body.result.map((m) => m.to)).toEqual(['asha@example.com']);
    } finally {
      await t.close();
    }
  });

  it('does not exist when mail goes out by SMTP', async () => {
    const base = loadConfig();
    const t = await startTestApp({ mail: { ...base.mail, smtpUrl: 'smtp://127.0.0.1:2525' } });
    try {
      expect((await fetch(`${t.url}${API_ROUTES.devOutbox}`)).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
