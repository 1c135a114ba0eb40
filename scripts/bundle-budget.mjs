#!/usr/bin/env node
/**
 * The size budget of `/`: the JavaScript a first visit to the shop's home page downloads, read from
 * the built deployments (no browser, no timing, so it is the same on a busy machine):
 *   shell       the files of its first load (first-load.json, written by build/firstLoadPlugin.mjs:
 *               main.js and the bootstrap chunks) and the shared singletons it provides (mf-manifest.json)
 *   storefront  remoteEntry.js and the synchronous files of its exposed App (mf-manifest.json)
 * Raw and gzip (level 6, as a static host sends them) are printed per deployment; the gzip total is
 * judged against build/bundle-budget.json and fails when more than `tolerance` (10%) over it.
 *   node scripts/bundle-budget.mjs            check (exit 1 when over budget)
 *   node scripts/bundle-budget.mjs --record   write today's figures as the budget (a deliberate growth)
 * Run after the builds: `pnpm test:budget` builds what changed first.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { FIRST_LOAD_FILE } from '../build/firstLoadPlugin.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUDGET_FILE = path.join(REPO_ROOT, 'build', 'bundle-budget.json');
const DEFAULT_TOLERANCE = 0.1;

export function readJson(file) {
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build the deployments first (node scripts/build.mjs --changed).`);
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

const syncAssetsOf = (entry) => [...(entry.assets?.js?.sync ?? []), ...(entry.assets?.css?.sync ?? [])];

/**
 * The files a page of `remote` loads per deployment, as the builds in these folders declare them:
 * the shell's first load and the shared singletons it provides, then the remote's entry and the
 * synchronous files of its exposed App (its lazy chunks only load on the pages that use them).
 */
export function filesOfRoute({ shellDir, remoteDir }, remote) {
  const shellManifest = readJson(path.join(shellDir, 'mf-manifest.json'));
  const firstLoad = readJson(path.join(shellDir, FIRST_LOAD_FILE));
  const remoteManifest = readJson(path.join(remoteDir, 'mf-manifest.json'));
  const app = (remoteManifest.exposes ?? []).find((expose) => expose.name === 'App' || expose.path === './App');
  if (!app) throw new Error(`${remoteDir}/mf-manifest.json exposes no App`);
  return {
    shell: [...new Set([...firstLoad.entry, ...(shellManifest.shared ?? []).flatMap(syncAssetsOf)])].sort(),
    [remote]: [...new Set(['remoteEntry.js', ...syncAssetsOf(app)])].sort(),
  };
}

/** The files of `/` per deployment (the storefront owns it). */
export function filesOfHome({ shellDir, storefrontDir }) {
  return filesOfRoute({ shellDir, remoteDir: storefrontDir }, 'storefront');
}

/** Raw and gzip bytes of JS and CSS per deployment and in total; `dirOf(deployment)` is the folder its files are in. */
export function measureFiles(filesByDeployment, dirOf) {
  const result = { deployments: {}, total: { files: 0, jsRaw: 0, jsGzip: 0, cssRaw: 0, cssGzip: 0 } };
  for (const [name, list] of Object.entries(filesByDeployment)) {
    const sums = { files: list.length, jsRaw: 0, jsGzip: 0, cssRaw: 0, cssGzip: 0 };
    for (const file of list) {
      const bytes = fs.readFileSync(path.join(dirOf(name), file));
      const kind = file.endsWith('.css') ? 'css' : 'js';
      sums[`${kind}Raw`] += bytes.length;
      sums[`${kind}Gzip`] += zlib.gzipSync(bytes, { level: 6 }).length;
    }
    result.deployments[name] = sums;
    for (const key of Object.keys(sums)) result.total[key] += sums[key];
  }
  return result;
}

/** Raw and gzip bytes of JS and CSS of `/` per deployment and in total. */
export function measureHome(dirs) {
  return measureFiles(filesOfHome(dirs), (name) => dirs[`${name}Dir`]);
}

/** Null when within budget, else the reason it is not. */
export function overBudget(measured, budget) {
  const tolerance = budget.tolerance ?? DEFAULT_TOLERANCE;
  const limit = Math.floor(budget['/'].jsGzip * (1 + tolerance));
  if (measured.total.jsGzip <= limit) return null;
  const growth = ((measured.total.jsGzip / budget['/'].jsGzip - 1) * 100).toFixed(1);
  return `/ loads ${measured.total.jsGzip} bytes of gzip JS, ${growth}% over the budget of ${budget['/'].jsGzip} (limit ${limit}, +${tolerance * 100}%)`;
}

export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** One printed line of a deployment's (or a total's) sums. */
export function sumsLine(name, sums) {
  return `  ${name.padEnd(11)} ${String(sums.files).padStart(3)} files  JS ${kb(sums.jsRaw).padStart(10)} raw ${kb(sums.jsGzip).padStart(9)} gzip  CSS ${kb(sums.cssRaw)} raw ${kb(sums.cssGzip)} gzip`;
}

function main(args) {
  const dirs = { shellDir: path.join(REPO_ROOT, 'shell', 'dist'), storefrontDir: path.join(REPO_ROOT, 'mfe-storefront', 'dist') };
  const measured = measureHome(dirs);
  console.log('JS and CSS of / (first visit), from the built deployments:');
  for (const [name, sums] of Object.entries({ ...measured.deployments, total: measured.total })) {
    console.log(sumsLine(name, sums));
  }
  if (args.includes('--record')) {
    const previous = fs.existsSync(BUDGET_FILE) ? JSON.parse(fs.readFileSync(BUDGET_FILE, 'utf8')) : {};
    const budget = {
      about: 'JS of / (gzip bytes) that scripts/bundle-budget.mjs allows, +tolerance; rewrite with --record only for a growth that was meant',
      tolerance: previous.tolerance ?? DEFAULT_TOLERANCE,
      recorded: new Date().toISOString().slice(0, 10),
      '/': { jsGzip: measured.total.jsGzip, jsRaw: measured.total.jsRaw, files: measured.total.files },
    };
    fs.writeFileSync(BUDGET_FILE, `${JSON.stringify(budget, null, 2)}\n`);
    console.log(`Recorded the budget in ${path.relative(REPO_ROOT, BUDGET_FILE)}.`);
    return 0;
  }
  const problem = overBudget(measured, readJson(BUDGET_FILE));
  if (problem) {
    console.error(`Over budget: ${problem}. Make it smaller, or if the growth is meant, record it: node scripts/bundle-budget.mjs --record`);
    return 1;
  }
  console.log('Within the budget in build/bundle-budget.json.');
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exit(main(process.argv.slice(2)));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
