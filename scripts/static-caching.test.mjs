import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { freePort } from './free-port.mjs';
import { cacheControlFor, etagMatches, etagOf, IMMUTABLE, isContentHashed, keepRecentHashedFiles, REVALIDATE } from '../build/static-caching.mjs';

const scriptsDir = path.dirname(fileURLToPath(import.meta.url));

describe('which files are cached for a year', () => {
  test.each([
    ['123.0a1b2c3d.js', true],
    ['123.0a1b2c3d.js.map', true],
    ['fonts/0123456789abcdef0123.ttf', true],
    ['3f2a9c0d1e2b3c4d5e6f.png', true],
    ['main.js', false],
    ['remoteEntry.js', false],
    ['mf-manifest.json', false],
    ['index.html', false],
    ['face-models/ssd_mobilenetv1_model.bin', false],
    ['123.0a1b2c3d.js.LICENSE.txt', false],
  ])('%s: hashed %s', (file, hashed) => {
    expect(isContentHashed(file)).toBe(hashed);
    expect(cacheControlFor(file)).toBe(hashed ? IMMUTABLE : REVALIDATE);
  });
});

describe('ETags', () => {
  test('the same bytes give the same tag, other bytes another', () => {
    expect(etagOf(Buffer.from('a'))).toBe(etagOf(Buffer.from('a')));
    expect(etagOf(Buffer.from('a'))).not.toBe(etagOf(Buffer.from('b')));
    expect(etagOf(Buffer.from('a'))).toMatch(/^"[\w-]+"$/);
  });

  test('If-None-Match compares weakly, and the gzip variant matches the file', () => {
    const tag = etagOf(Buffer.from('x'));
    expect(etagMatches(tag, tag)).toBe(true);
    expect(etagMatches(`W/${tag}`, tag)).toBe(true);
    expect(etagMatches(tag.replace(/"$/, '-gzip"'), tag)).toBe(true);
    expect(etagMatches(`"other", ${tag}`, tag)).toBe(true);
    expect(etagMatches('*', tag)).toBe(true);
    expect(etagMatches('"other"', tag)).toBe(false);
    expect(etagMatches(undefined, tag)).toBe(false);
  });
});

describe('old chunks kept by a rebuild (webpack output.clean.keep)', () => {
  const day = 24 * 3600 * 1000;
  const now = Date.UTC(2026, 10, 24);
  const ages = { '1.0a1b2c3d.js': 1, '2.0a1b2c3d.js': 9, 'main.js': 1, '1.0a1b2c3d.js.LICENSE.txt': 1 };
  const statSync = (file) => {
    const age = ages[path.basename(file)];
    if (age === undefined) throw new Error('ENOENT');
    return { mtimeMs: now - age * day };
  };
  const keep = keepRecentHashedFiles('/out', 7, { statSync, now });

  test('a hashed chunk of a build from the last days stays; older ones, entries and unknown files go', () => {
    expect(keep('1.0a1b2c3d.js')).toBe(true);
    expect(keep('1.0a1b2c3d.js.LICENSE.txt')).toBe(true);
    expect(keep('2.0a1b2c3d.js')).toBe(false);
    expect(keep('main.js')).toBe(false);
    expect(keep('3.0a1b2c3d.js')).toBe(false);
  });
});

describe('serve-static answers revalidation with 304', () => {
  let dir;
  let server;
  let base;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'static-caching-test-'));
    fs.writeFileSync(path.join(dir, 'mf-manifest.json'), '{}');
    fs.writeFileSync(path.join(dir, 'remoteEntry.js'), `/* entry */ ${'x'.repeat(4000)}`);
    fs.writeFileSync(path.join(dir, '7.0a1b2c3d.js'), '/* chunk */');
    const port = await freePort();
    server = spawn(process.execPath, [path.join(scriptsDir, 'serve-static.mjs'), '--dir', dir, '--port', String(port), '--host', '127.0.0.1', '--cors']);
    await new Promise((resolve) => server.stdout.once('data', resolve));
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(() => {
    server?.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('an entry file carries an ETag and no-cache; the same tag back gets 304 without a body', async () => {
    const first = await fetch(`${base}/remoteEntry.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    await first.text();

    const again = await fetch(`${base}/remoteEntry.js`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBeTruthy();
    expect(again.headers.get('access-control-allow-origin')).toBe('*');
    expect(again.headers.get('content-security-policy')).toBeTruthy();
  });

  test('the gzip answer has its own tag, which also revalidates', async () => {
    const zipped = await fetch(`${base}/remoteEntry.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    const etag = zipped.headers.get('etag');
    expect(etag).toMatch(/-gzip"$/);
    await zipped.text();
    expect((await fetch(`${base}/remoteEntry.js`, { headers: { 'if-none-match': etag, 'accept-encoding': 'gzip' } })).status).toBe(304);
  });

  test('a changed file gets a new tag and a full answer', async () => {
    const before = (await fetch(`${base}/mf-manifest.json`)).headers.get('etag');
    fs.writeFileSync(path.join(dir, 'mf-manifest.json'), '{"changed":true}');
    const after = await fetch(`${base}/mf-manifest.json`, { headers: { 'if-none-match': before } });
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ changed: true });
    expect(after.headers.get('etag')).not.toBe(before);
  });

  test('a content-hashed chunk is cached for a year', async () => {
    const chunk = await fetch(`${base}/7.0a1b2c3d.js`);
    expect(chunk.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(await chunk.text()).toBe('/* chunk */');
  });
});
