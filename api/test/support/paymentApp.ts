import { expect } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { PaymentForm } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp } from './testApp';
import { loadConfig, type AppConfig } from '../../src/config/config';
import { buildSandbox, SUCCESS_CARDS } from '../../src/payment-sandbox/sandbox';
import { formAction, hiddenInputs } from '../ordersFixtures';

export const PAYU_TEST_KEY = 'TESTKEY';
export const PAYU_TEST_SALT = 'test-salt-42';

/** The API wired to a running payment sandbox, with a cheap captcha. */
export interface PaymentTestApp {
  t: TestApp;
  sandbox: FastifyInstance;
  sandboxUrl: string;
  /** What the browser does: post the form to the gateway, pay with the card, and return to the merchant. */
  pay(form: PaymentForm, card?: string): Promise<{ action: string; fields: Record<string, string> }>;
  close(): Promise<void>;
}

export async function startPaymentTestApp(security: Partial<AppConfig['security']> = {}, overrides: Partial<AppConfig> = {}): Promise<PaymentTestApp> {
  const sandbox = await buildSandbox({ key: PAYU_TEST_KEY, salt: PAYU_TEST_SALT });
  const sandboxUrl = (await sandbox.listen({ port: 0, host: '127.0.0.1' })).replace('127.0.0.1', 'localhost');
  let t: TestApp;
  try {
    t = await startTestApp({
      shellUrl: 'http://shell.test',
      payu: { key: PAYU_TEST_KEY, salt: PAYU_TEST_SALT, url: `${sandboxUrl}/_payment`, verifyUrl: `${sandboxUrl}/merchant/postservice?form=2` },
      security: { ...loadConfig().security, captchaCost: 20, captchaMaxCounter: 400, ...security },
      ...overrides,
    });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  return {
    t,
    sandbox,
    sandboxUrl,
    async pay(form, card = SUCCESS_CARDS[0]) {
      const handOff = await fetch(form.PAYU_API_URL, {
        method: 'POST',
        body: new URLSearchParams({
          key: form.key,
          txnid: form.txnid,
          amount: form.amount,
          productinfo: form.productinfo,
          firstname: form.firstname,
          lastname: form.lastname,
          email: form.email,
          phone: form.phone,
          surl: form.surl,
          furl: form.furl,
          hash: form.hash,
          udf1: form.udf1,
        }),
      });
      expect(handOff.status).toBe(200);
      const html = await (
        await fetch(`${sandboxUrl}/_payment/complete`, { method: 'POST', body: new URLSearchParams({ txnid: form.txnid, ccnum: card, action: 'pay' }) })
      ).text();
      return { action: formAction(html), fields: hiddenInputs(html) };
    },
    async close() {
      await closeAll(t, sandbox);
    },
  };
}

/** Posts the gateway's return to the merchant, as the browser's auto-post does. */
export const postBack = (action: string, fields: Record<string, string>) =>
  fetch(action, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
