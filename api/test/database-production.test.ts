import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { onPgServer } from './support/pgServer';
import { closeAll, SET_UP_TIMEOUT_MS, startTestApp, TEAR_DOWN_TIMEOUT_MS, type TestApp } from './support/testApp';
import { REPO_ROOT } from '../src/config/config';
import { openDb } from '../src/db/db';
import { pruneExpiredRows } from '../src/pipeline/scheduled/prune';

/**
 * The database as a real dependency: several processes migrating one fresh PostgreSQL database at
 * once (the one-off `pnpm migrate` step), the pool's statement timeout and its 'error' listener,
 * and the pruning of rows nobody can use any more.
 */
const serverUrl = process.env.FINISHLINE_TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
if (!serverUrl) {
  process.stdout.write(
    'database-production: the PostgreSQL cases (concurrent migrate, pool timeouts, lost connections) are skipped: they run in the pass with FINISHLINE_TEST_DB=postgres and TEST_DATABASE_URL set.\n',
  );
}
const onServer = serverUrl ? describe : describe.skip;

const admin = (sql: string) => onPgServer(serverUrl!, sql);

/** Runs `pnpm migrate` (the api package's script: its real entry point) against url. */
function runMigrate(url: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'src/cli/migrate.ts'], {
      cwd: path.join(REPO_ROOT, 'api'),
      env: { ...process.env, NODE_NO_WARNINGS: '1', DATABASE_URL: url, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

onServer('PostgreSQL as a production dependency', () => {
  const name = `migrate_${crypto.randomBytes(6).toString('hex')}`;
  let url: string;

  beforeAll(async () => {
    await admin(`create database ${name}`);
    const target = new URL(serverUrl!);
    target.pathname = `/${name}`;
    url = target.toString();
  }, SET_UP_TIMEOUT_MS);

  afterAll(() => admin(`drop database if exists ${name} with (force)`), TEAR_DOWN_TIMEOUT_MS);

  it('three `pnpm migrate` processes on one fresh database: all succeed, every migration applied once', async () => {
    const runs = await Promise.all([runMigrate(url), runMigrate(url), runMigrate(url)]);
    for (const run of runs) expect({ code: run.code, output: run.output }).toMatchObject({ code: 0 });
    const files = fs.readdirSync(path.join(REPO_ROOT, 'api', 'src', 'db', 'migrations')).filter((file) => /^\d{3}_.+\.sql$/.test(file));
    const applied = runs.map((run) => Number(/(\d+) migration\(s\) applied/.exec(run.output)?.[1] ?? 0));
    // One process did the work; the others waited on the lock and found it done.
    expect(applied.reduce((sum, n) => sum + n, 0)).toBe(files.length);
    const db = await openDb({ url, dataDir: null });
    try {
      const rows = await db.query<{ n: number }>('select count(*)::int as n from schema_migrations');
      expect(rows[0].n).toBe(files.length);
    } finally {
      await db.close();
    }
    // A further run finds nothing to do.
    const again = await runMigrate(url);
    expect(again.output).toContain('the database is up to date');
  });

  it('a statement running past DB_STATEMENT_TIMEOUT_MS is cancelled by the server', async () => {
    const db = await openDb({ url, dataDir: null, pool: { poolSize: 2, connectTimeoutMs: 2_000, statementTimeoutMs: 300, idleTimeoutMs: 10_000 } });
    try {
      await expect(db.query('select pg_sleep(2)')).rejects.toThrow(/statement timeout/);
      expect(await db.query<{ ok: number }>('select 1 as ok')).toEqual([{ ok: 1 }]);
    } finally {
      await db.close();
    }
  });

  it('a connection the server drops is logged, not a crash, and the next query gets a new one', async () => {
    const logged: string[] = [];
    const db = await openDb({
      url,
      dataDir: null,
      pool: { poolSize: 1, connectTimeoutMs: 2_000, statementTimeoutMs: 5_000, idleTimeoutMs: 60_000 },
      log: (message) => logged.push(message),
    });
    try {
      const [{ pid }] = await db.query<{ pid: number }>('select pg_backend_pid() as pid');
      await admin(`select pg_terminate_backend(${Number(pid)})`);
      const deadline = Date.now() + 10_000;
      while (logged.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(logged[0]).toMatch(/database connection lost/);
      const [{ pid: next }] = await db.query<{ pid: number }>('select pg_backend_pid() as pid');
      expect(next).not.toBe(pid);
    } finally {
      await db.close();
    }
  });
});

describe('the prune job', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('deletes expired sessions, used or expired codes and old callbacks, keeps what is still valid, and a second run deletes nothing', async () => {
    const db = t.ctx.db;
    await db.query(
      `insert into sessions (token_hash, user_id, expires_at, revoked_at) values
         ('expired-long-ago', null, now() - interval '10 days', null),
         ('revoked-long-ago', null, now() + interval '10 days', now() - interval '10 days'),
         ('expired-yesterday', null, now() - interval '1 day', null),
         ('valid', null, now() + interval '1 day', null)`,
    );
    await db.query(
      `insert into one_time_codes (purpose, subject, code_hash, expires_at, used_at) values
         ('password_reset', 'old@example.com', 'h1', now() - interval '10 days', null),
         ('privacy_otp', 'event:1:B1', 'h2', now() + interval '10 minutes', null)`,
    );
    await db.query(
      `insert into payment_callbacks (txnid, kind, status, outcome, payload, received_at) values
         ('old', 'success', 'success', 'paid', '{}', now() - interval '500 days'),
         ('recent', 'success', 'success', 'paid', '{}', now() - interval '5 days')`,
    );
    const settings = { expiredRowRetentionDays: 7, paymentCallbackRetentionDays: 400, sentMailRetentionDays: 30, idempotencyKeyHours: 24 };
    const first = await pruneExpiredRows(db, settings);
    expect(first).toMatchObject({ sessions: 2, oneTimeCodes: 1, paymentCallbacks: 1 });
    expect((await db.query<{ token_hash: string }>('select token_hash from sessions order by token_hash')).map((r) => r.token_hash)).toEqual([
      'expired-yesterday',
      'valid',
    ]);
    expect((await db.query<{ subject: string }>('select subject from one_time_codes')).map((r) => r.subject)).toEqual(['event:1:B1']);
    expect((await db.query<{ txnid: string }>('select txnid from payment_callbacks')).map((r) => r.txnid)).toEqual(['recent']);
    const second = await pruneExpiredRows(db, settings);
    expect(Object.values(second).every((n) => n === 0)).toBe(true);
  });
});
