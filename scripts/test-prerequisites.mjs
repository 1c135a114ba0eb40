#!/usr/bin/env node
/**
 * The first step of `pnpm test`: within seconds, checks what the whole run needs and installs what it
 * can, so a fresh machine does not spend a quarter of an hour in Jest and then fail at the journeys.
 *
 * - Node: the version package.json's engines asks for (nothing to install: it runs us).
 * - Packages: `pnpm install --frozen-lockfile` when node_modules is missing.
 * - Chromium (the journeys drive it; Playwright cannot download its own browsers here): at
 *   CHROMIUM_PATH or /usr/bin/chromium; when missing it is installed from Debian's packages if this
 *   runs as root (or with password-less sudo), otherwise the run stops at once naming the command.
 *   PREREQUISITES_INSTALL=0 never installs: it only names what is missing.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
export const APT_INSTALL = 'apt-get install -y chromium';

/**
 * What to do, from the facts of this machine: a list of steps to run (each a command with a reason),
 * or a message to stop with.
 * @param {{ nodeVersion: string, wantedNode: string, hasModules: boolean, chromiumPath: string, hasChromium: boolean,
 *   isRoot: boolean, hasApt: boolean, hasSudo: boolean, mayInstall: boolean }} facts
 * @returns {{ steps: Array<{ why: string, command: string[] }>, stop: string | null }}
 */
export function planPrerequisites(facts) {
  const steps = [];
  const missing = [];
  if (compareVersions(facts.nodeVersion, facts.wantedNode) < 0) {
    return {
      steps: [],
      stop: `Node ${facts.wantedNode} or newer is needed; this is Node ${facts.nodeVersion}. Install a newer Node, then run pnpm test again.`,
    };
  }
  if (!facts.hasModules) {
    if (facts.mayInstall) steps.push({ why: 'the packages are not installed', command: ['pnpm', 'install', '--frozen-lockfile'] });
    else missing.push('the packages: run pnpm install --frozen-lockfile');
  }
  if (!facts.hasChromium) {
    const where = facts.chromiumPath === DEFAULT_CHROMIUM ? DEFAULT_CHROMIUM : `${facts.chromiumPath} (CHROMIUM_PATH)`;
    const canInstall = facts.mayInstall && facts.hasApt && facts.chromiumPath === DEFAULT_CHROMIUM && (facts.isRoot || facts.hasSudo);
    if (canInstall) {
      const sudo = facts.isRoot ? [] : ['sudo', '-n'];
      steps.push({ why: `Chromium is missing at ${where} (the journeys drive it)`, command: [...sudo, 'apt-get', 'update', '-qq'] });
      steps.push({ why: "installing Chromium from Debian's packages", command: [...sudo, 'apt-get', 'install', '-y', '-qq', 'chromium'] });
    } else {
      const how =
        facts.chromiumPath === DEFAULT_CHROMIUM ? `sudo ${APT_INSTALL}` : `install Chromium there, or unset CHROMIUM_PATH and run sudo ${APT_INSTALL}`;
      missing.push(`Chromium at ${where}, which the journeys drive (Playwright cannot download its own browsers here): ${how}`);
    }
  }
  if (missing.length > 0) return { steps: [], stop: `pnpm test cannot run yet. Missing: ${missing.join('; ')}. Then run pnpm test again.` };
  return { steps, stop: null };
}

/** -1, 0 or 1 for two versions like 20.9 and v22.1.0. */
export function compareVersions(a, b) {
  const parts = (v) =>
    v
      .replace(/^v/, '')
      .split('.')
      .map((n) => Number.parseInt(n, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0) ? -1 : 1;
  }
  return 0;
}

function commandExists(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

export function machineFacts(env = process.env) {
  const chromiumPath = env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  let hasChromium;
  try {
    fs.accessSync(chromiumPath, fs.constants.X_OK);
    hasChromium = true;
  } catch {
    hasChromium = false;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return {
    nodeVersion: process.versions.node,
    wantedNode: String(pkg.engines?.node ?? '0').replace(/^[^\d]*/, ''),
    hasModules: fs.existsSync(path.join(REPO_ROOT, 'node_modules', '.modules.yaml')),
    chromiumPath,
    hasChromium,
    isRoot,
    hasApt: commandExists('apt-get'),
    hasSudo: !isRoot && commandExists('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0,
    mayInstall: env.PREREQUISITES_INSTALL !== '0',
  };
}

function main() {
  const plan = planPrerequisites(machineFacts());
  if (plan.stop) {
    console.error(`[prerequisites] ${plan.stop}`);
    process.exit(1);
  }
  for (const step of plan.steps) {
    console.log(`[prerequisites] ${step.why}: ${step.command.join(' ')}`);
    const result = spawnSync(step.command[0], step.command.slice(1), {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.status !== 0) {
      console.error(`[prerequisites] "${step.command.join(' ')}" failed (exit ${result.status}). Run it yourself, then pnpm test again.`);
      process.exit(1);
    }
  }
  if (!machineFacts().hasChromium) {
    console.error(`[prerequisites] Chromium is still missing after installing it. Install it with: sudo ${APT_INSTALL}, then run pnpm test again.`);
    process.exit(1);
  }
  console.log('[prerequisites] Node, packages and Chromium are in place.');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
