import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWebpackConfig } from '../build/createWebpackConfig.mjs';
import { FaceModelAssetsPlugin } from './faceModelAssets.mjs';

const packageDir = path.dirname(fileURLToPath(import.meta.url));

// Remote 'storefront': exposes one App whose <Routes> hold its pages; src/index.ts is its standalone harness.
const base = createWebpackConfig({
  name: 'storefront',
  packageDir,
  exposes: { './App': './src/App.tsx' },
  title: 'Finishline storefront (standalone)',
});

// Plus the on-device face model's files, served by this deployment (loaded when the selfie modal opens).
export default (env, argv) => {
  const config = base(env, argv);
  config.plugins.push(new FaceModelAssetsPlugin(packageDir));
  return config;
};
