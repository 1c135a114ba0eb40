#!/usr/bin/env node
/**
 * Starts one static deployment inside the static image (deploy/static.Dockerfile):
 *   DEPLOYMENT=shell|storefront|account|partner|organiser|certificate node scripts/static-container.mjs
 * Every static container shares one volume, STATIC_DIR (default /srv/static), laid out as:
 *   runtime-config.json          which release of each remote is live (the shell serves it, no-store)
 *   shell/                       the shell's files; each start adds its build's files beside the old ones
 *   releases/<remote>/v<N>/      one folder per release of a remote, written once (scripts/releases.mjs)
 *   releases/releases.json       the record `pnpm releases` prints
 * A remote whose build in the image is not one of its releases yet is released from it (a new v<N>,
 * made live); a restart of the same image releases nothing and leaves a rollback in place. Earlier releases and the shell's older
 * hashed files stay, so a page loaded before a redeploy still finds its chunks; roll back with
 *   docker compose exec <remote> node scripts/releases.mjs rollback <remote> [v<N>]
 * Env: PORT (default the deployment's usual port), RELEASE_BASE_URL (a remote's public origin, which
 * its release's manifest address starts with), API_PUBLIC_URL (the shell writes it into the runtime
 * config), KEEP_OLD_CHUNKS_DAYS (the shell's hashed files no longer in its build are removed this
 * long after; default 7, as for a build's own folder), BUILD_DIR (the build to serve; default the image's <folder>/dist).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE_PORTS, REMOTE_NAMES } from '../build/ports.mjs';
import { isContentHashed } from '../build/static-caching.mjs';
import { readRecord, release } from './releases.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LOCK_STALE_MS = 60_000;

/** Where everything lives, from the environment. */
export function containerPaths(env = process.env) {
  const staticDir = path.resolve(env.STATIC_DIR || '/srv/static');
  return { staticDir, releasesDir: path.join(staticDir, 'releases'), configFile: path.join(staticDir, 'runtime-config.json') };
}

/**
 * Runs fn while holding a lock folder in dir: the containers start together and each rewrites the
 * shared runtime-config.json and releases.json, which must not interleave.
 */
export async function withLock(dir, fn) {
  const lock = path.join(dir, '.lock');
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      // Left by a container killed while holding it.
      const age = Date.now() - fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (age > LOCK_STALE_MS) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

function writeJson(file, value) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  fs.renameSync(temporary, file);
}

function readConfig(configFile) {
  return fs.existsSync(configFile) ? JSON.parse(fs.readFileSync(configFile, 'utf8')) : { remotes: {} };
}

const sameFile = (a, b) => fs.existsSync(a) && fs.existsSync(b) && fs.readFileSync(a).equals(fs.readFileSync(b));

/**
 * Releases the remote's build (a new v<N>, made live) unless one of its releases already is that
 * build (the same mf-manifest.json, which names every chunk by its content hash): a restart then
 * changes nothing, and a rollback made meanwhile stands. Returns the version holding the build.
 */
export async function releaseRemoteBuild(remote, buildDir, env = process.env, defaultOrigin = null) {
  const { staticDir, releasesDir, configFile } = containerPaths(env);
  fs.mkdirSync(releasesDir, { recursive: true });
  return withLock(staticDir, () => {
    const history = readRecord(releasesDir).remotes[remote]?.history ?? [];
    const manifest = path.join(buildDir, 'mf-manifest.json');
    const known = history.find((entry) => entry.version !== 'initial' && sameFile(path.join(releasesDir, remote, entry.version, 'mf-manifest.json'), manifest));
    if (known) return known.version;
    const config = readConfig(configFile);
    if (!fs.existsSync(configFile)) writeJson(configFile, config);
    const baseUrl = env.RELEASE_BASE_URL || (config.remotes?.[remote] ? null : defaultOrigin);
    return release(remote, {
      from: buildDir,
      env: { RELEASES_DIR: releasesDir, RUNTIME_CONFIG_FILE: configFile, ...(baseUrl ? { RELEASE_BASE_URL: baseUrl } : {}) },
    }).version;
  });
}

/**
 * Adds the shell's build to its folder in the volume: hashed files beside the old ones, then the
 * entry files (main.js, index.html, ...) over the old ones. Hashed files no longer in any build are
 * removed once they are older than keepDays. Writes apiBaseUrl into the runtime config when given.
 */
export async function installShellBuild(buildDir, env = process.env) {
  const { staticDir, configFile } = containerPaths(env);
  const target = path.join(staticDir, 'shell');
  const keepDays = Number(env.KEEP_OLD_CHUNKS_DAYS ?? '7');
  fs.mkdirSync(target, { recursive: true });
  const files = fs.readdirSync(buildDir, { recursive: true }).filter((file) => fs.statSync(path.join(buildDir, file)).isFile());
  const copy = (file) => {
    fs.mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    fs.copyFileSync(path.join(buildDir, file), path.join(target, file));
  };
  // Hashed first: an entry file never names a chunk that is not there yet.
  files.filter(isContentHashed).forEach(copy);
  files.filter((file) => !isContentHashed(file)).forEach(copy);
  const current = new Set(files);
  const cutoff = Date.now() - keepDays * 24 * 3600 * 1000;
  for (const file of fs.readdirSync(target, { recursive: true })) {
    const full = path.join(target, file);
    if (current.has(file) || !isContentHashed(file) || !fs.statSync(full).isFile()) continue;
    if (fs.statSync(full).mtimeMs < cutoff) fs.rmSync(full);
  }
  await withLock(staticDir, () => {
    const config = readConfig(configFile);
    if (env.API_PUBLIC_URL) config.apiBaseUrl = env.API_PUBLIC_URL;
    writeJson(configFile, { ...config, remotes: config.remotes ?? {} });
  });
  return target;
}

/** The static server's arguments for the deployment, once its build is in place. */
export async function prepareDeployment(name, env = process.env) {
  if (name !== 'shell' && !REMOTE_NAMES.includes(name)) throw new Error(`DEPLOYMENT must be shell or one of ${REMOTE_NAMES.join(', ')}, got "${name}"`);
  const buildDir = path.resolve(env.BUILD_DIR || path.join(REPO_ROOT, name === 'shell' ? 'shell' : `mfe-${name}`, 'dist'));
  const { releasesDir, configFile } = containerPaths(env);
  const port = String(env.PORT || BASE_PORTS[name]);
  if (name === 'shell') {
    const dir = await installShellBuild(buildDir, env);
    return ['--dir', dir, '--port', port, '--name', 'shell', '--spa', '--runtime-config', configFile];
  }
  const version = await releaseRemoteBuild(name, buildDir, env, `http://localhost:${port}`);
  console.log(`${name}: release ${version} is live`);
  return [
    '--dir',
    path.join(releasesDir, name, version),
    '--port',
    port,
    '--name',
    name,
    '--cors',
    '--releases',
    path.join(releasesDir, name),
    '--policy-config',
    configFile,
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const args = await prepareDeployment(process.env.DEPLOYMENT ?? '');
    const server = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'serve-static.mjs'), ...args], { stdio: 'inherit' });
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
    server.on('exit', (code) => process.exit(code ?? 1));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
