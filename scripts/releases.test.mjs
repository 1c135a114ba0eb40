import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { freePort } from './free-port.mjs';
import { describeReleases, errorRatesFile, promote, readRecord, release, rollback, rollbackCanary } from './releases.mjs';

const scriptsDir = path.dirname(fileURLToPath(import.meta.url));
let dir;
let env;

/** A folder shaped like a remote's build output, marked so the test can tell builds apart. */
function builtFolder(marker) {
  const folder = path.join(dir, `build-${marker}`);
  fs.mkdirSync(folder, { recursive: true });
  const shared = [{ name: '@finishline/shared/runtime', version: '1.4.0', requiredVersion: '^1.4.0' }];
  fs.writeFileSync(path.join(folder, 'mf-manifest.json'), JSON.stringify({ marker, shared }));
  fs.writeFileSync(path.join(folder, 'remoteEntry.js'), `/* ${marker} */`);
  return folder;
}

const config = () => JSON.parse(fs.readFileSync(env.RUNTIME_CONFIG_FILE, 'utf8'));

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'releases-test-'));
  env = { DATA_DIR: dir, RUNTIME_CONFIG_FILE: path.join(dir, 'runtime-config.json') };
  const remotes = { storefront: 'http://localhost:3001/mf-manifest.json', account: 'http://localhost:3002/mf-manifest.json' };
  fs.writeFileSync(env.RUNTIME_CONFIG_FILE, JSON.stringify({ apiBaseUrl: 'http://localhost:4000', remotes }));
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('release and rollback of one remote', () => {
  test('a release gets its own folder, is recorded and made live; the other remotes are untouched', () => {
    const entry = release('storefront', { from: builtFolder('one'), env });
    expect(entry.version).toBe('v1');
    expect(entry.manifestUrl).toBe('http://localhost:3001/releases/v1/mf-manifest.json');
    expect(entry.commit).toMatch(/^[0-9a-f]{40}$|^unknown$/);
    // The contract is read from the build's own manifest, not from this checkout's shared.
    expect(entry).toMatchObject({ sharedVersion: '1.4.0', sharedRange: '^1.4.0' });
    expect(fs.readFileSync(path.join(dir, 'releases', 'storefront', 'v1', 'remoteEntry.js'), 'utf8')).toBe('/* one */');
    expect(config().remotes.storefront).toBe(entry.manifestUrl);
    expect(config().remotes.account).toBe('http://localhost:3002/mf-manifest.json');
    expect(config().apiBaseUrl).toBe('http://localhost:4000');
    const record = readRecord(path.join(dir, 'releases'));
    expect(record.remotes.storefront.live).toBe('v1');
    expect(record.remotes.storefront.history.map((e) => e.version)).toEqual(['initial', 'v1']);
  });

  test('rollback goes to the previous release, or a named one, without touching any folder', () => {
    release('storefront', { from: builtFolder('one'), env });
    release('storefront', { from: builtFolder('two'), env });
    expect(config().remotes.storefront).toBe('http://localhost:3001/releases/v2/mf-manifest.json');

    expect(rollback('storefront', null, { env }).version).toBe('v1');
    expect(config().remotes.storefront).toBe('http://localhost:3001/releases/v1/mf-manifest.json');
    expect(rollback('storefront', null, { env }).version).toBe('initial');
    expect(config().remotes.storefront).toBe('http://localhost:3001/mf-manifest.json');
    expect(() => rollback('storefront', null, { env })).toThrow('oldest release');

    expect(rollback('storefront', 'v2', { env }).version).toBe('v2');
    expect(fs.readFileSync(path.join(dir, 'releases', 'storefront', 'v2', 'remoteEntry.js'), 'utf8')).toBe('/* two */');
    expect(describeReleases({ env })).toMatch(/storefront: live v2[\s\S]*\* v2/);
    expect(describeReleases({ env })).toContain('account: no releases');
  });

  test('bad input says what is wrong and changes nothing', () => {
    expect(() => release('shop', { from: builtFolder('one'), env })).toThrow('Unknown remote "shop"');
    expect(() => rollback('storefront', null, { env })).toThrow('no earlier release');
    const failing = () => {
      throw new Error('Build of storefront failed; nothing was released.');
    };
    expect(() => release('storefront', { env, build: failing })).toThrow('nothing was released');
    const empty = path.join(dir, 'empty');
    fs.mkdirSync(empty);
    expect(() => release('storefront', { from: empty, env })).toThrow('No mf-manifest.json');
    expect(config().remotes.storefront).toBe('http://localhost:3001/mf-manifest.json');
    expect(fs.existsSync(path.join(dir, 'releases', 'storefront', 'v1'))).toBe(false);

    release('storefront', { from: builtFolder('one'), env });
    expect(() => rollback('storefront', 'v9', { env })).toThrow('has no release v9');
  });
});

describe('canary releases', () => {
  const url = (version) => `http://localhost:3001/releases/${version}/mf-manifest.json`;

  test('a canary is live for its share only; promote makes it live for all', () => {
    release('storefront', { from: builtFolder('one'), env });
    const entry = release('storefront', { from: builtFolder('two'), env, canary: { share: 10, maxErrorRate: 2, minViews: 30 } });
    expect(entry.version).toBe('v2');
    // Everyone else keeps v1; the shell reads the canary, its share and its contract range from the runtime config.
    expect(config().remotes.storefront).toBe(url('v1'));
    expect(config().releases.storefront).toEqual({ version: 'v1', canary: { version: 'v2', manifestUrl: url('v2'), share: 10, sharedRange: '^1.4.0' } });
    expect(readRecord(path.join(dir, 'releases')).remotes.storefront.canary).toMatchObject({ version: 'v2', share: 10, maxErrorRate: 2, minViews: 30 });
    expect(describeReleases({ env })).toContain('storefront: live v1 for 90% of visitors, canary v2 for 10%');
    expect(() => release('storefront', { from: builtFolder('three'), env, canary: { share: 20 } })).toThrow('has a canary running (v2 for 10% of visitors)');

    expect(promote('storefront', { env }).version).toBe('v2');
    expect(config().remotes.storefront).toBe(url('v2'));
    expect(config().releases.storefront).toEqual({ version: 'v2' });
    expect(describeReleases({ env })).toMatch(/canary v2 promoted: live for everyone \(was v1\)/);
    expect(() => promote('storefront', { env })).toThrow('no canary running');
  });

  test('pnpm rollback ends a canary; the ended canary is never the target of a later rollback', () => {
    release('storefront', { from: builtFolder('one'), env });
    release('storefront', { from: builtFolder('two'), env, canary: { share: 50 } });
    expect(rollback('storefront', null, { env }).version).toBe('v1');
    expect(config().releases.storefront).toEqual({ version: 'v1' });
    expect(config().remotes.storefront).toBe(url('v1'));
    release('storefront', { from: builtFolder('three'), env });
    // Back from v3 goes to v1: v2 never was live for everyone.
    expect(rollback('storefront', null, { env }).version).toBe('v1');
  });

  test("the watch's rollback ends only the canary it judged, says why, and pnpm releases shows it with the error rates", () => {
    release('storefront', { from: builtFolder('one'), env });
    release('storefront', { from: builtFolder('two'), env, canary: { share: 50 } });
    expect(rollbackCanary('storefront', 'v7', 'too many errors', { env })).toBeNull();
    expect(rollbackCanary('storefront', 'v2', '12.0 errors per 100 page views against 0.0', { env })).toMatchObject({ version: 'v2', share: 50 });
    expect(config().releases.storefront).toEqual({ version: 'v1' });
    expect(rollbackCanary('storefront', 'v2', 'again', { env })).toBeNull();
    fs.writeFileSync(
      errorRatesFile(path.join(dir, 'releases')),
      JSON.stringify({ windowMinutes: 60, remotes: { storefront: { v1: { views: 200, errors: 1 } } } }),
    );
    const listed = describeReleases({ env });
    expect(listed).toContain('canary v2 rolled back: 12.0 errors per 100 page views against 0.0');
    expect(listed).toMatch(/\* v1 .*1 errors in 200 page views \(0\.5 per 100\) in the last 60 min/);
  });

  test('a share or threshold that makes no sense is refused and nothing is released', () => {
    release('storefront', { from: builtFolder('one'), env });
    expect(() => release('storefront', { from: builtFolder('two'), env, canary: { share: 100 } })).toThrow('from 1 to 99');
    expect(() => release('storefront', { from: builtFolder('two'), env, canary: { share: 'ten' } })).toThrow('from 1 to 99');
    expect(() => release('storefront', { from: builtFolder('two'), env, canary: { share: 10, minViews: -1 } })).toThrow('--min-views must be a number');
    expect(fs.existsSync(path.join(dir, 'releases', 'storefront', 'v2'))).toBe(false);
    expect(config().releases.storefront).toEqual({ version: 'v1' });
  });
});

describe('serving releases', () => {
  test('releases are served under /releases; runtime config is never cached, hashed files for a year', async () => {
    release('storefront', { from: builtFolder('one'), env });
    const dist = builtFolder('dist');
    fs.writeFileSync(path.join(dist, 'index.html'), '<html></html>');
    fs.writeFileSync(path.join(dist, 'chunk.0123abcd.js'), '1');
    const port = await freePort();
    const server = spawn(process.execPath, [
      path.join(scriptsDir, 'serve-static.mjs'),
      ...['--dir', dist, '--port', String(port), '--host', '127.0.0.1', '--cors'],
      ...['--runtime-config', env.RUNTIME_CONFIG_FILE, '--releases', path.join(dir, 'releases', 'storefront')],
    ]);
    try {
      await new Promise((resolve) => server.stdout.once('data', resolve));
      const base = `http://127.0.0.1:${port}`;
      const entry = await fetch(`${base}/releases/v1/remoteEntry.js`);
      expect(await entry.text()).toBe('/* one */');
      expect((await fetch(`${base}/releases/v7/remoteEntry.js`)).status).toBe(404);
      expect((await fetch(`${base}/releases/..%2F..%2Fruntime-config.json`)).status).toBe(404); // no escaping the release folder
      const runtimeConfig = await fetch(`${base}/runtime-config.json`);
      expect(runtimeConfig.headers.get('cache-control')).toMatch(/no-store|no-cache/);
      expect((await runtimeConfig.json()).remotes.storefront).toBe('http://localhost:3001/releases/v1/mf-manifest.json');
      expect((await fetch(`${base}/chunk.0123abcd.js`)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    } finally {
      server.kill('SIGTERM');
    }
  });
});
