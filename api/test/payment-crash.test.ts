import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { API_ROUTES, type PaymentForm } from '@finishline/shared/pure';
import { closeAll, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { solveCaptcha } from './support/captcha';
import { TSX_LOADER } from './support/cluster';
import { formAction, hiddenInputs, seedOrdersFixture, type OrdersFixture } from './ordersFixtures';
import { loadConfig, REPO_ROOT } from '../src/config/config';
import { createContextWith } from '../src/createContext';
import { openDb } from '../src/db/db';
import { buildSandbox, SUCCESS_CARDS } from '../src/payment-sandbox/sandbox';
import { readOutbox } from '../src/mail/mailer';

/**
 * The API process really dies (SIGKILL, no shutdown hook) after create-order and before the PayU
 * return reaches it. After a restart on the same database and data folder, the replayed browser
 * return must leave exactly one Paid order and one confirmation mail, however often it is replayed.
 */

const KEY = 'CRASHKEY';
const SALT = 'crash-test-salt';
const API_DIR = path.join(REPO_ROOT, 'api');
const START_LIMIT_MS = 120_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** On the PostgreSQL pass: a database of its own (the API process takes no schema), dropped afterwards. */
async function createPostgresDatabase(): Promise<{ url: string; close(): Promise<void> } | null> {
  if (process.env.FINISHLINE_TEST_DB !== 'postgres' || !process.env.TEST_DATABASE_URL) return null;
  const name = `crash_${crypto.randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), close: () => admin(`drop database if exists ${name} with (force)`) };
}

describe('the API killed between create-order and the payment return', () => {
  let sandbox: FastifyInstance | undefined;
  let sandboxUrl: string;
  let postgres: { url: string; close(): Promise<void> } | null = null;
  let dataDir: string;
  let apiUrl: string;
  let apiEnv: NodeJS.ProcessEnv;
  let api: ChildProcess | undefined;
  let apiLog = '';
  let f: OrdersFixture;

  const config = () =>
    loadConfig({ databaseUrl: postgres?.url ?? null, dataDir, storage: { kind: 'local', dir: path.join(dataDir, 'objects') }, seedOnStart: false });
  const openDatabase = () => openDb({ url: postgres?.url ?? null, dataDir: postgres ? null : dataDir });

  /**
   * Starts the API on `apiUrl`'s port. A free port can be taken by another test worker in the seconds
   * the API takes to compile before it listens: the first start then moves to a new port, a restart
   * (which must keep the address the gateway's return posts to) waits for the port to come free.
   */
  async function startApi(firstStart = false): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await startApiOnce();
      } catch (error) {
        const portTaken = /EADDRINUSE/.test(String(error));
        if (!portTaken || attempt >= 5) throw error;
        await stopApi('SIGKILL');
        if (firstStart) moveToPort(await freePort());
        else await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
    }
  }

  function moveToPort(port: number): void {
    apiUrl = `http://127.0.0.1:${port}`;
    apiEnv = { ...apiEnv, API_PORT: String(port), PUBLIC_API_URL: apiUrl };
  }

  async function startApiOnce(): Promise<void> {
    apiLog = '';
    const child = spawn(process.execPath, ['--import', TSX_LOADER, 'src/main.ts'], {
      cwd: API_DIR,
      env: apiEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    api = child;
    child.stdout!.on('data', (chunk: Buffer) => (apiLog += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (apiLog += chunk.toString()));
    const deadline = Date.now() + START_LIMIT_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the API exited (${child.exitCode}) while starting:\n${apiLog}`);
      try {
        if ((await fetch(`${apiUrl}${API_ROUTES.health}`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`the API did not answer within ${START_LIMIT_MS / 1000} s:\n${apiLog}`);
  }

  /** Stops the API process: SIGKILL is the crash (no shutdown hook runs), SIGTERM the orderly stop. */
  async function stopApi(signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    const child = api;
    api = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      // tsx runs the server in a child process of its own: signal the whole group, as a crash would take it.
      process.kill(-child.pid!, signal);
    });
  }

  beforeAll(async () => {
    sandbox = await buildSandbox({ key: KEY, salt: SALT });
    sandboxUrl = (await sandbox.listen({ port: 0, host: '127.0.0.1' })).replace('127.0.0.1', 'localhost');
    postgres = await createPostgresDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-crash-'));

    // Migrate and seed the catalogue before the API process opens the database (PGlite allows one process).
    const db = await openDatabase();
    try {
      f = await seedOrdersFixture(await createContextWith(config(), db));
    } finally {
      await db.close();
    }

    apiEnv = {
      ...process.env,
      NODE_NO_WARNINGS: '1',
      API_HOST: '127.0.0.1',
      SHELL_URL: 'http://shell.test',
      DATA_DIR: dataDir,
      DATABASE_URL: postgres?.url ?? '',
      SEED_ON_START: 'false',
      FACE_INDEXING: 'false',
      LOG_LEVEL: 'warn',
      PAYU_KEY: KEY,
      PAYU_SALT: SALT,
      PAYU_URL: `${sandboxUrl}/_payment`,
      PAYU_VERIFY_URL: `${sandboxUrl}/merchant/postservice?form=2`,
      CAPTCHA_COST: '20',
      CAPTCHA_MAX_COUNTER: '400',
    };
    moveToPort(await freePort());
    await startApi(true);
  }, SET_UP_TIMEOUT_MS);

  afterAll(
    () =>
      closeAll({ close: () => stopApi('SIGKILL') }, sandbox, postgres ?? undefined, {
        close: () => dataDir && fs.rmSync(dataDir, { recursive: true, force: true }),
      }),
    TEAR_DOWN_TIMEOUT_MS,
  );

  it(
    'restarts, takes the replayed return and finds the order Paid once with one confirmation mail',
    async () => {
      const created = await fetch(`${apiUrl}${API_ROUTES.createOrder}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Asha Rao',
          email: 'asha.crash@example.com',
          phone_number: '9876543210',
          pincode: '560001',
          eventID: f.eventId,
          bibNumber: f.bib,
          cartInfo: { searchKind: 'bib', packageKind: null, lines: [{ type: 'download', category: 'image', id: f.photoIds[0] }], discountedPhotoIds: [] },
          captcha: await solveCaptcha(apiUrl),
        }),
      });
      const form = ((await created.json()) as { Message: string; result: PaymentForm }).result;
      expect(created.status).toBe(200);

      // The runner pays at the gateway; the gateway hands the browser the auto-posting return form.
      const pay = await fetch(form.PAYU_API_URL, {
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
      expect(pay.status).toBe(200);
      const complete = await fetch(`${sandboxUrl}/_payment/complete`, {
        method: 'POST',
        body: new URLSearchParams({ txnid: form.txnid, ccnum: SUCCESS_CARDS[0], action: 'pay' }),
      });
      const html = await complete.text();
      const action = formAction(html);
      const fields = hiddenInputs(html);
      expect(action).toBe(`${apiUrl}${API_ROUTES.paymentSuccess}`);
      expect(fields.status).toBe('success');

      // The crash: the API dies before the return arrives, so the browser's post finds nobody.
      await stopApi('SIGKILL');
      const postReturn = () => fetch(action, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
      await expect(postReturn()).rejects.toThrow();

      await startApi();
      const success = `http://shell.test/ordersuccess?orderref=${form.order_ref}&txnid=${form.txnid}`;
      const first = await postReturn();
      expect(first.status).toBe(303);
      expect(first.headers.get('location')).toBe(success);
      // The browser's back button or a reload posts the same return again: same page, nothing new.
      const replay = await postReturn();
      expect(replay.status).toBe(303);
      expect(replay.headers.get('location')).toBe(success);

      await stopApi('SIGTERM');
      const mails = (await readOutbox(path.join(dataDir, 'outbox'))).filter((m) => m.tag === 'order_confirmation' && m.text.includes(form.order_ref));
      expect(mails).toHaveLength(1);
      expect(mails[0].to).toBe('asha.crash@example.com');
      const db = await openDatabase();
      try {
        const orders = await db.query<{ status: string; payment_id: string | null }>('select status, payment_id from orders where txnid = $1', [form.txnid]);
        expect(orders).toEqual([{ status: 'Paid', payment_id: fields.mihpayid }]);
      } finally {
        await db.close();
      }
    },
    // Two API starts (TypeScript compile, migrations) on a busy machine.
    2 * START_LIMIT_MS + 60_000,
  );
});
