// Entry of the BIB reader's child process. The API runs from TypeScript sources through tsx; the child is
// started without the parent's flags (so without that loader), so register it here before loading the worker's module.
// A compiled build (bibWorker.js beside this file) is loaded directly.
import fs from 'node:fs';

const compiled = new URL('./bibWorker.js', import.meta.url);
if (fs.existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('./bibWorker.ts', import.meta.url).href);
}
