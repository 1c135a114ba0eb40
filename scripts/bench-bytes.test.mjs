import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { measureRoute, monolithFilesOf, ROUTES } from './bench-bytes.mjs';
import { ownerOf } from '../shell/src/app/routeTable.ts';

let dir;
const write = (folder, file, content) => {
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, file), typeof content === 'string' ? content : JSON.stringify(content));
};
const distOf = (name) => path.join(dir, name);
const monolithDir = () => path.join(dir, 'monolith');

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bytes-test-'));
  // Federated: the shell's first load and a shared singleton; the partner's entry and App.
  write(distOf('shell'), 'first-load.json', { entry: ['main.js'] });
  write(distOf('shell'), 'mf-manifest.json', { shared: [{ name: 'react', assets: { js: { sync: ['react.js'], async: [] }, css: { sync: [], async: [] } } }] });
  write(distOf('partner'), 'mf-manifest.json', {
    exposes: [{ name: 'App', path: './App', assets: { js: { sync: ['app.js'], async: ['lazy.js'] }, css: { sync: [], async: [] } } }],
  });
  for (const file of ['main.js', 'react.js']) write(distOf('shell'), file, 'x'.repeat(300));
  for (const file of ['remoteEntry.js', 'app.js', 'lazy.js']) write(distOf('partner'), file, 'y'.repeat(100));
  // Monolith: a first load, and chunk groups that share a vendor chunk with it and with each other.
  write(monolithDir(), 'first-load.json', { entry: ['main.js', 'vendor.js'] });
  write(monolithDir(), 'chunk-groups.json', { main: ['main.js'], partner: ['vendor.js', 'partner.js', 'common.js'], organiser: ['organiser.js', 'common.js'] });
  for (const file of ['main.js', 'vendor.js', 'partner.js', 'common.js', 'organiser.js']) write(monolithDir(), file, 'z'.repeat(200));
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('bytes per route', () => {
  test('each measured route is owned by the remote it is counted with (the shell route table)', () => {
    for (const route of ROUTES) expect([route.path, ownerOf(route.path)]).toEqual([route.path, route.remote]);
  });

  test("a monolith page loads its first load and its section's chunk group, each file once", () => {
    expect(monolithFilesOf(monolithDir(), 'partner')).toEqual({ monolith: ['common.js', 'main.js', 'partner.js', 'vendor.js'] });
    expect(monolithFilesOf(monolithDir(), 'organiser')).toEqual({ monolith: ['common.js', 'main.js', 'organiser.js', 'vendor.js'] });
    expect(() => monolithFilesOf(monolithDir(), 'account')).toThrow('no chunk group "account"');
  });

  test('the federated route counts shell and remote apart, and the ratio divides by the monolith', () => {
    const measured = measureRoute({ path: '/upload', remote: 'partner' }, { distOf, monolithDir: monolithDir() });
    expect(Object.keys(measured.federated.deployments)).toEqual(['shell', 'partner']);
    expect(measured.federated.total.jsRaw).toBe(2 * 300 + 2 * 100);
    expect(measured.monolith.total.jsRaw).toBe(4 * 200);
    expect(measured.ratio.jsRaw).toBe(1);
    const gzip = (n, c) => zlib.gzipSync(Buffer.from(c.repeat(n)), { level: 6 }).length;
    expect(measured.ratio.jsGzip).toBeCloseTo((2 * gzip(300, 'x') + 2 * gzip(100, 'y')) / (4 * gzip(200, 'z')));
    expect(measured.ratio.cssGzip).toBeNull();
  });
});
