#!/usr/bin/env node
/**
 * Measures what a runner's browser downloads: the JavaScript and CSS (raw and gzip) loaded for / and
 * for /products, per deployment, and optionally the build time of each deployment. (The size budget of
 * / that `pnpm test` checks is computed from the built folders, without a browser:
 * scripts/bundle-budget.mjs.)
 *   node scripts/measure-bundles.mjs              measure the current builds
 *   node scripts/measure-bundles.mjs --build      rebuild everything first (BUILD_JOBS at a time) and print build times
 *   node scripts/measure-bundles.mjs --url http://localhost:3000   measure a system already running
 * Without --url it starts the whole system (scripts/start.mjs) on PORT_OFFSET 700 (--offset) with a fresh
 * temporary data folder and stops it afterwards. Uses Chromium at CHROMIUM_PATH or /usr/bin/chromium.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { buildAll, DEPLOYMENTS, jobsFrom, REPO_ROOT } from './build.mjs';
import { portsFor } from '../build/ports.mjs';

const { values } = parseArgs({
  options: { build: { type: 'boolean', default: false }, url: { type: 'string' }, offset: { type: 'string', default: '700' } },
});
const requireFromE2e = createRequire(path.join(REPO_ROOT, 'e2e', 'package.json'));
const { chromium } = requireFromE2e('@playwright/test');

const DEMO_EVENT = 'Mumbai Coastal Marathon 2026';
const DEMO_BIB = 'TT20608';

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

async function startSystem() {
  const offset = Number(values.offset);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-measure-'));
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'start.mjs')], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT_OFFSET: String(offset), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => chunk.toString().includes('[start] ready') && resolve());
    child.once('exit', (code) => reject(new Error(`start.mjs exited (${code}) before it was ready`)));
  });
  return {
    url: `http://localhost:${portsFor(offset).shell}`,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          fs.rmSync(dataDir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Every JavaScript and CSS response of one page load: URL, kind, raw bytes and gzip bytes (level 6, as servers send it). */
function recordJs(page) {
  const files = [];
  page.on('response', async (response) => {
    const type = response.headers()['content-type'] ?? '';
    const kind = type.includes('javascript') ? 'JS' : type.includes('text/css') ? 'CSS' : null;
    if (!kind) return;
    try {
      const body = await response.body();
      files.push({ url: response.url(), kind, raw: body.length, gzip: zlib.gzipSync(body, { level: 6 }).length });
    } catch {
      // a response without a body (redirect) carries no code
    }
  });
  return files;
}

/** The deployment an address belongs to (by port), else the address's origin. */
function deploymentOf(url, baseUrl) {
  const { origin, port } = new URL(url);
  const offset = Number(new URL(baseUrl).port || 80) - portsFor(0).shell;
  const name = DEPLOYMENTS.find((deployment) => String(portsFor(offset)[deployment]) === port);
  return name ?? origin;
}

function summarise(label, files, baseUrl) {
  const byOrigin = new Map();
  for (const file of files) {
    const origin = `${deploymentOf(file.url, baseUrl)} ${file.kind}`;
    const entry = byOrigin.get(origin) ?? { count: 0, raw: 0, gzip: 0 };
    entry.count += 1;
    entry.raw += file.raw;
    entry.gzip += file.gzip;
    byOrigin.set(origin, entry);
  }
  const total = files.reduce((sum, file) => ({ raw: sum.raw + file.raw, gzip: sum.gzip + file.gzip }), { raw: 0, gzip: 0 });
  console.log(`\n${label}: ${files.length} JS and CSS files, ${kb(total.raw)} raw, ${kb(total.gzip)} gzip`);
  for (const [origin, entry] of byOrigin)
    console.log(`  ${origin.padEnd(24)} ${String(entry.count).padStart(3)} files  ${kb(entry.raw).padStart(10)} raw  ${kb(entry.gzip).padStart(9)} gzip`);
  return total;
}

async function measure(baseUrl) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    // / in a fresh browser (nothing cached).
    // A returning visitor (cookie consent given, pre-order popup seen): no dialog covers the hero.
    const returning = {
      cookies: [],
      origins: [
        {
          origin: baseUrl,
          localStorage: [
            { name: 'Cookies', value: 'true' },
            { name: 'preOrderPopupShown', value: 'true' },
          ],
        },
      ],
    };
    const homeContext = await browser.newContext({ storageState: returning });
    const home = await homeContext.newPage();
    const homeJs = recordJs(home);
    await home.goto(baseUrl, { waitUntil: 'networkidle' });
    await home.getByRole('heading', { name: 'Find your race photos' }).waitFor();

    // Search, then load /products directly in another fresh browser that holds the same stored search.
    await home.getByPlaceholder('Search your event').fill(DEMO_EVENT);
    await home
      .locator('.ant-select-item-option')
      .filter({ hasText: new RegExp(`^${DEMO_EVENT}$`) })
      .click();
    await home.getByPlaceholder('Enter your BIB number (ex: TT20608)').fill(DEMO_BIB);
    await home.getByRole('button', { name: 'Find My Photos' }).click();
    await home.waitForURL('**/products');
    const storageState = await homeContext.storageState();
    await homeContext.close();

    const productsContext = await browser.newContext({ storageState });
    const products = await productsContext.newPage();
    const productsJs = recordJs(products);
    await products.goto(`${baseUrl}/products`, { waitUntil: 'networkidle' });
    await products.getByTestId('congrats-bar').waitFor();
    await productsContext.close();

    const homeTotal = summarise('JS and CSS loaded for /', homeJs, baseUrl);
    const productsTotal = summarise('JS and CSS loaded for /products', productsJs, baseUrl);
    return { homeTotal, productsTotal };
  } finally {
    await browser.close();
  }
}

async function main() {
  if (values.build) {
    const jobs = jobsFrom([]);
    const { times, wallSeconds } = await buildAll(DEPLOYMENTS, { jobs });
    console.log(`\nBuild time per deployment (production, ${jobs} at a time):`);
    for (const [name, seconds] of times) console.log(`  ${name.padEnd(12)} ${seconds.toFixed(1)} s`);
    console.log(`  ${'wall clock'.padEnd(12)} ${wallSeconds.toFixed(1)} s`);
  }
  const system = values.url ? { url: values.url.replace(/\/$/, ''), stop: async () => {} } : await startSystem();
  try {
    const { homeTotal, productsTotal } = await measure(system.url);
    console.log(`\nSummary: / ${kb(homeTotal.gzip)} gzip JS and CSS; /products ${kb(productsTotal.gzip)} gzip JS and CSS`);
  } finally {
    await system.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
