#!/usr/bin/env node
/**
 * Bytes per route: the JavaScript and CSS (raw and gzip, level 6) a first visit to a route downloads,
 * per deployment, in the federated build (the six deployments' dist/) and in the monolithic build of
 * the same pages beside it (build/monolith: one single-page app, no Module Federation), and the ratio
 * federated / monolith. Both are counted the same way, statically from the built folders (no
 * browser, so the figures do not depend on the machine's load):
 *   federated  the shell's first load and the shared singletons it provides, then the route's
 *              remote: remoteEntry.js and the synchronous files of its exposed App
 *              (scripts/bundle-budget.mjs, which judges `/` the same way)
 *   monolith   its first load (first-load.json) and the chunk group of the route's section
 *              (chunk-groups.json: the `import()` of that remote's App)
 * Lazy chunks inside a section (the selfie's face model, a partner's share page) are left out of
 * both.
 *   node scripts/bench-bytes.mjs             build what changed and the monolith, then measure
 *                                            (`pnpm bench:bytes`)
 *   node scripts/bench-bytes.mjs --no-build  measure the builds as they are
 * Goals (issue 19): `/`'s JS at most 1.10x the monolith's, and under 250 KiB gzip.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll, packageDirOf, REPO_ROOT, targetsOf, DEPLOYMENTS } from './build.mjs';
import { filesOfRoute, kb, measureFiles, readJson, sumsLine } from './bundle-budget.mjs';
import { FIRST_LOAD_FILE } from '../build/firstLoadPlugin.mjs';

export const MONOLITH_DIR = path.join(REPO_ROOT, 'build', 'monolith', 'dist');
const MONOLITH_CONFIG = path.join(REPO_ROOT, 'build', 'monolith', 'webpack.config.mjs');
const CHUNK_GROUPS_FILE = 'chunk-groups.json';

/** The routes measured and the remote that owns each (scripts/bench-bytes.test.mjs keeps them equal to the shell's route table). */
export const ROUTES = [
  { path: '/', remote: 'storefront' },
  { path: '/products', remote: 'storefront' },
  { path: '/upload', remote: 'partner' },
  { path: '/organization_dashboard', remote: 'organiser' },
];

export const GOALS = { '/': { ratio: 1.1, jsGzip: 250 * 1024 } };

/** The files a page of `remote` loads in the monolithic build. */
export function monolithFilesOf(dir, remote) {
  const firstLoad = readJson(path.join(dir, FIRST_LOAD_FILE));
  const groups = readJson(path.join(dir, CHUNK_GROUPS_FILE));
  if (!groups[remote]) throw new Error(`${dir}/${CHUNK_GROUPS_FILE} has no chunk group "${remote}"`);
  return { monolith: [...new Set([...firstLoad.entry, ...groups[remote]])].sort() };
}

/** Federated and monolithic sums of one route, and the ratio federated / monolith of each figure. */
export function measureRoute(route, { distOf = (name) => path.join(packageDirOf(name), 'dist'), monolithDir = MONOLITH_DIR } = {}) {
  const federated = measureFiles(filesOfRoute({ shellDir: distOf('shell'), remoteDir: distOf(route.remote) }, route.remote), distOf);
  const monolith = measureFiles(monolithFilesOf(monolithDir, route.remote), () => monolithDir);
  const ratio = Object.fromEntries(
    ['jsRaw', 'jsGzip', 'cssRaw', 'cssGzip'].map((key) => [key, monolith.total[key] ? federated.total[key] / monolith.total[key] : null]),
  );
  return { route, federated, monolith, ratio };
}

const times = (value) => (value === null ? '-' : `${value.toFixed(2)}x`);
const verdict = (met) => (met ? 'met' : 'NOT met');

function print({ route, federated, monolith, ratio }) {
  console.log(`\n${route.path} (${route.remote})`);
  console.log(' federated:');
  for (const [name, sums] of Object.entries(federated.deployments)) console.log(sumsLine(name, sums));
  console.log(sumsLine('total', federated.total));
  console.log(' monolith:');
  console.log(sumsLine('total', monolith.total));
  console.log(` federated / monolith: JS ${times(ratio.jsRaw)} raw, ${times(ratio.jsGzip)} gzip; CSS ${times(ratio.cssRaw)} raw, ${times(ratio.cssGzip)} gzip`);
  const goal = GOALS[route.path];
  if (goal) {
    console.log(`  goal: JS gzip at most ${goal.ratio.toFixed(2)}x the monolith's: ${times(ratio.jsGzip)}, ${verdict(ratio.jsGzip <= goal.ratio)}`);
    console.log(`  goal: JS under ${kb(goal.jsGzip)} gzip: ${kb(federated.total.jsGzip)}, ${verdict(federated.total.jsGzip < goal.jsGzip)}`);
  }
}

/** Builds the monolith (always: it is never deployed, so nothing records its inputs). */
export function buildMonolith() {
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    [path.join(REPO_ROOT, 'node_modules', 'webpack-cli', 'bin', 'cli.js'), '--mode', 'production', '--config', MONOLITH_CONFIG],
    { cwd: REPO_ROOT, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`The monolith's build failed (exit ${result.status}).`);
  return (performance.now() - started) / 1000;
}

async function main(args) {
  if (!args.includes('--no-build')) {
    const targets = targetsOf(DEPLOYMENTS, { onlyChanged: true });
    if (targets.length) await buildAll(targets);
    console.log(`Built the monolith in ${buildMonolith().toFixed(1)} s.`);
  }
  console.log('JS and CSS a first visit loads, from the built folders (gzip level 6):');
  for (const route of ROUTES) print(measureRoute(route));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
