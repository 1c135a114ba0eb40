/**
 * Builds one remote the way another team would: from its own checkout of the sources, which may
 * hold a different `shared` (an older or newer run-time contract, a changed pricing rule) than the
 * one the running shell was built with. The checkout is a copy of the remote's package, `shared`
 * and `build` under the test's data folder, with the edits applied; installed packages are linked
 * from the repository (the lockfile is the same), except `@finishline/shared`, which points at the
 * copy so that the remote really compiles against the edited contract.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DATA_DIR, REPO_ROOT, type Deployment } from './system';

export interface SourceEdit {
  /** Path inside the checkout, e.g. 'shared/src/pricing/pricing.ts'. */
  file: string;
  /** Exact text that must be present once, and what replaces it. */
  find: string;
  replace: string;
}

const SKIPPED = new Set(['node_modules', 'dist', '.data']);

function copySources(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, filter: (source) => !SKIPPED.has(path.basename(source)) });
}

/** node_modules of the copy: every entry linked to the repository's, @finishline/shared to the copy. */
function linkPackages(packageName: string, checkout: string): void {
  const repoModules = path.join(REPO_ROOT, packageName, 'node_modules');
  const modules = path.join(checkout, packageName, 'node_modules');
  fs.mkdirSync(modules, { recursive: true });
  for (const entry of fs.readdirSync(repoModules)) {
    if (entry === '@finishline') continue;
    fs.symlinkSync(fs.realpathSync(path.join(repoModules, entry)), path.join(modules, entry));
  }
  fs.mkdirSync(path.join(modules, '@finishline'));
  fs.symlinkSync(path.join(checkout, 'shared'), path.join(modules, '@finishline', 'shared'));
}

function applyEdit(checkout: string, edit: SourceEdit): void {
  const file = path.join(checkout, edit.file);
  const text = fs.readFileSync(file, 'utf8');
  const at = text.indexOf(edit.find);
  if (at < 0 || text.indexOf(edit.find, at + 1) >= 0) throw new Error(`${edit.file}: expected exactly one "${edit.find}"`);
  fs.writeFileSync(file, text.slice(0, at) + edit.replace + text.slice(at + edit.find.length));
}

/**
 * Copies the sources, applies the edits, builds the remote for production (with `env` added, e.g.
 * BUILD_BANNER) and returns the built folder (ready for `pnpm release <remote> --from <folder>`).
 */
export function buildFromOtherCheckout(remote: Exclude<Deployment, 'shell'>, label: string, edits: SourceEdit[], env: Record<string, string> = {}): string {
  const checkout = path.join(DATA_DIR, 'checkouts', label);
  const packageName = `mfe-${remote}`;
  fs.rmSync(checkout, { recursive: true, force: true });
  for (const folder of ['build', 'shared', packageName]) copySources(path.join(REPO_ROOT, folder), path.join(checkout, folder));
  fs.copyFileSync(path.join(REPO_ROOT, 'tsconfig.base.json'), path.join(checkout, 'tsconfig.base.json'));
  // The build tools (webpack, loaders, federation plugin) come from the repository's root.
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(checkout, 'node_modules'));
  fs.symlinkSync(fs.realpathSync(path.join(REPO_ROOT, 'shared', 'node_modules')), path.join(checkout, 'shared', 'node_modules'));
  linkPackages(packageName, checkout);
  for (const edit of edits) applyEdit(checkout, edit);

  const outputDir = path.join(checkout, 'out');
  const build = spawnSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'webpack-cli', 'bin', 'cli.js'), '--mode', 'production'], {
    cwd: path.join(checkout, packageName),
    env: { ...process.env, ...env, OUTPUT_DIR: outputDir },
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`Build of ${remote} (${label}) failed:\n${build.stdout}\n${build.stderr}`);
  return outputDir;
}

/** The run-time contract edit: this checkout's shared declares another version. */
export function runtimeContractEdit(version: string): SourceEdit {
  const current = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'shared', 'package.json'), 'utf8')).runtimeContract as string;
  return { file: 'shared/package.json', find: `"runtimeContract": "${current}"`, replace: `"runtimeContract": "${version}"` };
}

export function currentRuntimeContract(): string {
  return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'shared', 'package.json'), 'utf8')).runtimeContract as string;
}

/** Runs `pnpm release|rollback <remote> ...` (scripts/releases.mjs) against the running system's data folder. */
export function releases(...args: string[]): string {
  const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'releases.mjs'), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`releases ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}
