#!/usr/bin/env node
/**
 * Releases and rollback, one remote at a time, over folders:
 *   pnpm release <remote> [--from <built folder>]   build (or take a built folder) into
 *                                                   RELEASES_DIR/<remote>/<version>/ and make it live
 *   pnpm rollback <remote> [version]                make an earlier release live again (no rebuild)
 *   pnpm releases                                   each remote's history and what is live
 * A release folder is never written again (immutable); "live" is only the remote's manifest URL in the
 * shell's runtime-config.json, which the shell's server reads on every request and browsers never
 * cache, so a release or a rollback shows on the next page load and takes seconds.
 * Env: DATA_DIR (default .data), RELEASES_DIR (default DATA_DIR/releases), RUNTIME_CONFIG_FILE
 * (default DATA_DIR/runtime-config.json), RELEASE_BASE_URL (origin serving RELEASES_DIR/<remote>
 * at /releases; default: the origin the runtime config already names for that remote).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTE_NAMES } from '../build/ports.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where releases live and which runtime config they switch, from the environment. */
export function releasePaths(env = process.env) {
  const dataDir = path.resolve(REPO_ROOT, env.DATA_DIR || '.data');
  const releasesDir = env.RELEASES_DIR ? path.resolve(env.RELEASES_DIR) : path.join(dataDir, 'releases');
  const configFile = env.RUNTIME_CONFIG_FILE ? path.resolve(env.RUNTIME_CONFIG_FILE) : path.join(dataDir, 'runtime-config.json');
  return { releasesDir, configFile, baseUrl: env.RELEASE_BASE_URL || null };
}

const recordFile = (releasesDir) => path.join(releasesDir, 'releases.json');

export function readRecord(releasesDir) {
  const file = recordFile(releasesDir);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : { remotes: {} };
}

function writeJson(file, value) {
  // Written beside and renamed over, so a reader never sees half a file.
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  fs.renameSync(temporary, file);
}

function assertRemote(remote) {
  if (!REMOTE_NAMES.includes(remote)) throw new Error(`Unknown remote "${remote}". Choose from: ${REMOTE_NAMES.join(', ')}`);
}

function pointRuntimeConfigAt(configFile, remote, manifestUrl) {
  const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
  config.remotes = { ...(config.remotes ?? {}), [remote]: manifestUrl };
  writeJson(configFile, config);
}

function gitCommit() {
  const result = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : 'unknown';
}

/**
 * The shared run-time contract a build was made against and the range it needs from the shell, as
 * its own mf-manifest.json declares them (so a build from another checkout is recorded truly).
 */
export function sharedContractOf(buildDir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(buildDir, 'mf-manifest.json'), 'utf8'));
  const runtime = (manifest.shared ?? []).find((entry) => entry.name === '@finishline/shared/runtime');
  return { sharedVersion: runtime?.version ?? null, sharedRange: runtime?.requiredVersion ?? null };
}

function buildInto(remote, outputDir) {
  const result = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.mjs'), remote], {
    stdio: 'inherit',
    env: { ...process.env, OUTPUT_DIR: outputDir },
  });
  if (result.status !== 0) throw new Error(`Build of ${remote} failed; nothing was released.`);
}

/**
 * Releases one remote: a new immutable folder RELEASES_DIR/<remote>/v<N>/ (built now, or copied
 * from `from`), recorded with version, time, commit and shared contract, then made live.
 */
export function release(remote, { from = null, env = process.env, build = buildInto } = {}) {
  assertRemote(remote);
  const { releasesDir, configFile, baseUrl } = releasePaths(env);
  const record = readRecord(releasesDir);
  const history = (record.remotes[remote] ??= { live: null, history: [] }).history;
  const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
  const currentUrl = config.remotes?.[remote];
  // What was live before the first release (the build the system started with) stays reachable by rollback.
  if (history.length === 0 && currentUrl) history.push({ version: 'initial', time: new Date().toISOString(), manifestUrl: currentUrl });

  const version = `v${history.filter((entry) => entry.version !== 'initial').length + 1}`;
  const folder = path.join(releasesDir, remote, version);
  if (fs.existsSync(folder)) throw new Error(`${folder} exists already; a release folder is never overwritten.`);
  const staging = `${folder}.partial`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(folder), { recursive: true });
  if (from) fs.cpSync(path.resolve(from), staging, { recursive: true });
  else build(remote, staging);
  if (!fs.existsSync(path.join(staging, 'mf-manifest.json'))) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new Error(`No mf-manifest.json in the ${remote} build; nothing was released.`);
  }
  fs.renameSync(staging, folder);

  const origin = baseUrl ?? (currentUrl ? new URL(currentUrl).origin : null);
  if (!origin) throw new Error(`No address for ${remote}: set RELEASE_BASE_URL or list it in ${configFile}.`);
  const entry = { version, time: new Date().toISOString(), commit: gitCommit(), ...sharedContractOf(folder), manifestUrl: `${origin}/releases/${version}/mf-manifest.json` };
  history.push(entry);
  pointRuntimeConfigAt(configFile, remote, entry.manifestUrl);
  record.remotes[remote].live = version;
  writeJson(recordFile(releasesDir), record);
  return entry;
}

/** Makes an earlier release live again: the named one, or the one before the live one. */
export function rollback(remote, version = null, { env = process.env } = {}) {
  assertRemote(remote);
  const { releasesDir, configFile } = releasePaths(env);
  const record = readRecord(releasesDir);
  const state = record.remotes[remote];
  if (!state || state.history.length < 2) throw new Error(`${remote} has no earlier release to roll back to.`);
  const liveIndex = state.history.findIndex((entry) => entry.version === state.live);
  const target = version ? state.history.find((entry) => entry.version === version) : state.history[liveIndex - 1];
  if (!target) {
    throw new Error(version ? `${remote} has no release ${version}. Known: ${state.history.map((e) => e.version).join(', ')}` : `${remote} is at its oldest release.`);
  }
  pointRuntimeConfigAt(configFile, remote, target.manifestUrl);
  state.live = target.version;
  writeJson(recordFile(releasesDir), record);
  return target;
}

/** One line per release of every remote, the live one marked. */
export function describeReleases({ env = process.env } = {}) {
  const { remotes } = readRecord(releasePaths(env).releasesDir);
  const lines = [];
  for (const remote of REMOTE_NAMES) {
    const state = remotes[remote];
    if (!state) {
      lines.push(`${remote}: no releases (serving the build it started with)`);
      continue;
    }
    lines.push(`${remote}: live ${state.live}`);
    for (const entry of state.history) {
      const details = entry.version === 'initial' ? 'the build it started with' : `commit ${entry.commit.slice(0, 10)}, shared ${entry.sharedVersion} (range ${entry.sharedRange})`;
      lines.push(`  ${entry.version === state.live ? '*' : ' '} ${entry.version.padEnd(8)} ${entry.time}  ${details}`);
    }
  }
  return lines.join('\n');
}

function main([command, remote, ...rest]) {
  const fromIndex = rest.indexOf('--from');
  if (command === 'release') {
    const entry = release(remote, { from: fromIndex >= 0 ? rest[fromIndex + 1] : null });
    console.log(`${remote} ${entry.version} is live: ${entry.manifestUrl}`);
  } else if (command === 'rollback') {
    const entry = rollback(remote, rest[0] ?? null);
    console.log(`${remote} rolled back to ${entry.version}: ${entry.manifestUrl}`);
  } else if (command === 'list') {
    console.log(describeReleases());
  } else {
    throw new Error('usage: releases.mjs release <remote> [--from <dir>] | rollback <remote> [version] | list');
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
