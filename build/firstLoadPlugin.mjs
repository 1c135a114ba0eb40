import webpack from 'webpack';

/** The file the plugin writes beside a build's other files. */
export const FIRST_LOAD_FILE = 'first-load.json';

/**
 * Writes first-load.json: the JavaScript and CSS files a page of this deployment loads before it
 * renders, as webpack's chunk graph says: the `main` entry and the chunk groups it opens at once (the
 * asynchronous boundary `import('./bootstrap')` of src/index.ts). scripts/bundle-budget.mjs adds the
 * shared singletons the shell provides and the remote's exposed App (both from mf-manifest.json), so
 * the bytes of `/` are known from the built folders alone, without a browser.
 */
export class FirstLoadPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('FirstLoadPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'FirstLoadPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const entry = compilation.entrypoints.get('main');
        if (!entry) return;
        const files = new Set(entry.getFiles());
        for (const group of entry.childrenIterable) for (const file of group.getFiles()) files.add(file);
        const list = [...files].filter((file) => /\.(js|css)$/.test(file)).sort();
        compilation.emitAsset(FIRST_LOAD_FILE, new webpack.sources.RawSource(`${JSON.stringify({ entry: list }, null, 2)}\n`));
      });
    });
  }
}
