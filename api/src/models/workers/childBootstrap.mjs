// Entry of every model child process (see serialWorker.ts); its one argument is the worker module's
// URL without an extension. The API runs from TypeScript sources through tsx, and a child is started
// without the parent's flags (so without that loader): register it here before loading the module.
// A compiled build (the module's .js beside it) is loaded directly.
import fs from 'node:fs';

const workerModule = process.argv[2];
if (!workerModule) throw new Error('childBootstrap.mjs: the worker module to load is missing (serialWorker.ts passes it)');
const compiled = new URL(`${workerModule}.js`);
if (fs.existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(`${workerModule}.ts`);
}
