#!/usr/bin/env node
/**
 * Builds the shell and the remotes, each on its own into its own dist/ (with mf-manifest.json):
 *   node scripts/build.mjs                  all six
 *   node scripts/build.mjs storefront shell only those
 *   node scripts/build.mjs --missing        only those without a build yet
 * Builds run one after another (webpack already uses both cores) and each one's time is printed.
 * BUILD_BANNER and OUTPUT_DIR pass through to webpack (see build/createWebpackConfig.mjs).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEPLOYMENTS = ['shell', 'storefront', 'account', 'partner', 'organiser', 'certificate'];

export function packageDirOf(name) {
  return path.join(REPO_ROOT, name === 'shell' ? 'shell' : `mfe-${name}`);
}

export function isBuilt(name) {
  return fs.existsSync(path.join(packageDirOf(name), 'dist', 'mf-manifest.json'));
}

/** Builds one deployment; returns seconds taken. Throws when webpack fails. */
export function buildOne(name, env = {}) {
  const webpackCli = path.join(REPO_ROOT, 'node_modules', 'webpack-cli', 'bin', 'cli.js');
  const started = performance.now();
  const result = spawnSync(process.execPath, [webpackCli, '--mode', 'production'], {
    cwd: packageDirOf(name),
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) throw new Error(`Build of ${name} failed (exit ${result.status}).`);
  return (performance.now() - started) / 1000;
}

function main() {
  const args = process.argv.slice(2);
  const onlyMissing = args.includes('--missing');
  const named = args.filter((arg) => !arg.startsWith('--'));
  const unknown = named.filter((name) => !DEPLOYMENTS.includes(name));
  if (unknown.length) {
    console.error(`Unknown deployment(s): ${unknown.join(', ')}. Choose from: ${DEPLOYMENTS.join(', ')}`);
    process.exit(2);
  }
  const targets = (named.length ? named : DEPLOYMENTS).filter((name) => !onlyMissing || !isBuilt(name));
  if (targets.length === 0) {
    console.log('Everything is built.');
    return;
  }
  const times = [];
  for (const name of targets) {
    console.log(`\n=== building ${name} ===`);
    times.push([name, buildOne(name)]);
  }
  console.log('\nBuild times:');
  for (const [name, seconds] of times) console.log(`  ${name.padEnd(12)} ${seconds.toFixed(1)} s`);
  console.log(`  ${'total'.padEnd(12)} ${times.reduce((sum, [, s]) => sum + s, 0).toFixed(1)} s`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
