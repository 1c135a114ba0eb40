import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from '@jest/globals';
import { compareVersions, DEFAULT_CHROMIUM, planPrerequisites } from './test-prerequisites.mjs';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-prerequisites.mjs');
const ready = {
  nodeVersion: '20.20.2',
  wantedNode: '20.9',
  hasModules: true,
  chromiumPath: DEFAULT_CHROMIUM,
  hasChromium: true,
  isRoot: false,
  hasApt: true,
  hasSudo: false,
  mayInstall: true,
};

describe("pnpm test's first step: what a fresh machine lacks is installed or named at once", () => {
  test('a machine with everything goes straight on', () => {
    expect(planPrerequisites(ready)).toEqual({ steps: [], stop: null });
  });

  test('as root without Chromium: installs it from Debian', () => {
    const plan = planPrerequisites({ ...ready, hasChromium: false, isRoot: true });
    expect(plan.stop).toBeNull();
    expect(plan.steps.map((s) => s.command.join(' '))).toEqual(['apt-get update -qq', 'apt-get install -y -qq chromium']);
  });

  test('with password-less sudo: the same through sudo -n', () => {
    const plan = planPrerequisites({ ...ready, hasChromium: false, hasSudo: true });
    expect(plan.steps.map((s) => s.command.slice(0, 2).join(' '))).toEqual(['sudo -n', 'sudo -n']);
  });

  test('a user who cannot install is stopped with the one command to run', () => {
    const plan = planPrerequisites({ ...ready, hasChromium: false });
    expect(plan.steps).toEqual([]);
    expect(plan.stop).toContain('Chromium at /usr/bin/chromium');
    expect(plan.stop).toContain('sudo apt-get install -y chromium');
  });

  test('a CHROMIUM_PATH that does not exist is named, never papered over by an install elsewhere', () => {
    const plan = planPrerequisites({ ...ready, hasChromium: false, isRoot: true, chromiumPath: '/opt/chrome/chrome' });
    expect(plan.steps).toEqual([]);
    expect(plan.stop).toContain('/opt/chrome/chrome (CHROMIUM_PATH)');
  });

  test('packages not installed: pnpm install first; PREREQUISITES_INSTALL=0 names it instead', () => {
    expect(planPrerequisites({ ...ready, hasModules: false }).steps.map((s) => s.command.join(' '))).toEqual(['pnpm install --frozen-lockfile']);
    expect(planPrerequisites({ ...ready, hasModules: false, mayInstall: false }).stop).toContain('pnpm install --frozen-lockfile');
  });

  test('an old Node stops the run naming the version wanted', () => {
    expect(planPrerequisites({ ...ready, nodeVersion: '18.19.0' }).stop).toBe(
      'Node 20.9 or newer is needed; this is Node 18.19.0. Install a newer Node, then run pnpm test again.',
    );
    expect([compareVersions('v20.10.0', '20.9'), compareVersions('20.9', '20.9.0'), compareVersions('19.9', '20')]).toEqual([1, 0, -1]);
  });

  test('run as pnpm test runs it: a missing Chromium stops it with exit 1 and the command, an existing one lets it through', () => {
    const missing = spawnSync(process.execPath, [script], {
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium', PREREQUISITES_INSTALL: '0' },
      encoding: 'utf8',
    });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('Missing: Chromium at /nonexistent/chromium (CHROMIUM_PATH)');
    const present = spawnSync(process.execPath, [script], {
      env: { ...process.env, CHROMIUM_PATH: process.execPath, PREREQUISITES_INSTALL: '0' },
      encoding: 'utf8',
    });
    expect(present.status).toBe(0);
    expect(present.stdout).toContain('Node, packages and Chromium are in place.');
  });
});
