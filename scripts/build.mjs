#!/usr/bin/env node
/**
 * Builds the shell and the remotes, each on its own into its own dist/ (with mf-manifest.json):
 *   node scripts/build.mjs                  all six
 *   node scripts/build.mjs storefront shell only those
 *   node scripts/build.mjs --missing        only those without a build yet
 *   node scripts/build.mjs --changed        only those without a build or whose inputs changed since
 *                                           their last build (what `pnpm start` and the e2e run use)
 *   --jobs N (or env BUILD_JOBS)            builds at once (default DEFAULT_JOBS below)
 * Each build is a webpack process of its own (production builds use no persistent webpack cache: see
 * build/createWebpackConfig.mjs for why); --changed is what keeps a second start from rebuilding
 * anything unchanged. Each one's time is printed, and the wall-clock total.
 * BUILD_BANNER and OUTPUT_DIR pass through to webpack (see build/createWebpackConfig.mjs).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEPLOYMENTS = ['shell', 'storefront', 'account', 'partner', 'organiser', 'certificate'];

/**
 * Builds at once. A production build keeps about one core busy (webpack's main thread, plus one
 * terser worker on a 2-core machine), so two at a time fill the two cores; more only add memory
 * (0.5-0.9 GiB per build) and switching. Measured so far only on a machine saturated by other work,
 * where two at a time took as long as one after another (docs/performance.md): re-measure on an
 * idle machine with --jobs 1, 2 and 6.
 */
export const DEFAULT_JOBS = 2;

/**
 * Environment that changes a build's output. (PORT_OFFSET is left out on purpose: it only moves the
 * API address a remote's standalone harness defaults to, and counting it would rebuild everything
 * whenever the end-to-end copy on other ports starts.)
 */
const ENV_IN_BUILD = ['BUILD_BANNER', 'API_BASE_URL', 'SOURCE_MAPS', 'WEBPACK_CACHE', 'JS_MINIFIER'];
// (bundle-budget.json is read by the check, not by a build.)
const NOT_INPUTS = new Set(['node_modules', 'dist', '.data', 'coverage', 'bundle-budget.json']);

export function packageDirOf(name) {
  return path.join(REPO_ROOT, name === 'shell' ? 'shell' : `mfe-${name}`);
}

export function isBuilt(name) {
  return fs.existsSync(path.join(packageDirOf(name), 'dist', 'mf-manifest.json'));
}

function stampFileOf(name) {
  return path.join(packageDirOf(name), 'node_modules', '.cache', 'finishline-build-inputs.json');
}

function hashFolder(hash, folder) {
  if (!fs.existsSync(folder)) return;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (NOT_INPUTS.has(entry.name)) continue;
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) hashFolder(hash, full);
    else if (entry.isFile())
      hash
        .update(`${path.relative(REPO_ROOT, full)}\0`)
        .update(fs.readFileSync(full))
        .update('\0');
  }
}

/**
 * A fingerprint of everything one deployment's build reads from the repository: its package, shared,
 * the webpack config factory, the lockfile and the environment that reaches the bundle.
 */
export function inputsFingerprint(name) {
  const hash = createHash('sha256');
  for (const folder of [packageDirOf(name), path.join(REPO_ROOT, 'shared'), path.join(REPO_ROOT, 'build')]) hashFolder(hash, folder);
  for (const file of ['pnpm-lock.yaml', 'tsconfig.base.json']) {
    const full = path.join(REPO_ROOT, file);
    if (fs.existsSync(full)) hash.update(fs.readFileSync(full));
  }
  hash.update(ENV_IN_BUILD.map((key) => `${key}=${process.env[key] ?? ''}`).join('\n'));
  return hash.digest('hex');
}

/** True when dist/ holds a build of exactly the current inputs. */
export function isUpToDate(name) {
  if (!isBuilt(name)) return false;
  try {
    return JSON.parse(fs.readFileSync(stampFileOf(name), 'utf8')).inputs === inputsFingerprint(name);
  } catch {
    return false;
  }
}

function webpackArgs() {
  return [path.join(REPO_ROOT, 'node_modules', 'webpack-cli', 'bin', 'cli.js'), '--mode', 'production'];
}

function recordInputs(name, inputs, env) {
  // Only a build into dist/ is what --changed compares against (OUTPUT_DIR builds are releases).
  if (env.OUTPUT_DIR ?? process.env.OUTPUT_DIR) return;
  fs.mkdirSync(path.dirname(stampFileOf(name)), { recursive: true });
  fs.writeFileSync(stampFileOf(name), `${JSON.stringify({ inputs, time: new Date().toISOString() })}\n`);
}

/** Builds one deployment; returns seconds taken. Throws when webpack fails. */
export function buildOne(name, env = {}) {
  const inputs = inputsFingerprint(name);
  const started = performance.now();
  const result = spawnSync(process.execPath, webpackArgs(), {
    cwd: packageDirOf(name),
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) throw new Error(`Build of ${name} failed (exit ${result.status}).`);
  recordInputs(name, inputs, env);
  return (performance.now() - started) / 1000;
}

/** Builds one deployment in a child process whose lines are prefixed with its name; resolves to seconds. */
const running = new Set();

function buildInBackground(name, env = {}) {
  const inputs = inputsFingerprint(name);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, webpackArgs(), {
      cwd: packageDirOf(name),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    running.add(child);
    child.once('exit', () => running.delete(child));
    for (const [stream, target] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let pending = '';
      stream.on('data', (chunk) => {
        pending += chunk.toString();
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) target.write(`[build ${name}] ${line}\n`);
      });
      stream.on('end', () => pending && target.write(`[build ${name}] ${pending}\n`));
    }
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`Build of ${name} failed (exit ${code}).`));
      recordInputs(name, inputs, env);
      resolve((performance.now() - started) / 1000);
    });
  });
}

export function jobsFrom(args = process.argv.slice(2), env = process.env) {
  const index = args.indexOf('--jobs');
  const raw = index >= 0 ? args[index + 1] : env.BUILD_JOBS;
  if (raw === undefined || raw === '') return DEFAULT_JOBS;
  const jobs = Number.parseInt(raw, 10);
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs / BUILD_JOBS must be a whole number of at least 1, got "${raw}"`);
  return jobs;
}

/**
 * Builds the named deployments, `jobs` at a time; resolves to [name, seconds] in the order given and
 * the wall-clock seconds. The first failure stops the queue (builds already running finish).
 */
export async function buildAll(names, { jobs = DEFAULT_JOBS, env = {}, log = console.log } = {}) {
  const started = performance.now();
  const queue = [...names];
  const times = new Map();
  let failure = null;
  async function worker() {
    while (queue.length && !failure) {
      const name = queue.shift();
      log(`=== building ${name} ===`);
      try {
        times.set(name, await buildInBackground(name, env));
        log(`=== built ${name} in ${times.get(name).toFixed(1)} s ===`);
      } catch (error) {
        failure ??= error;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(jobs, names.length) }, worker));
  if (failure) throw failure;
  return { times: names.map((name) => [name, times.get(name)]), wallSeconds: (performance.now() - started) / 1000 };
}

/** Which of `names` a run with these flags builds. */
export function targetsOf(names, { onlyMissing = false, onlyChanged = false } = {}) {
  if (onlyChanged) return names.filter((name) => !isUpToDate(name));
  if (onlyMissing) return names.filter((name) => !isBuilt(name));
  return names;
}

async function main() {
  const args = process.argv.slice(2);
  const jobs = jobsFrom(args);
  const named = args.filter((arg, index) => !arg.startsWith('--') && args[index - 1] !== '--jobs');
  const unknown = named.filter((name) => !DEPLOYMENTS.includes(name));
  if (unknown.length) {
    console.error(`Unknown deployment(s): ${unknown.join(', ')}. Choose from: ${DEPLOYMENTS.join(', ')}`);
    process.exit(2);
  }
  const targets = targetsOf(named.length ? named : DEPLOYMENTS, { onlyMissing: args.includes('--missing'), onlyChanged: args.includes('--changed') });
  if (targets.length === 0) {
    console.log(args.includes('--changed') ? 'Every build is up to date.' : 'Everything is built.');
    return;
  }
  console.log(`Building ${targets.join(', ')} (${Math.min(jobs, targets.length)} at a time)`);
  const { times, wallSeconds } = await buildAll(targets, { jobs });
  console.log('\nBuild times:');
  for (const [name, seconds] of times) console.log(`  ${name.padEnd(12)} ${seconds.toFixed(1)} s`);
  console.log(`  ${'wall clock'.padEnd(12)} ${wallSeconds.toFixed(1)} s (${Math.min(jobs, targets.length)} at a time)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Stopped (Ctrl-C, or pnpm start shutting down): the webpack processes stop too.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      for (const child of running) child.kill('SIGTERM');
      process.exit(1);
    });
  }
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
