import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { filesOfHome, measureHome, overBudget } from './bundle-budget.mjs';

let dir;
let dirs;

const write = (folder, file, content) => fs.writeFileSync(path.join(folder, file), typeof content === 'string' ? content : JSON.stringify(content));
const sharedEntry = (name, sync) => ({ name, assets: { js: { sync, async: [] }, css: { sync: [], async: [] } } });

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-budget-test-'));
  dirs = { shellDir: path.join(dir, 'shell'), storefrontDir: path.join(dir, 'storefront') };
  fs.mkdirSync(dirs.shellDir);
  fs.mkdirSync(dirs.storefrontDir);
  write(dirs.shellDir, 'first-load.json', { entry: ['main.js', '10.aaaaaaaa.js'] });
  write(dirs.shellDir, 'mf-manifest.json', { shared: [sharedEntry('react', ['20.bbbbbbbb.js']), sharedEntry('antd', ['10.aaaaaaaa.js'])] });
  write(dirs.storefrontDir, 'mf-manifest.json', {
    exposes: [{ name: 'App', path: './App', assets: { js: { sync: ['30.cccccccc.js'], async: ['lazy.dddddddd.js'] }, css: { sync: ['app.css'], async: [] } } }],
  });
  for (const file of ['main.js', '10.aaaaaaaa.js', '20.bbbbbbbb.js']) write(dirs.shellDir, file, `/* ${file} */ ${'x'.repeat(100)}`);
  for (const file of ['remoteEntry.js', '30.cccccccc.js', 'lazy.dddddddd.js', 'app.css']) write(dirs.storefrontDir, file, `/* ${file} */`);
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the files of / from the built deployments', () => {
  test('the shell first load and its shared singletons once each; the storefront entry and its App, not its lazy chunks', () => {
    expect(filesOfHome(dirs)).toEqual({
      shell: ['10.aaaaaaaa.js', '20.bbbbbbbb.js', 'main.js'],
      storefront: ['30.cccccccc.js', 'app.css', 'remoteEntry.js'],
    });
  });

  test('raw and gzip bytes, JS and CSS apart', () => {
    const measured = measureHome(dirs);
    expect(measured.deployments.storefront.cssRaw).toBe('/* app.css */'.length);
    expect(measured.deployments.storefront.jsRaw).toBe('/* remoteEntry.js *//* 30.cccccccc.js */'.length);
    expect(measured.total.files).toBe(6);
    expect(measured.total.jsGzip).toBeGreaterThan(0);
    expect(measured.total.jsRaw).toBe(measured.deployments.shell.jsRaw + measured.deployments.storefront.jsRaw);
  });

  test('a missing build says what to run', () => {
    fs.rmSync(path.join(dirs.shellDir, 'first-load.json'));
    expect(() => filesOfHome(dirs)).toThrow('build the deployments first');
  });
});

describe('the budget', () => {
  const measured = (jsGzip) => ({ total: { jsGzip } });
  const budget = { tolerance: 0.1, '/': { jsGzip: 1000 } };

  test('up to 10% over the recorded size passes, more fails with the figures', () => {
    expect(overBudget(measured(900), budget)).toBeNull();
    expect(overBudget(measured(1100), budget)).toBeNull();
    expect(overBudget(measured(1101), budget)).toMatch(/1101 bytes of gzip JS, 10\.1% over the budget of 1000/);
  });
});
