#!/usr/bin/env node
/**
 * Runs the Playwright journeys (e2e/): builds any missing deployment first, then `playwright test`,
 * whose global setup starts the whole system on the E2E ports (E2E_PORT_OFFSET, default 100).
 * Extra arguments go to Playwright, e.g. `node scripts/e2e.mjs tests/bib-search.spec.ts`.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const build = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'build.mjs'), '--missing'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const playwrightCli = path.join(repoRoot, 'e2e', 'node_modules', '@playwright', 'test', 'cli.js');
const result = spawnSync(process.execPath, [playwrightCli, 'test', ...process.argv.slice(2)], {
  cwd: path.join(repoRoot, 'e2e'),
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
