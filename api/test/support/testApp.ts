import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type AppConfig } from '../../src/config/config';
import { buildApp } from '../../src/app';
import { createContextWith } from '../../src/createContext';
import { openDb, type Db } from '../../src/db/db';
import type { AppContext } from '../../src/context';
import type { ApiEnvelope } from '@finishline/shared/pure';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  url: string;
  /** fetch against the running server, parsing the envelope. */
  request<T = unknown>(method: string, route: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: ApiEnvelope<T> }>;
  close(): Promise<void>;
}

/**
 * A suite's set-up starts a server, migrates a fresh database and often seeds it: on a busy two-core
 * machine that takes far longer than Jest's 5 s default, so set-up and teardown get their own limits
 * (beforeAll(fn, SET_UP_TIMEOUT_MS)). A hang still fails, with the hook named in the report.
 */
export const SET_UP_TIMEOUT_MS = 180_000;
export const TEAR_DOWN_TIMEOUT_MS = 60_000;

interface Closable {
  close(): unknown;
}

/**
 * Closes whatever a suite's set-up managed to open. A resource is undefined when set-up failed before
 * creating it; every other one is still closed when one of them throws, so a failed set-up can
 * neither hide behind a teardown error nor leave a server open that keeps Jest from exiting.
 */
export async function closeAll(...resources: Array<Closable | undefined>): Promise<void> {
  const results = await Promise.allSettled(resources.map(async (resource) => resource?.close()));
  const errors = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
  if (errors.length > 0) throw new AggregateError(errors, `teardown: ${errors.length} resource(s) failed to close`);
}

/** Runs every step in order, each even when an earlier one threw; throws the failures at the end. */
async function runAll(steps: Array<() => unknown>): Promise<void> {
  const errors: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw new AggregateError(errors, `teardown: ${errors.length} step(s) failed`);
}

/**
 * The configuration of an API of one's own, for a test or a benchmark: a random port on this
 * machine, its data and objects in `dir`, no seed, warnings only.
 */
export function localConfig(dir: string, overrides: Partial<AppConfig> = {}): AppConfig {
  return loadConfig({
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    storage: { kind: 'local', dir: path.join(dir, 'objects') },
    logLevel: 'warn',
    seedOnStart: false,
    ...overrides,
  });
}

/**
 * Starts the real server on a random port with a fresh database: in-memory PGlite by default, or a
 * new schema on the TEST_DATABASE_URL server when FINISHLINE_TEST_DB=postgres. When a step fails,
 * what the earlier steps opened is closed before the error goes on.
 */
export async function startTestApp(
  overrides: Partial<AppConfig> = {},
  options: { routes?: (app: FastifyInstance, ctx: AppContext) => void } = {},
): Promise<TestApp> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-test-'));
  const config = localConfig(tmp, overrides);
  const usePostgres = process.env.FINISHLINE_TEST_DB === 'postgres' && process.env.TEST_DATABASE_URL;
  const schema = usePostgres ? `t_${crypto.randomBytes(6).toString('hex')}` : undefined;
  let db: Db | undefined;
  let app: FastifyInstance | undefined;
  // Newest first: the server, then the database (and its schema), then the files.
  const teardown = () =>
    runAll([
      () => {
        // A test that read only a response's status leaves its body unread, and the server would
        // wait for that client forever: drop every connection first.
        app?.server.closeAllConnections();
        return app?.close();
      },
      () => schema && db?.query(`drop schema if exists ${schema} cascade`),
      // The job queue's own schema (its pg-boss stopped with the server above).
      () => schema && db?.query(`drop schema if exists ${schema}_pgboss cascade`),
      () => db?.close(),
      () => fs.rmSync(tmp, { recursive: true, force: true }),
    ]);

  try {
    db = await openDb({ url: usePostgres ? process.env.TEST_DATABASE_URL! : null, dataDir: null, schema });
    const ctx = await createContextWith(config, db);
    app = await buildApp(ctx, { logger: false });
    // A test's own routes, beside the product's and under the same hooks.
    options.routes?.(app, ctx);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    ctx.config.publicApiUrl = address;
    return {
      app,
      ctx,
      url: address,
      async request(method, route, body, headers = {}) {
        const response = await fetch(`${address}${route}`, {
          method,
          headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, body: await response.json() };
      },
      close: teardown,
    };
  } catch (error) {
    await teardown().catch(() => undefined);
    throw error;
  }
}
