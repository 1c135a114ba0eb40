import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWebpackConfig } from '../build/createWebpackConfig.mjs';

// The host: knows no remote at build time (see src/app/remotes/federation.ts).
export default createWebpackConfig({
  name: 'shell',
  packageDir: path.dirname(fileURLToPath(import.meta.url)),
  isHost: true,
  title: 'Finishline | Race photos',
});
