import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import webpack from 'webpack';

/**
 * The on-device face model is served by the storefront deployment itself (never a CDN): the three
 * face-api models the server uses (detector, landmarks, recognition) and tfjs's WebAssembly binaries
 * are emitted into dist/face-models/. The browser fetches them only when the selfie modal opens.
 */
export const FACE_MODELS_FOLDER = 'face-models';
const MODELS = ['ssd_mobilenetv1_model', 'face_landmark_68_model', 'face_recognition_model'];

export function faceModelFiles(packageDir) {
  const require = createRequire(path.join(packageDir, 'package.json'));
  const modelDir = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
  const wasmDir = path.dirname(createRequire(require.resolve('@vladmandic/face-api/package.json')).resolve('@tensorflow/tfjs-backend-wasm'));
  const files = MODELS.flatMap((m) => [`${m}-weights_manifest.json`, `${m}.bin`]).map((f) => path.join(modelDir, f));
  for (const f of fs.readdirSync(wasmDir)) if (f.endsWith('.wasm')) files.push(path.join(wasmDir, f));
  return files;
}

export class FaceModelAssetsPlugin {
  constructor(packageDir) {
    this.packageDir = packageDir;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap('FaceModelAssetsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'FaceModelAssetsPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        for (const file of faceModelFiles(this.packageDir)) {
          compilation.emitAsset(`${FACE_MODELS_FOLDER}/${path.basename(file)}`, new webpack.sources.RawSource(fs.readFileSync(file)));
        }
      });
    });
  }
}
