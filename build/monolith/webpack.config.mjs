/**
 * The monolithic comparison build: the same pages as the shell and the five remotes, built as one
 * ordinary single-page app without Module Federation, so scripts/bench-bytes.mjs can say what the
 * federation costs in bytes per route. Not a deployment: it is never served by `pnpm start`,
 * released or built by `pnpm test` / CI. Build it with `pnpm build:monolith` (into
 * build/monolith/dist, git-ignored).
 *
 * It is the shell's own production config (same loaders, same minifier, same mode, same entry and
 * page) with two changes: no ModuleFederationPlugin, and the module that loads a remote
 * (shell/src/app/remotes/federation.ts) swapped for build/monolith/federation.ts, which imports each
 * remote's App from its source behind `import()`. No app code is forked. Packages the remotes import
 * resolve to the same installed copies as the shell's (one lockfile), so each is bundled once and
 * webpack's default splitChunks shares them between the chunks, as in any single-page app.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import webpack from 'webpack';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import shellConfig from '../../shell/webpack.config.mjs';

const MONOLITH_DIR = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(MONOLITH_DIR, '..', '..');
export const MONOLITH_DIST = path.join(MONOLITH_DIR, 'dist');
/** Files of each named chunk group (one per remote's App), what a route of that section loads after the first load. */
export const CHUNK_GROUPS_FILE = 'chunk-groups.json';

const SHELL_FEDERATION = path.join(REPO_ROOT, 'shell', 'src', 'app', 'remotes', 'federation');
const MONOLITH_FEDERATION = path.join(MONOLITH_DIR, 'federation.ts');

class ChunkGroupsPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('ChunkGroupsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'ChunkGroupsPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const groups = {};
        for (const [name, group] of compilation.namedChunkGroups) {
          groups[name] = [...new Set(group.getFiles())].filter((file) => /\.(js|css)$/.test(file)).sort();
        }
        compilation.emitAsset(CHUNK_GROUPS_FILE, new webpack.sources.RawSource(`${JSON.stringify(groups, null, 2)}\n`));
      });
    });
  }
}

export default (env, argv) => {
  const config = shellConfig(env, { ...argv, mode: argv?.mode ?? 'production' });
  return {
    ...config,
    cache: false,
    output: { ...config.output, path: MONOLITH_DIST, uniqueName: 'finishline_monolith', clean: true },
    plugins: [
      ...config.plugins.filter((plugin) => !(plugin instanceof ModuleFederationPlugin)),
      // Matched by what the request points at, so './federation' and './app/remotes/federation' both swap.
      new webpack.NormalModuleReplacementPlugin(/(^|[\\/])federation$/, (resolveData) => {
        if (path.resolve(resolveData.context, resolveData.request) === SHELL_FEDERATION) resolveData.request = MONOLITH_FEDERATION;
      }),
      new ChunkGroupsPlugin(),
    ],
  };
};
