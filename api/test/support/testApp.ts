import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type AppConfig } from '../../src/config/config';
import { buildApp } from '../../src/app';
import { createContextWith } from '../../src/createContext';
import { openDb } from '../../src/db/db';
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
 * Starts the real server on a random port with a fresh database: in-memory PGlite by default, or a
 * new schema on the TEST_DATABASE_URL server when FINISHLINE_TEST_DB=postgres.
 */
export async function startTestApp(overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-test-'));
  const config = loadConfig({
    port: 0,
    host: '127.0.0.1',
    dataDir: tmp,
    storage: { kind: 'local', dir: path.join(tmp, 'objects') },
    logLevel: 'warn',
    seedOnStart: false,
    ...overrides,
  });
  const usePostgres = process.env.FINISHLINE_TEST_DB === 'postgres' && process.env.TEST_DATABASE_URL;
  const schema = usePostgres ? `t_${crypto.randomBytes(6).toString('hex')}` : undefined;
  const db = await openDb({ url: usePostgres ? process.env.TEST_DATABASE_URL! : null, dataDir: null, schema });
  const ctx = await createContextWith(config, db);
  const app = await buildApp(ctx, { logger: false });
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
    async close() {
      // A test that read only a response's status leaves its body unread, and the server would wait
      // for that client forever: drop every connection first.
      app.server.closeAllConnections();
      await app.close();
      if (schema) await db.query(`drop schema if exists ${schema} cascade`);
      await db.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}
