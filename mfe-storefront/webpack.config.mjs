import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWebpackConfig } from '../build/createWebpackConfig.mjs';

// Remote 'storefront': exposes one App whose <Routes> hold its pages; src/index.ts is its standalone harness.
export default createWebpackConfig({
  name: 'storefront',
  packageDir: path.dirname(fileURLToPath(import.meta.url)),
  exposes: { './App': './src/App.tsx' },
  title: 'Finishline storefront (standalone)',
});
