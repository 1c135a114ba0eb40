import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyRequest } from 'fastify';
import { API_ROUTES, type CartLine, type CartRequest } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { seedCartFixture, type CartFixture } from './cartFixtures';
import { generatedSecrets, loadConfig, parseTrustProxy, PRODUCTION_REQUIRED } from '../src/config/config';
import { INPUT_MESSAGES } from '../src/http/inputGuard';
import { isLoopbackConnection, loopbackOnly } from '../src/security/loopback';

/**
 * Security review findings 1, 2, 5, 6, 7 and 13: each case failed on the code before the fix.
 */
describe('hardening: addresses, secrets, input bounds, development pages', () => {
  let t: TestApp;
  let f: CartFixture;
  beforeAll(async () => {
    t = await startTestApp();
    f = await seedCartFixture(t.ctx.db);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  /** Raw answer: status, text and headers, so a case can measure what came back. */
  const send = async (method: string, url: string, body?: string, contentType = 'application/json', headers: Record<string, string> = {}) => {
    const res = await fetch(`${t.url}${url}`, { method, body, headers: body === undefined ? headers : { 'content-type': contentType, ...headers } });
    return { statusCode: res.status, body: await res.text(), headers: res.headers };
  };
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) => send('POST', url, JSON.stringify(payload), 'application/json', headers);

  describe('(1) the client address is the socket, not X-Forwarded-For', () => {
    const printCart = (): CartRequest => ({
      eventId: f.eventId,
      bibNumber: 'tt100',
      searchKind: 'bib',
      packageKind: null,
      lines: [{ type: 'print', category: 'image', id: f.photoIds[0], printProductId: f.printIds.frame } satisfies CartLine],
      sponsorofferID: null,
      discountedPhotoIds: [],
    });

    it('a header cannot make a client foreign: this machine (India) keeps its prints', async () => {
      const spoofedAbroad = await post(API_ROUTES.cartDetails, printCart(), { 'x-forwarded-for': '8.8.8.8' });
      expect(spoofedAbroad.statusCode).toBe(200);
    });

    it('behind a configured proxy, its X-Forwarded-For names the client', async () => {
      const proxied = await startTestApp({ trustProxy: ['127.0.0.1'] });
      try {
        const pf = await seedCartFixture(proxied.ctx.db);
        const line: CartLine = { type: 'print', category: 'image', id: pf.photoIds[0], printProductId: pf.printIds.frame };
        const abroad = await proxied.request<unknown>(
          'POST',
          API_ROUTES.cartDetails,
          { ...printCart(), eventId: pf.eventId, lines: [line] },
          { 'x-forwarded-for': '8.8.8.8' },
        );
        expect(abroad.status).toBe(400);
      } finally {
        await proxied.close();
      }
    });

    it('TRUST_PROXY is off by default, takes a hop count or addresses, and refuses "true"', () => {
      expect(parseTrustProxy(undefined)).toBe(false);
      expect(parseTrustProxy('1')).toBe(1);
      expect(parseTrustProxy('10.0.0.1, 10.0.0.2')).toEqual(['10.0.0.1', '10.0.0.2']);
      expect(() => parseTrustProxy('true')).toThrow(/hop count/);
    });
  });

  describe('(2) no secret from the repository', () => {
    it('unset secrets are random per data folder and kept there across starts', () => {
      const a = fs.mkdtempSync(path.join(os.tmpdir(), 'fl-secrets-'));
      const b = fs.mkdtempSync(path.join(os.tmpdir(), 'fl-secrets-'));
      try {
        const first = generatedSecrets(a);
        expect(first.signingSecret.length).toBeGreaterThanOrEqual(40);
        expect(generatedSecrets(a)).toEqual(first);
        const other = generatedSecrets(b);
        expect(other.signingSecret).not.toBe(first.signingSecret);
        expect(other.payuSalt).not.toBe(first.payuSalt);
        expect((fs.statSync(path.join(a, 'secrets.json')).mode & 0o777).toString(8)).toBe('600');
      } finally {
        fs.rmSync(a, { recursive: true, force: true });
        fs.rmSync(b, { recursive: true, force: true });
      }
    });

    it('the running test server signs with the data folder secret, not a constant', () => {
      expect(t.ctx.config.signingSecret).not.toMatch(/change-me|dev-only/);
      expect(t.ctx.config.payu.salt).not.toMatch(/change-me/);
    });
  });

  describe('(13) production refuses to start without each required setting', () => {
    const required = PRODUCTION_REQUIRED.map(([name]) => name);
    const complete = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://finishline@db.internal:5432/finishline',
      S3_BUCKET: 'finishline-photos',
      SMTP_URL: 'smtps://mailer:secret@smtp.example.com:465',
      PUBLIC_API_URL: 'https://api.finishline.example',
      SHELL_URL: 'https://finishline.example',
      SIGNING_SECRET: 's'.repeat(40),
      PAYU_KEY: 'key',
      PAYU_SALT: 'salt',
      PAYU_URL: 'https://secure.payu.in/_payment',
      PAYU_VERIFY_URL: 'https://info.payu.in/merchant/postservice?form=2',
      PARTNER_DATA_KEY: 'a'.repeat(64),
      SEED_ON_START: undefined,
    };
    const withEnv = (env: Record<string, string | undefined>, run: () => void) => {
      const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
      Object.assign(process.env, env);
      for (const [key, value] of Object.entries(env)) if (value === undefined) delete process.env[key];
      try {
        run();
      } finally {
        for (const [key, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[key];
          else process.env[key] = value;
        }
      }
    };

    it('covers the shared database, storage, mail and the real gateway', () => {
      expect(required).toEqual(expect.arrayContaining(['DATABASE_URL', 'S3_BUCKET', 'SMTP_URL', 'PAYU_KEY', 'PAYU_SALT', 'PAYU_URL', 'PAYU_VERIFY_URL']));
    });

    it.each(required)('without %s', (name) => {
      withEnv({ ...complete, [name]: undefined }, () => expect(() => loadConfig({ dataDir: os.tmpdir() })).toThrow(name));
    });

    it('names every missing setting in one message', () => {
      const bare = Object.fromEntries(Object.keys(complete).map((key) => [key, key === 'NODE_ENV' ? 'production' : undefined]));
      withEnv(bare, () => {
        let message = '';
        try {
          loadConfig({ dataDir: os.tmpdir() });
        } catch (error) {
          message = (error as Error).message;
        }
        for (const name of required) expect(message).toContain(name);
      });
    });

    it('with the sandbox check switched off', () => {
      withEnv({ ...complete, PAYU_VERIFY_URL: 'off' }, () => expect(() => loadConfig({ dataDir: os.tmpdir() })).toThrow(/PAYU_VERIFY_URL/));
    });

    it.each([
      ['DATABASE_URL', 'file:./data', /DATABASE_URL must be a PostgreSQL URL/],
      ['SMTP_URL', 'http://mail.example.com', /SMTP_URL must be an smtp/],
      ['PAYU_URL', 'http://localhost:5000/_payment', /PAYU_URL must be the gateway's https address/],
      ['PAYU_VERIFY_URL', 'http://localhost:5000/merchant/postservice?form=2', /PAYU_VERIFY_URL must be the gateway's https address/],
    ])('with %s set to a toy value (%s)', (name, value, message) => {
      withEnv({ ...complete, [name]: value }, () => expect(() => loadConfig({ dataDir: os.tmpdir() })).toThrow(message));
    });

    it('never seeds demo data: off by default, and SEED_ON_START=true is refused', () => {
      withEnv(complete, () => expect(loadConfig({ dataDir: os.tmpdir() }).seedOnStart).toBe(false));
      withEnv({ ...complete, SEED_ON_START: 'true' }, () => expect(() => loadConfig({ dataDir: os.tmpdir() })).toThrow(/SEED_ON_START/));
    });

    it('and never serves the development pages', () => {
      withEnv(complete, () => expect(loadConfig({ dataDir: os.tmpdir() }).security.devPages).toBe(false));
    });
  });

  describe('(5)(6) malformed input is a short 400, never a 5xx and never an echo', () => {
    const cases: Array<[string, string, unknown]> = [
      ['an object where a string belongs', API_ROUTES.login, { email: { $gt: '' }, password: ['x'] }],
      ['an array where a string belongs', API_ROUTES.searchByBib, { eventID: 1, bibNumber: ['TT1', 'TT2'] }],
      ['an integer beyond 32 bits', API_ROUTES.searchByBib, { eventID: 2147483648, bibNumber: 'TT1' }],
      ['a NUL character', API_ROUTES.searchByBib, { eventID: 1, bibNumber: 'TT\u00001' }],
      ['a lone surrogate', API_ROUTES.contact, { name: 'A\ud800', email: 'a@example.com', message: 'hi' }],
    ];

    it.each(cases)('%s', async (_label, url, payload) => {
      const res = await post(url, payload);
      expect(res.statusCode).toBe(400);
      expect(res.body.length).toBeLessThan(1024);
    });

    it('JSON nested 3,000 deep', async () => {
      const deep = '['.repeat(3000) + ']'.repeat(3000);
      const res = await send('POST', API_ROUTES.searchByBib, `{"eventID":1,"bibNumber":${deep}}`);
      expect(res.statusCode).toBe(400);
      expect((JSON.parse(res.body) as { Message: string }).Message).toBe(INPUT_MESSAGES.tooDeep);
    });

    it('a 1 MB txnid on the PayU return', async () => {
      const res = await send(
        'POST',
        API_ROUTES.paymentSuccess,
        new URLSearchParams({ txnid: 'x'.repeat(1024 * 1024), status: 'success' }).toString(),
        'application/x-www-form-urlencoded',
      );
      expect(res.statusCode).toBeLessThan(500);
      expect(res.body.length).toBeLessThan(64 * 1024);
    });

    it('a 4 KB body does not come back in the answer', async () => {
      const junk = 'ab'.repeat(2048);
      const res = await post(API_ROUTES.register, { firstName: junk, lastName: junk, email: junk, password: junk });
      expect(res.statusCode).toBe(400);
      expect(res.body).not.toContain(junk.slice(0, 64));
      expect(res.body.length).toBeLessThan(1024);
    });

    it('an unknown path is not echoed', async () => {
      const res = await send('GET', '/api/%3Cscript%3Ealert(1)%3C/script%3E');
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('script');
    });
  });

  describe('(7) development pages answer loopback connections only', () => {
    it('the outbox is there for this machine', async () => {
      expect((await send('GET', API_ROUTES.devOutboxJson)).statusCode).toBe(200);
    });

    it('a connection from another machine is refused, whatever its headers say', async () => {
      // The hook reads the socket: a request object from 203.0.113.9 claiming loopback in headers.
      const fromElsewhere = {
        socket: { remoteAddress: '203.0.113.9' },
        headers: { 'x-forwarded-for': '127.0.0.1', host: 'localhost' },
      } as unknown as FastifyRequest;
      await expect(loopbackOnly(fromElsewhere)).rejects.toMatchObject({ statusCode: 404 });
      expect(isLoopbackConnection({ socket: { remoteAddress: '::ffff:127.0.0.1' } } as unknown as FastifyRequest)).toBe(true);
      expect(isLoopbackConnection({ socket: { remoteAddress: '::1' } } as unknown as FastifyRequest)).toBe(true);
    });
  });

  describe('(8) the API sends browser protections', () => {
    it('Content-Security-Policy, nosniff and no framing on every answer', async () => {
      const res = await send('GET', API_ROUTES.health);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });
  });
});
