#!/usr/bin/env node
/**
 * Releases and rollback, one remote at a time, over folders:
 *   pnpm release <remote> [--from <built folder>]   build (or take a built folder) into
 *                                                   RELEASES_DIR/<remote>/<version>/ and make it live
 *   pnpm release <remote> --canary <percent> [--from <dir>] [--max-error-rate <n>] [--min-views <n>]
 *                                                   the same, but live for that share of visitors only
 *   pnpm release <remote> --promote                 the running canary becomes live for everyone
 *   pnpm rollback <remote> [version]                end the running canary, or make an earlier
 *                                                   release live again (no rebuild)
 *   pnpm releases                                   each remote's history, what is live, the canary
 *                                                   and its share, error rates per release
 * A canary is the remote's entry `releases.<remote>.canary` in runtime-config.json: the shell gives it
 * to `share` percent of browsers (each keeps a random bucket, so a visitor stays on one side) once it
 * has checked the canary's shared-contract range. The API's canary watch (api/src/features/releases)
 * compares the canary's errors per page view with the current release's and rolls it back by itself
 * (rollbackCanary below) past the remote's threshold; it writes the error rates `pnpm releases` shows
 * to RELEASES_DIR/error-rates.json.
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

/** A canary watch's defaults: errors per 100 page views above the current release's, and views the canary needs before it is judged. */
export const CANARY_DEFAULTS = { maxErrorRate: 5, minViews: 20 };

/** What the runtime config says of a remote's releases: its live version and its canary (RuntimeConfig.releases in shared). */
function runtimeReleaseOf(state) {
  if (!state) return null;
  const canary = state.canary ? state.history.find((entry) => entry.version === state.canary.version) : null;
  return {
    version: state.live,
    ...(canary
      ? { canary: { version: canary.version, manifestUrl: canary.manifestUrl, share: state.canary.share, sharedRange: canary.sharedRange ?? null } }
      : {}),
  };
}

/** The runtime config's `releases` for every released remote (scripts/start.mjs writes it on start). */
export function runtimeReleases(record) {
  return Object.fromEntries(Object.entries(record.remotes).map(([remote, state]) => [remote, runtimeReleaseOf(state)]));
}

/** Points the remote's entries of runtime-config.json at the record's live release and canary. */
function writeRuntimeConfig(configFile, remote, state) {
  const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
  const live = state.history.find((entry) => entry.version === state.live);
  config.remotes = { ...(config.remotes ?? {}), [remote]: live.manifestUrl };
  config.releases = { ...(config.releases ?? {}), [remote]: runtimeReleaseOf(state) };
  writeJson(configFile, config);
}

/** Adds a line to what `pnpm releases` shows of the remote (automatic rollbacks, promotions, ended canaries). */
function note(state, text) {
  (state.events ??= []).push({ time: new Date().toISOString(), text });
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
export function release(remote, { from = null, env = process.env, build = buildInto, canary = null } = {}) {
  assertRemote(remote);
  const watch = canary ? canaryWatchOf(canary) : null;
  const { releasesDir, configFile, baseUrl } = releasePaths(env);
  const record = readRecord(releasesDir);
  const state = (record.remotes[remote] ??= { live: null, history: [] });
  const history = state.history;
  if (state.canary) {
    throw new Error(
      `${remote} has a canary running (${state.canary.version} for ${state.canary.share}% of visitors): promote it (pnpm release ${remote} --promote) or end it (pnpm rollback ${remote}) first.`,
    );
  }
  const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
  const currentUrl = config.remotes?.[remote];
  // What was live before the first release (the build the system started with) stays reachable by rollback.
  if (history.length === 0 && currentUrl) history.push({ version: 'initial', time: new Date().toISOString(), manifestUrl: currentUrl });
  if (watch && !state.live && !currentUrl) throw new Error(`${remote} has nothing live for a canary to run beside; release it for everyone first.`);
  state.live ??= 'initial';

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
  const entry = {
    version,
    time: new Date().toISOString(),
    commit: gitCommit(),
    ...sharedContractOf(folder),
    manifestUrl: `${origin}/releases/${version}/mf-manifest.json`,
  };
  history.push(entry);
  if (watch) state.canary = { version, since: entry.time, ...watch };
  else state.live = version;
  writeRuntimeConfig(configFile, remote, state);
  writeJson(recordFile(releasesDir), record);
  return entry;
}

function positiveNumber(value, name) {
  const number = Number(value);
  if (value === undefined || value === null || value === '' || !Number.isFinite(number) || number < 0)
    throw new Error(`${name} must be a number of 0 or more, got "${value}".`);
  return number;
}

/** A canary's share and the thresholds its watch applies, checked. */
function canaryWatchOf({ share, maxErrorRate = CANARY_DEFAULTS.maxErrorRate, minViews = CANARY_DEFAULTS.minViews }) {
  const percent = Number(share);
  if (!Number.isInteger(percent) || percent < 1 || percent > 99) throw new Error(`--canary takes a share of visitors from 1 to 99 (percent), got "${share}".`);
  return { share: percent, maxErrorRate: positiveNumber(maxErrorRate, '--max-error-rate'), minViews: Math.round(positiveNumber(minViews, '--min-views')) };
}

/** Ends the canary; its release is never a rollback target by default (it was never live for everyone). */
function endCanary(state, text) {
  const ended = state.canary;
  state.history.find((entry) => entry.version === ended.version).canaryEnded = new Date().toISOString();
  state.canary = null;
  note(state, text);
  return ended;
}

/** The running canary becomes live for every visitor. */
export function promote(remote, { env = process.env } = {}) {
  assertRemote(remote);
  const { releasesDir, configFile } = releasePaths(env);
  const record = readRecord(releasesDir);
  const state = record.remotes[remote];
  if (!state?.canary) throw new Error(`${remote} has no canary running; nothing to promote.`);
  const entry = state.history.find((e) => e.version === state.canary.version);
  note(state, `canary ${entry.version} promoted: live for everyone (was ${state.live})`);
  state.live = entry.version;
  state.canary = null;
  writeRuntimeConfig(configFile, remote, state);
  writeJson(recordFile(releasesDir), record);
  return entry;
}

/**
 * Ends the remote's canary if it is still `version` (the API's canary watch calls this; a canary
 * released since is left alone). Returns the ended canary, or null when there was nothing to end.
 */
export function rollbackCanary(remote, version, reason, { env = process.env } = {}) {
  assertRemote(remote);
  const { releasesDir, configFile } = releasePaths(env);
  const record = readRecord(releasesDir);
  const state = record.remotes[remote];
  if (!state?.canary || state.canary.version !== version) return null;
  const ended = endCanary(state, `canary ${version} rolled back: ${reason}`);
  writeRuntimeConfig(configFile, remote, state);
  writeJson(recordFile(releasesDir), record);
  return ended;
}

/**
 * Ends a running canary (everyone gets the live release again), or makes an earlier release live
 * again: the named one, or the one before the live one. Naming a version ends a canary too.
 */
export function rollback(remote, version = null, { env = process.env } = {}) {
  assertRemote(remote);
  const { releasesDir, configFile } = releasePaths(env);
  const record = readRecord(releasesDir);
  const state = record.remotes[remote];
  if (state?.canary) {
    endCanary(state, `canary ${state.canary.version} ended by pnpm rollback`);
    if (!version) {
      writeRuntimeConfig(configFile, remote, state);
      writeJson(recordFile(releasesDir), record);
      return state.history.find((entry) => entry.version === state.live);
    }
  }
  if (!state || state.history.length < 2) throw new Error(`${remote} has no earlier release to roll back to.`);
  const liveIndex = state.history.findIndex((entry) => entry.version === state.live);
  const earlier = state.history.slice(0, Math.max(0, liveIndex)).filter((entry) => !entry.canaryEnded);
  const target = version ? state.history.find((entry) => entry.version === version) : earlier.at(-1);
  if (!target) {
    throw new Error(
      version ? `${remote} has no release ${version}. Known: ${state.history.map((e) => e.version).join(', ')}` : `${remote} is at its oldest release.`,
    );
  }
  state.live = target.version;
  writeRuntimeConfig(configFile, remote, state);
  writeJson(recordFile(releasesDir), record);
  return target;
}

/** Where the API's canary watch writes the error rates of each remote's releases. */
export const errorRatesFile = (releasesDir) => path.join(releasesDir, 'error-rates.json');

function ratesText(rates, windowMinutes) {
  if (!rates) return 'no page views reported';
  const per100 = rates.views > 0 ? ((100 * rates.errors) / rates.views).toFixed(1) : '-';
  return `${rates.errors} errors in ${rates.views} page views (${per100} per 100) in the last ${windowMinutes} min`;
}

/**
 * One line per release of every remote: the live one marked *, the canary ~ with its share, each
 * with its error rate as the API last reported it; then what happened to canaries (promoted,
 * rolled back by hand or by themselves).
 */
export function describeReleases({ env = process.env } = {}) {
  const { releasesDir } = releasePaths(env);
  const { remotes } = readRecord(releasesDir);
  const ratesFile = errorRatesFile(releasesDir);
  const errorRates = fs.existsSync(ratesFile) ? JSON.parse(fs.readFileSync(ratesFile, 'utf8')) : { remotes: {}, windowMinutes: 60 };
  const lines = [];
  for (const remote of REMOTE_NAMES) {
    const state = remotes[remote];
    if (!state) {
      lines.push(`${remote}: no releases (serving the build it started with)`);
      continue;
    }
    const canary = state.canary;
    lines.push(
      `${remote}: live ${state.live}${canary ? ` for ${100 - canary.share}% of visitors, canary ${canary.version} for ${canary.share}% (rolled back past ${canary.maxErrorRate} more errors per 100 page views than ${state.live}, after ${canary.minViews} views)` : ''}`,
    );
    for (const entry of state.history) {
      const mark = entry.version === state.live ? '*' : entry.version === canary?.version ? '~' : ' ';
      const details =
        entry.version === 'initial'
          ? 'the build it started with'
          : `commit ${entry.commit.slice(0, 10)}, shared ${entry.sharedVersion} (range ${entry.sharedRange})`;
      const rates = mark === ' ' ? '' : `; ${ratesText(errorRates.remotes?.[remote]?.[entry.version], errorRates.windowMinutes)}`;
      lines.push(`  ${mark} ${entry.version.padEnd(8)} ${entry.time}  ${details}${rates}`);
    }
    for (const event of state.events ?? []) lines.push(`    ${event.time}  ${event.text}`);
  }
  return lines.join('\n');
}

/** The value after a flag (`--canary 10`), or null when the flag is not given. */
function flag(args, name) {
  const index = args.indexOf(name);
  if (index < 0) return null;
  const value = args[index + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value.`);
  return value;
}

function main([command, remote, ...rest]) {
  if (command === 'release' && rest.includes('--promote')) {
    const entry = promote(remote);
    console.log(`${remote} ${entry.version} is live for everyone: ${entry.manifestUrl}`);
  } else if (command === 'release') {
    const share = flag(rest, '--canary');
    const canary =
      share === null ? null : { share, maxErrorRate: flag(rest, '--max-error-rate') ?? undefined, minViews: flag(rest, '--min-views') ?? undefined };
    const entry = release(remote, { from: flag(rest, '--from'), canary });
    console.log(
      canary
        ? `${remote} ${entry.version} is live for ${canary.share}% of visitors (canary): ${entry.manifestUrl}`
        : `${remote} ${entry.version} is live: ${entry.manifestUrl}`,
    );
  } else if (command === 'rollback') {
    const entry = rollback(remote, rest[0] ?? null);
    console.log(`${remote} rolled back to ${entry.version}: ${entry.manifestUrl}`);
  } else if (command === 'list') {
    console.log(describeReleases());
  } else {
    throw new Error(
      'usage: releases.mjs release <remote> [--from <dir>] [--canary <percent> [--max-error-rate <n>] [--min-views <n>]] | release <remote> --promote | rollback <remote> [version] | list',
    );
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
