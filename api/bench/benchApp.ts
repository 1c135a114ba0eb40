/** The API inside the benchmark's own process, for the benchmarks that drive its routes and workers directly. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config/config';
import type { AppContext } from '../src/context';
import { createContextWith } from '../src/createContext';
import { openDb, type Db } from '../src/db/db';
import { closeFaceDetector } from '../src/models/faces/detector';
import { acquireJobQueue } from '../src/queue/jobQueue';
import { localConfig } from '../test/support/testApp';

/**
 * The API listening on a random local port, with its data in `tmp` and the job queue acquired: the
 * database is a new schema on the TEST_DATABASE_URL server when that is set, else PGlite in `tmp`.
 * The caller starts the workers it measures and closes everything (schema is undefined on PGlite).
 */
export async function startBenchApp(tmp: string) {
  const config = localConfig(tmp);
  const schema = process.env.TEST_DATABASE_URL ? `bench_${crypto.randomBytes(4).toString('hex')}` : undefined;
  const db = await openDb({ url: process.env.TEST_DATABASE_URL ?? null, dataDir: process.env.TEST_DATABASE_URL ? null : tmp, schema });
  const ctx = await createContextWith(config, db);
  const app = await buildApp(ctx, { logger: false });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  ctx.config.publicApiUrl = url;
  const { queue, release } = await acquireJobQueue(db, console.warn);
  return { schema, db, ctx, app, url, queue, release };
}

/**
 * Runs `fn` with a context of the API on a temporary folder and a database of its own (a new schema
 * on `url`'s server, or PGlite in memory without one), for the face benchmarks; afterwards, whatever
 * happened, the face models are let go, the schema dropped, the database closed and the folder removed.
 */
export async function withFaceBenchContext(url: string | null, fn: (ctx: AppContext, db: Db) => Promise<void>): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-faces-'));
  const config = loadConfig({ dataDir: tmp, storage: { kind: 'local', dir: path.join(tmp, 'objects') }, seedOnStart: false });
  const schema = url ? `bench_faces_${Date.now()}` : undefined;
  const db = await openDb({ url, dataDir: null, schema });
  try {
    await fn(await createContextWith(config, db), db);
  } finally {
    await closeFaceDetector();
    if (schema) await db.query(`drop schema if exists ${schema} cascade`);
    await db.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
