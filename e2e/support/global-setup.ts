/**
 * Starts the whole system once for the run (scripts/start.mjs: API on a fresh database with the
 * demo seed, payment sandbox, shell and five remotes on the E2E ports) and stops it afterwards,
 * including any static server a test restarted.
 * The database is embedded PGlite in the run's data folder, or, when E2E_POSTGRES_SERVER_URL names a
 * PostgreSQL server (scripts/e2e.mjs sets it from TEST_DATABASE_URL), a database of its own created
 * on that server for this run and dropped afterwards.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { API_URL, ARTIFACTS_DIR, DATA_DIR, DATA_DIR_IS_TEMPORARY, PORT_OFFSET, PORTS, readProcesses, REPO_ROOT } from './system';

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database for this run on the server (named by scripts/e2e.mjs, or here); its URL and how to drop it. */
async function freshPostgresDatabase(serverUrl: string): Promise<{ url: string; label: string; drop(): Promise<void> }> {
  const name = process.env.E2E_POSTGRES_DATABASE || `finishline_e2e_${crypto.randomBytes(6).toString('hex')}`;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`E2E_POSTGRES_DATABASE must be a plain lower-case name, got "${name}"`);
  await onServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    label: `${url.host}/${name}`,
    // with (force): a connection the stopped API left behind must not keep the database alive.
    drop: () => onServer(serverUrl, `drop database if exists ${name} with (force)`),
  };
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  for (const [name, port] of Object.entries(PORTS)) {
    if (await portInUse(port))
      throw new Error(`Port ${port} (${name}) is busy: is another end-to-end run still going? Set E2E_PORT_OFFSET to use other ports.`);
  }

  const postgresServer = process.env.E2E_POSTGRES_SERVER_URL;
  const database = postgresServer ? await freshPostgresDatabase(postgresServer) : null;
  // A DATABASE_URL of the caller's own shell must never reach the system under test.
  const databaseEnv = { DATABASE_URL: database?.url ?? '' };
  console.log(`[e2e] API database: ${database ? `PostgreSQL ${database.label} (fresh, dropped afterwards)` : 'embedded PGlite'}`);

  const logPath = path.join(ARTIFACTS_DIR, `system-${PORT_OFFSET}.log`);
  const log = fs.createWriteStream(logPath);
  const system = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'start.mjs')], {
    cwd: REPO_ROOT,
    // DEPLOY_DIR: serve copies of the builds, so a rebuild in the work tree during the run changes nothing served.
    // Every journey searches from this one machine: the per-address search limit (the API suite tests
    // it) would cut a full run short, so it is raised here unless the caller sets it.
    env: {
      ...process.env,
      ...databaseEnv,
      PORT_OFFSET: String(PORT_OFFSET),
      DATA_DIR,
      DEPLOY_DIR: path.join(DATA_DIR, 'deployments'),
      FRESH: '1',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      RATE_LIMIT_SEARCH_PER_IP: process.env.RATE_LIMIT_SEARCH_PER_IP ?? '5000',
      // The demo's 800 photos are face-indexed in the background for the whole run (a third of a core
      // at the default pace on a two-core machine). No journey needs that backlog: the selfie journeys
      // index their own photos ahead of it (/dev/faces/event-photo). A fifth of a core leaves the rest
      // to the browser and the API.
      FACE_INDEX_PAUSE: process.env.FACE_INDEX_PAUSE ?? '4',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  system.stdout.pipe(log);
  system.stderr.pipe(log);

  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The system did not become ready in 10 minutes; see ${logPath}`)), 600_000);
    system.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('[start] ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    system.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`start.mjs exited (${code}) before it was ready; see ${logPath}`));
    });
  });
  try {
    await ready;
    // The API says which database it opened: a run meant for the PostgreSQL server must not pass on PGlite.
    const health = (await (await fetch(`${API_URL}/health`)).json()) as { result: { database: string } };
    const expected = database ? 'postgres' : 'pglite';
    if (health.result.database !== expected) throw new Error(`The API runs on ${health.result.database}, not on ${expected}; see ${logPath}`);
  } catch (error) {
    // Playwright runs no teardown when set-up fails: stop what was started and drop the database here.
    if (system.exitCode === null) {
      const exited = new Promise((resolve) => system.once('exit', resolve));
      system.kill('SIGTERM');
      await exited;
    }
    log.end();
    if (database) await database.drop();
    throw error;
  }

  return async () => {
    // Static servers a test restarted are not start.mjs's children: stop them by their recorded pid.
    try {
      for (const { pid, hosted } of Object.values(readProcesses().deployments)) {
        if (hosted) continue; // served by start.mjs itself, which stops below
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    } catch {
      // no processes.json: nothing was started
    }
    await new Promise<void>((resolve) => {
      if (system.exitCode !== null) return resolve();
      system.once('exit', () => resolve());
      system.kill('SIGTERM');
    });
    log.end();
    if (database) await database.drop();
    // The temporary data folder (database, photos, deployed copies) goes too, unless asked to keep it.
    if (DATA_DIR_IS_TEMPORARY && process.env.E2E_KEEP_DATA !== '1') fs.rmSync(DATA_DIR, { recursive: true, force: true });
  };
}
