/**
 * One webpack configuration for the shell and every remote, so all six builds agree on how code is
 * transpiled, which packages are shared singletons, and how files are named. Each package's
 * webpack.config.mjs calls this with its own name, port and exposed modules.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import webpack from 'webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { REMOTE_PORTS, SHELL_PORT, portsFor } from './ports.mjs';
import { keepRecentHashedFiles } from './static-caching.mjs';
import { FirstLoadPlugin } from './firstLoadPlugin.mjs';
import { CspHashesPlugin, firstRoutePreloadScript } from './firstRoutePreload.mjs';

const require = createRequire(import.meta.url);
// webpack's own minimizer plugin (what webpack 5.111 runs by default; the successor of
// terser-webpack-plugin), taken from webpack's dependencies so it is the very copy webpack uses.
const MinimizerPlugin = createRequire(require.resolve('webpack'))('minimizer-webpack-plugin');
const BUILD_DIR = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.dirname(BUILD_DIR);

/**
 * webpack's persistent cache (node_modules/.cache/webpack of the package), for development builds
 * only (`webpack serve`). It is invalidated by any source file webpack read, installed packages
 * (their package.json versions) and the lockfile, this config and the package's own, and shared's
 * package.json (the run-time contract is read from it).
 *
 * Production builds do NOT use it: with @module-federation/enhanced 2.9.2 on webpack 5.111, a
 * production build that found a cache from an earlier build emitted a shell whose concatenated
 * `@finishline/shared` namespace lacked exports the bootstrap uses ("loadRuntimeConfig is not a
 * function", a blank page), while the same sources built without a cache were correct. Unchanged
 * deployments are not rebuilt at all instead (scripts/build.mjs --changed). Set WEBPACK_CACHE=1 to
 * try the cache in production again (and check the result in a browser) once that is fixed upstream.
 */
function persistentCache(name, packageDir, production) {
  if (production && process.env.WEBPACK_CACHE !== '1') return false;
  const sharedJson = createRequire(path.join(packageDir, 'package.json')).resolve('@finishline/shared/package.json');
  return {
    type: 'filesystem',
    name: `${name}-${production ? 'production' : 'development'}${production && process.env.SOURCE_MAPS === '1' ? '-maps' : ''}`,
    cacheDirectory: path.join(packageDir, 'node_modules', '.cache', 'webpack'),
    buildDependencies: {
      // (A remote built from a copy of its sources, as the independence journeys do, has no lockfile beside it.)
      config: [
        fileURLToPath(import.meta.url),
        path.join(packageDir, 'webpack.config.mjs'),
        path.join(packageDir, 'package.json'),
        sharedJson,
        path.join(REPO_ROOT, 'pnpm-lock.yaml'),
      ].filter(existsSync),
    },
  };
}

/**
 * JavaScript is minified by SWC (@swc/core, native code) rather than webpack's default terser: with
 * the same options (two compress passes, names mangled) the six production builds took 63% less CPU
 * time and emitted 1.4% less gzip (docs/performance.md). JS_MINIFIER=terser builds with webpack's default
 * terser as before, to compare sizes or to rule the minifier out. (No CSS is minified here: the
 * styles travel inside the JavaScript.)
 */
function javascriptMinimizer() {
  if (process.env.JS_MINIFIER === 'terser') return '...';
  return new MinimizerPlugin({ minify: MinimizerPlugin.swcMinify, minimizerOptions: { compress: { passes: 2 }, mangle: true } });
}

function keepOldChunksDays() {
  const days = Number(process.env.KEEP_OLD_CHUNKS_DAYS ?? '7');
  if (!Number.isFinite(days) || days < 0) throw new Error(`KEEP_OLD_CHUNKS_DAYS must be a number of days, got "${process.env.KEEP_OLD_CHUNKS_DAYS}"`);
  return days;
}

/**
 * Third-party singletons: one copy at run time across shell and remotes (one React, one router,
 * one jotai store). jotai and react are reached through sub-paths by their own code, so those
 * sub-paths are listed too; otherwise a remote could bring a second copy. Their version is not
 * checked: the shell and every remote pin the same ones in the one lockfile.
 * Only what must be one copy is here. A shared module is provided whole (nothing of it is
 * tree-shaken), so antd is NOT shared: each deployment bundles just the antd components it imports
 * and renders its own antd providers (AntdRoot in shared/src/react). axios is reached only through
 * the shared run-time singleton (its one HTTP client), so it needs no entry of its own.
 */
const LIBRARY_SINGLETONS = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  'react-router',
  'react-router-dom',
  'jotai',
  'jotai/vanilla',
  'jotai/react',
  'jotai/utils',
  'jotai/vanilla/utils',
  'jotai/react/utils',
];

/** The entry of shared that holds run-time state (config, HTTP client, shop atoms): see shared/src/runtime.ts. */
export const SHARED_RUNTIME = '@finishline/shared/runtime';

/**
 * The version of the shared run-time contract this package is built against: the `runtimeContract`
 * of the @finishline/shared that the package itself resolves (so a remote built from an older or
 * newer checkout declares that checkout's contract).
 */
export function runtimeContractOf(packageDir) {
  const sharedJson = createRequire(path.join(packageDir, 'package.json')).resolve('@finishline/shared/package.json');
  const { runtimeContract } = JSON.parse(readFileSync(sharedJson, 'utf8'));
  if (!/^\d+\.\d+\.\d+$/.test(runtimeContract ?? '')) throw new Error(`${sharedJson}: runtimeContract must be a x.y.z version`);
  return runtimeContract;
}

/**
 * What a build shares. The run-time contract is a versioned singleton: the shell provides its
 * version, each remote needs `^<the version it was built against>` (a newer minor of the shell is
 * fine, an older shell or another major is not), and strictVersion makes the federation runtime
 * refuse a remote the shell cannot serve, which the shell turns into a clear message
 * (shell/src/app/remotes/sharedContractPlugin.tsx). The rest of shared (types, schemas, pricing,
 * API calls, React helpers) is NOT shared: each deployment bundles the copy it was built with.
 */
export function sharedModules(packageDir) {
  const contract = runtimeContractOf(packageDir);
  return {
    ...Object.fromEntries(LIBRARY_SINGLETONS.map((name) => [name, { singleton: true, requiredVersion: false }])),
    [SHARED_RUNTIME]: { singleton: true, version: contract, requiredVersion: `^${contract}`, strictVersion: true },
  };
}

/**
 * @param {object} options
 * @param {string} options.name          federation name: 'shell' or the remote's short name
 * @param {string} options.packageDir    absolute folder of the package being built
 * @param {Record<string,string>} [options.exposes]  modules a remote exposes (a remote has './App')
 * @param {boolean} [options.isHost]     true for the shell
 * @param {string} [options.title]       HTML title
 */
export function createWebpackConfig({ name, packageDir, exposes, isHost = false, title = 'Finishline' }) {
  return (_env, argv) => {
    const production = argv.mode !== 'development';
    const outputDir = process.env.OUTPUT_DIR ? path.resolve(process.env.OUTPUT_DIR) : path.join(packageDir, 'dist');
    const devPort = isHost ? SHELL_PORT : REMOTE_PORTS[name];
    return {
      mode: production ? 'production' : 'development',
      context: packageDir,
      cache: persistentCache(name, packageDir, production),
      entry: { main: './src/index.ts' },
      // Production source maps only on request (SOURCE_MAPS=1): they double the build time.
      devtool: production ? (process.env.SOURCE_MAPS === '1' ? 'source-map' : false) : 'eval-cheap-module-source-map',
      output: {
        path: outputDir,
        // 'auto': a remote's chunks load from wherever its manifest was fetched, so moving a remote
        // to another host needs only a new runtime-config.json, never a rebuild.
        publicPath: 'auto',
        // Entry files keep stable names (served with no-cache); split chunks carry a content hash.
        filename: '[name].js',
        chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
        uniqueName: `finishline_${name}`,
        // A rebuild into the same folder removes what the new build does not emit, except the
        // content-hashed chunks of earlier builds for KEEP_OLD_CHUNKS_DAYS (default 7): a visitor
        // whose page still runs the previous entry must be able to load the chunks it asks for.
        clean: { keep: keepRecentHashedFiles(outputDir, keepOldChunksDays(), { statSync }) },
      },
      resolve: { extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'] },
      optimization: { minimizer: [javascriptMinimizer()] },
      module: {
        rules: [
          {
            test: /\.[cm]?[jt]sx?$/,
            exclude: /node_modules/,
            use: {
              loader: require.resolve('swc-loader'),
              options: {
                jsc: {
                  parser: { syntax: 'typescript', tsx: true },
                  transform: { react: { runtime: 'automatic', development: !production } },
                  target: 'es2020',
                },
              },
            },
          },
          { test: /\.css$/, use: [require.resolve('style-loader'), require.resolve('css-loader')] },
          { test: /\.(png|jpe?g|svg|webp)$/, type: 'asset' },
          // Fonts a remote bundles (the certificate's TTFs): always files of their own, never inlined.
          { test: /\.(ttf|otf|woff2?)$/, type: 'asset/resource' },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          name,
          filename: 'remoteEntry.js',
          // The shell knows no remote at build time: it registers them from runtime-config.json.
          remotes: {},
          exposes: exposes ?? {},
          shared: sharedModules(packageDir),
          // A singleton the shell has already loaded is the one every remote gets; with the default
          // 'version-first' a remote providing a higher version could run on its own private copy.
          shareStrategy: 'loaded-first',
          manifest: { fileName: 'mf-manifest.json' },
          dts: false,
        }),
        new webpack.DefinePlugin({
          // A visible marker for a particular build (used to prove a remote redeploys alone).
          __FINISHLINE_BUILD_BANNER__: JSON.stringify(process.env.BUILD_BANNER ?? ''),
          __FINISHLINE_REMOTE_NAME__: JSON.stringify(name),
          // Only a remote's standalone harness reads this (the shell reads runtime-config.json).
          __FINISHLINE_HARNESS_API_URL__: JSON.stringify(process.env.API_BASE_URL ?? `http://localhost:${portsFor().api}`),
        }),
        new FirstLoadPlugin(),
        new HtmlWebpackPlugin({
          // One page template for every deployment; each gets its own title.
          template: path.join(BUILD_DIR, 'index.html'),
          title,
          chunks: ['main'],
          // Only the shell's page starts the first route's requests (build/firstRoutePreload.mjs).
          firstRoutePreload: isHost ? firstRoutePreloadScript() : '',
        }),
        ...(isHost ? [new CspHashesPlugin()] : []),
      ],
      performance: { hints: false },
      devServer: {
        port: devPort,
        historyApiFallback: true,
        hot: false,
        headers: { 'Access-Control-Allow-Origin': '*' },
        static: false,
        client: { overlay: { runtimeErrors: false } },
      },
      // 'error': hides the manifest plugin's notice that publicPath 'auto' is resolved at run time (intended).
      infrastructureLogging: { level: 'error' },
      stats: production ? 'errors-warnings' : 'minimal',
    };
  };
}
