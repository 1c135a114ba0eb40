import path from 'node:path';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { describeFaces, selfieHint, FACE_DESCRIPTOR_LENGTH, type DescribedFace, type FaceApiModule, type FaceQuality } from '@finishline/shared/pure';

/**
 * Face detection and descriptors with @vladmandic/face-api on the tfjs WASM backend (the models ship
 * inside the npm package and are read from disk; nothing is downloaded at run time). The pipeline
 * itself (detector, landmarks, recognition model, quality measures) is shared with the phone's
 * on-device search: `describeFaces` in @finishline/shared.
 */

export const EMBEDDING_SIZE = FACE_DESCRIPTOR_LENGTH;

/** A face found in a photo or a selfie: box, confidence, 128-number descriptor and quality. */
export type DetectedFace = DescribedFace;

/** What a photo or selfie is analysed for: photos get the tiled pass, a second look when dark, and the indexing gate. */
export type AnalysisMode = 'selfie' | 'index';

export interface ImageFaces {
  faces: DetectedFace[];
  /** Size of the analysed image (the boxes are in its pixels). */
  width: number;
  height: number;
  /**
   * A selfie without a face: the quality of a face seen with less confidence, or of the middle of
   * the image, to say what to change (selfieHint, noFaceProblem).
   */
  hint?: FaceQuality;
}

/**
 * Indexing gate: a face smaller than this, more blurred, or less surely a face is not stored. Such
 * faces give descriptors that match the wrong people (measured in api/bench/face-quality.bench.ts);
 * the demo's drawn runners are not found as faces at all by this detector.
 */
export const INDEX_MIN_FACE_PX = 32;
export const INDEX_MIN_SHARPNESS = 0.003;
export const INDEX_MIN_SCORE = 0.5;

export function indexable(face: DetectedFace): boolean {
  return face.quality.size >= INDEX_MIN_FACE_PX && face.quality.sharpness >= INDEX_MIN_SHARPNESS && face.score >= INDEX_MIN_SCORE;
}

/** Longest side photos and selfies are scaled to before analysis. */
const MAX_SIDE: Record<AnalysisMode, number> = { index: 1280, selfie: 1024 };

const require = createRequire(import.meta.url);

export function faceApiModelsDir(): string {
  return path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
}

/** Decodes an image (JPEG, PNG...) to RGB pixels, upright and at most `maxSide` pixels long. */
export async function decodeRgb(image: Buffer, maxSide: number): Promise<{ pixels: Int32Array; width: number; height: number }> {
  const { data, info } = await sharp(image)
    .rotate() // honour EXIF orientation of phone selfies
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const channels = info.channels;
  const pixels = new Int32Array(info.width * info.height * 3);
  for (let i = 0, o = 0; i < data.length; i += channels, o += 3) {
    pixels[o] = data[i]!;
    pixels[o + 1] = data[i + (channels > 1 ? 1 : 0)]!;
    pixels[o + 2] = data[i + (channels > 2 ? 2 : 0)]!;
  }
  return { pixels, width: info.width, height: info.height };
}

export class FaceEngine {
  private constructor(readonly faceapi: FaceApiModule) {}

  /** Loads the models once (a second or two); share the engine for the life of the process. */
  static async load(): Promise<FaceEngine> {
    const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApiModule;
    const wasm = require('@tensorflow/tfjs-backend-wasm') as { setWasmPaths(prefix: string): void };
    // The wasm backend reads its binary with fs in Node: a folder path, not a URL.
    wasm.setWasmPaths(`${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}${path.sep}`);
    // The full tfjs is there at run time; face-api's typings list only the part it uses itself.
    const tf = faceapi.tf as unknown as { setBackend(name: string): Promise<boolean>; ready(): Promise<void> };
    await tf.setBackend('wasm');
    await tf.ready();
    const models = faceApiModelsDir();
    await faceapi.nets.ssdMobilenetv1.loadFromDisk(models);
    await faceapi.nets.faceLandmark68Net.loadFromDisk(models);
    await faceapi.nets.faceRecognitionNet.loadFromDisk(models);
    return new FaceEngine(faceapi);
  }

  /** Faces in an encoded image. Photos (`index`) are also searched in tiles and gated; selfies get every face. */
  async analyse(image: Buffer, mode: AnalysisMode): Promise<ImageFaces> {
    const { pixels, width, height } = await decodeRgb(image, MAX_SIDE[mode]);
    const tensor = this.faceapi.tf.tensor3d(pixels, [height, width, 3], 'int32');
    try {
      const faces = await describeFaces(this.faceapi, tensor, { tiles: mode === 'index', evenLight: mode === 'index' });
      if (mode === 'index') return { faces: faces.filter(indexable), width, height };
      return { faces, width, height, ...(faces.length === 0 ? { hint: await selfieHint(this.faceapi, tensor) } : {}) };
    } finally {
      tensor.dispose();
    }
  }
}

let shared: Promise<FaceEngine> | null = null;

/** The process-wide engine, loaded on first use. */
export function faceEngine(): Promise<FaceEngine> {
  shared ??= FaceEngine.load().catch((error: unknown) => {
    shared = null; // let a later call retry
    throw error;
  });
  return shared;
}
