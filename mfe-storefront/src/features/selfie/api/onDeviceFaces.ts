import { describeFaces, selfieHint, type DescribedFace, type FaceApiModule, type FaceQuality } from '@finishline/shared';

/**
 * On-device selfie search: the phone describes the face with the server's model and pipeline
 * (`describeFaces` from shared, face-api's detector, landmarks and recognition model) and only the
 * 128 numbers are sent. Loaded on demand: the library (a separate chunk, dynamic import) and the
 * model files (served by this storefront deployment under face-models/) are fetched only when the
 * selfie modal opens, never with the storefront's first load.
 */
declare const __webpack_public_path__: string;

/** Longest side a selfie is scaled to before analysis (the server uses the same). */
const SELFIE_MAX_SIDE = 1024;

export interface SelfieFaces {
  faces: DescribedFace[];
  width: number;
  height: number;
  /** Without a face: a weakly seen face's quality, or the middle's (selfieHint, noFaceProblem). */
  hint?: FaceQuality;
}

export interface OnDeviceModel {
  backend: string;
  describe(dataUrl: string): Promise<SelfieFaces>;
}

interface TfRuntime {
  setWasmPaths?: (prefix: string) => void;
  setBackend(name: string): Promise<boolean>;
  ready(): Promise<void>;
  getBackend(): string;
  browser: { fromPixels(pixels: HTMLCanvasElement): { dispose(): void } };
  cast(tensor: unknown, dtype: 'int32'): unknown;
}

function modelsBase(): string {
  return new URL('face-models/', __webpack_public_path__ || document.baseURI).href;
}

async function chooseBackend(tf: TfRuntime): Promise<string | null> {
  // WebAssembly first: the server runs the same backend, so the numbers agree most closely.
  if (typeof WebAssembly === 'object' && tf.setWasmPaths) {
    tf.setWasmPaths(modelsBase());
    if (await tf.setBackend('wasm').catch(() => false)) return 'wasm';
  }
  if (await tf.setBackend('webgl').catch(() => false)) return 'webgl';
  return null;
}

function loadImage(dataUrl: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('image could not be decoded'));
    image.src = dataUrl;
  });
}

let loading: Promise<OnDeviceModel | null> | null = null;

/**
 * The model, or null where this device cannot run it (no WebAssembly and no WebGL, or a load
 * failure): the modal then sends the selfie to the server as before.
 */
export function loadOnDeviceModel(): Promise<OnDeviceModel | null> {
  loading ??= (async () => {
    try {
      const faceapi = (await import(/* webpackChunkName: "face-model" */ '@vladmandic/face-api')) as unknown as FaceApiModule;
      const tf = faceapi.tf as unknown as TfRuntime;
      const backend = await chooseBackend(tf);
      if (!backend) return null;
      await tf.ready();
      const base = modelsBase();
      await Promise.all([
        faceapi.nets.ssdMobilenetv1.loadFromUri(base),
        faceapi.nets.faceLandmark68Net.loadFromUri(base),
        faceapi.nets.faceRecognitionNet.loadFromUri(base),
      ]);
      return {
        backend,
        async describe(dataUrl: string): Promise<SelfieFaces> {
          const image = await loadImage(dataUrl);
          const scale = Math.min(1, SELFIE_MAX_SIDE / Math.max(image.naturalWidth, image.naturalHeight));
          const canvas = document.createElement('canvas');
          canvas.width = Math.round(image.naturalWidth * scale);
          canvas.height = Math.round(image.naturalHeight * scale);
          canvas.getContext('2d')!.drawImage(image, 0, 0, canvas.width, canvas.height);
          const pixels = tf.browser.fromPixels(canvas);
          const tensor = tf.cast(pixels, 'int32') as Parameters<typeof describeFaces>[1];
          pixels.dispose();
          try {
            const faces = await describeFaces(faceapi, tensor);
            return { faces, width: canvas.width, height: canvas.height, ...(faces.length === 0 ? { hint: await selfieHint(faceapi, tensor) } : {}) };
          } finally {
            tensor.dispose();
          }
        },
      };
    } catch {
      loading = null; // a later opening may try again
      return null;
    }
  })();
  return loading;
}
