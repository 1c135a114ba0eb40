import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWebpackConfig } from '../build/createWebpackConfig.mjs';

// Remote 'organiser': exposes one App whose <Routes> hold its pages; src/index.ts is its standalone harness.
export default createWebpackConfig({
  name: 'organiser',
  packageDir: path.dirname(fileURLToPath(import.meta.url)),
  exposes: { './App': './src/App.tsx' },
  title: 'Finishline organiser (standalone)',
});
