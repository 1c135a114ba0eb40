#!/usr/bin/env node
/**
 * Times `pnpm start` (scripts/start.mjs) as a developer sees it: seconds from the command until the
 * API answers /health, until the shell answers /, and until start.mjs prints its ready line (on a
 * fresh data folder: the demo seed, which runs after the shop answers, is done); then stops the system. Used for the first-start and second-start figures in docs/performance.md.
 *   node scripts/measure-start.mjs                 a start on the current builds and data folder
 *   node scripts/measure-start.mjs --fresh         FRESH=1 (empty data folder: migrate and seed)
 *   node scripts/measure-start.mjs --clean-builds  also delete every dist/ and the webpack caches first
 *                                                  (a fresh clone's first start)
 * Options: --offset N (PORT_OFFSET, default 600), --data <folder> (DATA_DIR, default a folder of its
 * own under the system's temporary folder, kept between runs so a second start reuses it).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEPLOYMENTS, packageDirOf, REPO_ROOT } from './build.mjs';
import { portsFor } from '../build/ports.mjs';

const { values } = parseArgs({
  options: {
    fresh: { type: 'boolean', default: false },
    'clean-builds': { type: 'boolean', default: false },
    offset: { type: 'string', default: '600' },
    data: { type: 'string' },
  },
});

const offset = Number(values.offset);
const ports = portsFor(offset);
const dataDir = path.resolve(values.data ?? path.join(os.tmpdir(), `finishline-measure-start-${offset}`));

if (values['clean-builds']) {
  for (const name of DEPLOYMENTS) {
    fs.rmSync(path.join(packageDirOf(name), 'dist'), { recursive: true, force: true });
    fs.rmSync(path.join(packageDirOf(name), 'node_modules', '.cache'), { recursive: true, force: true });
  }
}

const started = performance.now();
const seconds = () => Number(((performance.now() - started) / 1000).toFixed(1));
const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'start.mjs')], {
  cwd: REPO_ROOT,
  env: { ...process.env, PORT_OFFSET: String(offset), DATA_DIR: dataDir, FRESH: values.fresh ? '1' : '' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
const logFile = path.join(os.tmpdir(), `finishline-measure-start-${offset}.log`);
const log = fs.createWriteStream(logFile);
child.stdout.pipe(log);
child.stderr.pipe(log);

const marks = {};
child.stdout.on('data', (chunk) => {
  if (marks.ready === undefined && chunk.toString().includes('[start] ready')) marks.ready = seconds();
});
const exited = new Promise((resolve) => child.once('exit', resolve));

async function answers(url) {
  try {
    const response = await fetch(url);
    return response.ok;
  } catch {
    return false;
  }
}

while (marks.ready === undefined && child.exitCode === null) {
  if (marks.api === undefined && (await answers(`http://localhost:${ports.api}/health`))) marks.api = seconds();
  if (marks.shell === undefined && (await answers(`http://localhost:${ports.shell}/`))) marks.shell = seconds();
  await new Promise((resolve) => setTimeout(resolve, 250));
}
if (marks.api === undefined && (await answers(`http://localhost:${ports.api}/health`))) marks.api = seconds();
if (marks.shell === undefined && (await answers(`http://localhost:${ports.shell}/`))) marks.shell = seconds();

child.kill('SIGTERM');
await exited;
console.log(
  JSON.stringify({
    fresh: values.fresh,
    cleanBuilds: values['clean-builds'],
    apiHealthy: marks.api ?? null,
    shellAnswers: marks.shell ?? null,
    ready: marks.ready ?? null,
    log: logFile,
  }),
);
if (marks.ready === undefined) process.exit(1);
