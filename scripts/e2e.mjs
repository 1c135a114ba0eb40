#!/usr/bin/env node
/**
 * Runs the Playwright journeys (e2e/): builds any deployment that is missing or whose sources
 * changed first (scripts/build.mjs --changed; `pnpm test` has done it already), then `playwright test`,
 * whose global setup starts the whole system on the E2E ports (E2E_PORT_OFFSET, default 100) with
 * the API on embedded PGlite.
 *
 * When TEST_DATABASE_URL names a PostgreSQL server (CI sets it when one answers), a second run of the
 * journeys that touch the database most (BIB search, cart, checkout, orders) follows, with the API on
 * a fresh database created on that server for the run and dropped afterwards.
 *
 *   node scripts/e2e.mjs                              every journey, then the PostgreSQL subset
 *   node scripts/e2e.mjs tests/bib-search.spec.ts     only what is named (Playwright's arguments), on PGlite
 *   node scripts/e2e.mjs --postgres [specs...]        only the PostgreSQL run (the subset unless specs are named)
 *
 * Build and runs together must end within E2E_TIME_LIMIT_MINUTES (default 55: CI has 90 minutes for
 * type check, lint, the Jest suite (JEST_TIME_LIMIT_MINUTES, 45) and the journeys; these took 15-17
 * minutes on one two-core machine and 44 on a slower one), else the run is
 * stopped with a message saying so.
 */
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deadlineFromEnv, runUntil } from './time-limit.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const playwrightCli = path.join(repoRoot, 'e2e', 'node_modules', '@playwright', 'test', 'cli.js');
const POSTGRES_SUBSET = ['tests/bib-search.spec.ts', 'tests/cart.spec.ts', 'tests/checkout.spec.ts', 'tests/orders.spec.ts'];

const args = process.argv.slice(2);
const postgresOnly = args.includes('--postgres');
const playwrightArgs = args.filter((arg) => arg !== '--postgres');
const serverUrl = process.env.TEST_DATABASE_URL;
const deadline = deadlineFromEnv('E2E_TIME_LIMIT_MINUTES', 55);

if (postgresOnly && !serverUrl) {
  console.error('--postgres needs TEST_DATABASE_URL (a PostgreSQL server the e2e run may create databases on).');
  process.exit(2);
}

/** Runs one step under the overall deadline; returns its exit status. */
async function run(label, commandArgs, options = {}) {
  console.log(`\n=== ${label} ===`);
  return runUntil(deadline, label, commandArgs, options);
}

const exitUnlessPassed = (status) => {
  if (status !== 0) process.exit(status);
};

/** Drops the run's database if it is still there (the e2e package brings the pg driver). */
async function dropDatabase(url, name) {
  const pg = createRequire(path.join(repoRoot, 'e2e', 'package.json'))('pg');
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
  } catch (error) {
    console.error(`Could not drop the e2e database ${name}: ${error instanceof Error ? error.message : error}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A Playwright run in e2e/; E2E_POSTGRES_SERVER_URL (global setup's switch) only when given. */
function playwright(label, testArgs, env = {}) {
  return run(label, [playwrightCli, 'test', ...testArgs], { cwd: path.join(repoRoot, 'e2e'), env: { ...process.env, E2E_POSTGRES_SERVER_URL: '', ...env } });
}

exitUnlessPassed(await run('build changed deployments', [path.join(repoRoot, 'scripts', 'build.mjs'), '--changed']));

if (!postgresOnly) exitUnlessPassed(await playwright('Playwright: journeys (API on embedded PGlite)', playwrightArgs));

const redacted = serverUrl?.replace(/\/\/[^@]*@/, '//');
if (serverUrl && (postgresOnly || playwrightArgs.length === 0)) {
  // Named here, created and dropped by global setup; dropped here again in case the run was stopped
  // before its teardown (time limit, a crash), so no run leaves a database behind.
  const databaseName = `finishline_e2e_${crypto.randomBytes(6).toString('hex')}`;
  const status = await playwright(
    `Playwright: journeys on the PostgreSQL server (${redacted}, database ${databaseName})`,
    playwrightArgs.length > 0 ? playwrightArgs : POSTGRES_SUBSET,
    { E2E_POSTGRES_SERVER_URL: serverUrl, E2E_POSTGRES_DATABASE: databaseName },
  );
  await dropDatabase(serverUrl, databaseName);
  exitUnlessPassed(status);
} else if (serverUrl) {
  console.log('\nNamed journeys ran on PGlite only; add --postgres to run them on the PostgreSQL server.');
} else {
  console.log('\nTEST_DATABASE_URL not set: the journeys ran on PGlite only.');
}
