import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { freePort } from './free-port.mjs';
import { describeReleases, readRecord, release, rollback } from './releases.mjs';

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
