#!/usr/bin/env node
/**
 * One command for the whole system: `pnpm start`.
 * Starts the API (which migrates and seeds its database on first run) and the payment sandbox when
 * present, and meanwhile builds every deployment that is missing or whose sources changed
 * (scripts/build.mjs --changed, two at a time); then the five remotes, each on its own port as its
 * own deployment, and last the shell, once the API answers, so the shop never answers before the
 * API does. Ctrl-C stops everything.
 * The API's log goes to DATA_DIR/logs/api.log; only its warnings and errors (and lines that are not
 * its JSON log) reach the terminal, so the request log does not bury the ready banner.
 *
 * Env: PORT_OFFSET (shift every port), DATA_DIR (default .data), FRESH=1 (wipe DATA_DIR first),
 *      RUNTIME_CONFIG_FILE (serve this file as the shell's runtime-config.json instead of the
 *      generated one), DEPLOY_DIR (copy each dist/ there at start and serve the copies, like a
 *      deployment: later rebuilds in the work tree do not change what is being served).
 * The six deployments are served from this process (scripts/static-site.mjs), each on its own port.
 * Writes DATA_DIR/runtime-config.json and DATA_DIR/processes.json (each deployment's folder and the
 * scripts/serve-static.mjs arguments that serve it alone, and a loopback control address that stops
 * one deployment, so a single remote can be stopped and redeployed alone).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { portsFor, portOffset, REMOTE_NAMES } from '../build/ports.mjs';
import { readRecord, releasePaths, runtimeReleases } from './releases.mjs';
import { createStaticSite } from './static-site.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const offset = portOffset();
const ports = portsFor(offset);
const dataDir = path.resolve(REPO_ROOT, process.env.DATA_DIR || '.data');
const apiUrl = `http://localhost:${ports.api}`;
const shellUrl = `http://localhost:${ports.shell}`;
const sandboxEntry = path.join(REPO_ROOT, 'api', 'src', 'payment-sandbox', 'main.ts');
// The API and the payment sandbox run their TypeScript through tsx's loader in their own process (the
// tsx command would add a second, waiting process of its own, some 45 MB each).
const tsxLoader = pathToFileURL(path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const { releasesDir } = releasePaths({ ...process.env, DATA_DIR: dataDir });

export const DEMO_ACCOUNTS = ['runner@finishline.test', 'organiser@finishline.test', 'partner@finishline.test'];
export const DEMO_PASSWORD = 'Finish@2026';

const children = new Map(); // name -> ChildProcess
let stopping = false;

function log(message) {
  console.log(`[start] ${message}`);
}

/** Prefixes each line a child prints with its name; with a log file, every line goes there and only `shown` ones to `target`. */
function pipeWithPrefix(stream, name, target, { logFile = null, shown = () => true } = {}) {
  let pending = '';
  stream.on('data', (chunk) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      logFile?.write(`${line}\n`);
      if (shown(line)) target.write(`[${name}] ${line}\n`);
    }
  });
}

/** A line of the API's JSON log below warning level (requests, start-up notes): kept in the log file only. */
export function isQuietLogLine(line) {
  if (!line.startsWith('{')) return false;
  try {
    const { level } = JSON.parse(line);
    return typeof level === 'number' && level < 40;
  } catch {
    return false;
  }
}

function startChild(name, args, options = {}) {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logFile = options.logFile ? fs.createWriteStream(options.logFile, { flags: 'a' }) : null;
  const shown = logFile ? (line) => !isQuietLogLine(line) : undefined;
  pipeWithPrefix(child.stdout, name, process.stdout, { logFile, shown });
  pipeWithPrefix(child.stderr, name, process.stderr, { logFile, shown });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (stopping || (options.oneShot && code === 0)) return;
    log(`${name} stopped (${signal ?? `exit ${code}`}).`);
    // Without the API nothing works; a static server may be stopped on purpose (redeploying one remote).
    if (options.essential) shutdown(1);
  });
  return child;
}

/** Polls url until it answers (any status under 500 with anyStatus; with until, an answer whose JSON body until accepts). */
async function waitFor(url, label, timeoutMs, { anyStatus = false, until = null } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (stopping) return;
    try {
      const response = await fetch(url);
      if (until ? response.ok && until(await response.json()) : response.ok || (anyStatus && response.status < 500)) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${label} did not answer at ${url} within ${Math.round(timeoutMs / 1000)} s`);
}

function portInUse(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  log('stopping everything...');
  for (const child of children.values()) child.kill('SIGTERM');
  const force = setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
    process.exit(code);
  }, 8000);
  force.unref();
  const check = setInterval(() => {
    if (children.size === 0) {
      clearInterval(check);
      process.exit(code);
    }
  }, 100);
}

/** A remote's manifest: its live release (scripts/releases.mjs) if it has one, else the build it started with. */
function manifestUrlOf(name) {
  const live = readRecord(releasesDir).remotes[name];
  const entry = live?.history.find((release) => release.version === live.live);
  return entry?.manifestUrl ?? `http://localhost:${ports[name]}/mf-manifest.json`;
}

function runtimeConfig() {
  return {
    apiBaseUrl: apiUrl,
    remotes: Object.fromEntries(REMOTE_NAMES.map((name) => [name, manifestUrlOf(name)])),
    releases: runtimeReleases(readRecord(releasesDir)),
    eventsSiteUrl: process.env.EVENTS_SITE_URL || 'https://www.indiarunning.com/',
    supportEmail: process.env.SUPPORT_EMAIL || 'support@finishline.example',
    whatsappNumber: process.env.WHATSAPP_NUMBER || '+919800000000',
    googleClientId: process.env.GOOGLE_CLIENT_ID || null,
    // The spec's date (2025-01-19) is past; the demo announces the upcoming Mumbai marathon (17 Jan 2027).
    preorderPopupUntil: process.env.PREORDER_POPUP_UNTIL || '2027-01-17',
    preorderPopupEventId: process.env.PREORDER_POPUP_EVENT_ID ? Number(process.env.PREORDER_POPUP_EVENT_ID) : null,
  };
}

function distOf(name) {
  return path.join(REPO_ROOT, name === 'shell' ? 'shell' : `mfe-${name}`, 'dist');
}

/** The folder a deployment is served from: its dist/, or a copy of it under DEPLOY_DIR. */
function deployedDir(name) {
  if (!process.env.DEPLOY_DIR) return distOf(name);
  const target = path.join(path.resolve(process.env.DEPLOY_DIR), name);
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(distOf(name), target, { recursive: true });
  return target;
}

/**
 * How one deployment is served: the options of scripts/static-site.mjs, and the same as arguments of
 * scripts/serve-static.mjs (recorded, so a test can serve a deployment again as a process of its own).
 * Each remote also serves its releases (pnpm release) at /releases/<version>/, and builds its
 * Content-Security-Policy from the shell's runtime config (its own page talks to the same API).
 */
function staticSiteOptions(name, dir, configFile) {
  return name === 'shell'
    ? { dir, name, spa: true, runtimeConfigFile: configFile }
    : { dir, name, cors: true, releases: path.join(releasesDir, name), policyConfigFile: configFile };
}

function serveStaticArgs(options, port) {
  const args = ['--dir', options.dir, '--port', String(port), '--name', options.name];
  return options.spa
    ? [...args, '--spa', '--runtime-config', options.runtimeConfigFile]
    : [...args, '--cors', '--releases', options.releases, '--policy-config', options.policyConfigFile];
}

/**
 * A loopback-only address at which one served deployment can be stopped alone
 * (POST /deployments/<name>/stop), as stopping its process did when each had its own: the
 * end-to-end journeys redeploy one remote while the others keep serving.
 */
function startControl(sites) {
  const server = http.createServer(async (request, response) => {
    const name = /^\/deployments\/([a-z]+)\/stop$/.exec(request.url ?? '')?.[1];
    if (request.method !== 'POST' || !name || (name !== 'shell' && !REMOTE_NAMES.includes(name))) {
      response.writeHead(404).end();
      return;
    }
    // Stopping one that is already stopped is done, as killing a process that has ended was.
    const site = sites.get(name);
    if (site) {
      sites.delete(name);
      await site.close();
      log(`${name} stopped (asked on the control address)`);
    }
    response.writeHead(200).end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));
}

async function main() {
  if (process.env.FRESH === '1' && fs.existsSync(dataDir)) {
    log(`FRESH=1: wiping ${dataDir}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  fs.mkdirSync(dataDir, { recursive: true });

  // Another copy on the same ports would answer our health checks and hide our own failures.
  const needed = { shell: ports.shell, api: ports.api, ...Object.fromEntries(REMOTE_NAMES.map((name) => [name, ports[name]])) };
  if (fs.existsSync(sandboxEntry)) needed.paymentSandbox = ports.paymentSandbox;
  const busy = [];
  for (const [name, port] of Object.entries(needed)) if (await portInUse(port)) busy.push(`${name} ${port}`);
  if (busy.length) throw new Error(`Ports already in use: ${busy.join(', ')}. Stop the other copy or choose another PORT_OFFSET.`);

  const configFile = process.env.RUNTIME_CONFIG_FILE ? path.resolve(process.env.RUNTIME_CONFIG_FILE) : path.join(dataDir, 'runtime-config.json');
  if (!process.env.RUNTIME_CONFIG_FILE) fs.writeFileSync(configFile, `${JSON.stringify(runtimeConfig(), null, 2)}\n`);

  const seedGate = path.join(dataDir, 'seed-gate');
  fs.rmSync(seedGate, { force: true });
  const browserOrigins = ['shell', ...REMOTE_NAMES].flatMap((name) => [`http://localhost:${ports[name]}`, `http://127.0.0.1:${ports[name]}`]);
  const sandboxUrl = `http://localhost:${ports.paymentSandbox}`;
  const serverEnv = {
    API_PORT: String(ports.api),
    DATA_DIR: dataDir,
    SHELL_URL: shellUrl,
    PUBLIC_API_URL: apiUrl,
    CORS_ORIGINS: process.env.CORS_ORIGINS || browserOrigins.join(','),
    PAYMENT_SANDBOX_PORT: String(ports.paymentSandbox),
    PAYMENT_SANDBOX_URL: sandboxUrl,
    // The API listens at once and seeds a fresh demo once the builds are done (the file below), so the
    // builds have the cores first and the shop answers sooner; the demo fills in behind it.
    SEED_GATE_FILE: seedGate,
    // glibc gives every thread that allocates its own arena; libvips' and the OCR engines' threads
    // then keep hundreds of MB they no longer use. Two arenas hold the API's memory flat.
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX || '2',
  };

  // The API first: it migrates a fresh database while the builds run, and seeds its demo after them.
  const logsDir = path.join(dataDir, 'logs');
  fs.mkdirSync(logsDir, { recursive: true });
  const apiLog = path.join(logsDir, 'api.log');
  startChild('api', ['--import', tsxLoader, 'src/main.ts'], { cwd: path.join(REPO_ROOT, 'api'), env: serverEnv, essential: true, logFile: apiLog });
  if (fs.existsSync(sandboxEntry)) {
    startChild('payment-sandbox', ['--import', tsxLoader, 'src/payment-sandbox/main.ts'], {
      cwd: path.join(REPO_ROOT, 'api'),
      env: serverEnv,
      essential: true,
    });
  }
  const apiReady = waitFor(`${apiUrl}/health`, 'API', 900_000);
  apiReady.catch(() => undefined); // awaited below, after the builds

  // Builds whatever changed since its last build (nothing, on a second start), while the API starts.
  const build = startChild('build', [path.join(REPO_ROOT, 'scripts', 'build.mjs'), '--changed'], { oneShot: true });
  const buildStatus = await new Promise((resolve) => build.once('exit', (code) => resolve(code)));
  if (stopping) return;
  if (buildStatus !== 0) throw new Error('Build failed.');
  fs.writeFileSync(seedGate, `${new Date().toISOString()}\n`);

  // The six deployments are served from this process, each on its own port as its own site: one
  // Node process instead of six (each held some 45 MB resident for one small server).
  const sites = new Map();
  const control = await startControl(sites);
  const processes = { startedAt: new Date().toISOString(), pid: process.pid, control, dataDir, ports, configFile, deployments: {} };
  const serve = async (name) => {
    const dir = deployedDir(name);
    const options = staticSiteOptions(name, dir, configFile);
    const site = createStaticSite(options);
    await site.listen(ports[name]);
    sites.set(name, site);
    processes.deployments[name] = {
      pid: process.pid,
      hosted: true,
      since: new Date().toISOString(),
      port: ports[name],
      dir,
      args: serveStaticArgs(options, ports[name]),
    };
    fs.writeFileSync(path.join(dataDir, 'processes.json'), `${JSON.stringify(processes, null, 2)}\n`);
  };
  for (const name of REMOTE_NAMES) await serve(name);
  await Promise.all([
    ...REMOTE_NAMES.map((name) => waitFor(`http://localhost:${ports[name]}/mf-manifest.json`, name, 30_000)),
    ...(fs.existsSync(sandboxEntry) ? [waitFor(sandboxUrl, 'payment sandbox', 60_000, { anyStatus: true }).catch((e) => log(String(e)))] : []),
  ]);
  if (stopping) return;
  // The shop's own address answers last: a visitor who gets the page also gets an API that answers.
  const shownLog = apiLog.startsWith(process.cwd() + path.sep) ? path.relative(process.cwd(), apiLog) : apiLog;
  log(`waiting for the API (its log: ${shownLog})`);
  await apiReady;
  if (stopping) return;
  await serve('shell');
  await waitFor(`${shellUrl}/runtime-config.json`, 'shell', 30_000);
  if (stopping) return;
  // A fresh data folder's demo (some 800 photos to render) is still being seeded: the shop answers
  // meanwhile, and its events and photos appear once the seed is done.
  const health = await fetch(`${apiUrl}/health`)
    .then((response) => response.json())
    .catch(() => null);
  if (health?.result?.demo === 'seeding') {
    log(`the shop answers at ${shellUrl}; the demo's events and photos are being made and appear in a minute or two`);
    await waitFor(`${apiUrl}/health`, 'the demo seed', 900_000, { until: (body) => body?.result?.demo !== 'seeding' });
    if (stopping) return;
  }

  console.log(`
  Finishline is running.

    Shop:         ${shellUrl}
    API:          ${apiUrl}
    Remotes:      ${REMOTE_NAMES.map((name) => `${name} :${ports[name]}`).join(', ')}
    Data:         ${dataDir}
    API log:      ${apiLog} (warnings and errors are also shown here)

  Demo accounts (password ${DEMO_PASSWORD}):
    ${DEMO_ACCOUNTS.join('\n    ')}

  Ctrl-C stops everything.
`);
  log('ready');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.on('SIGINT', () => shutdown(0));
  process.on('SIGTERM', () => shutdown(0));
  main().catch((error) => {
    console.error(`[start] ${error instanceof Error ? error.message : error}`);
    shutdown(1);
  });
}
