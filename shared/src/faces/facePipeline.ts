import type * as FaceApi from '@vladmandic/face-api';
import { FACE_DESCRIPTOR_LENGTH, FACE_DETECTION_MIN_SCORE, FACE_MAX_FLATNESS } from '../types/faces';

/**
 * The one face pipeline of the server (indexing and selfies) and of the phone (on-device selfies):
 * @vladmandic/face-api's SSD MobileNet v1 detector, its 68-point landmarks for alignment and its
 * ResNet-34 recognition model, which gives a 128-number descriptor per face; two faces are the same
 * person when the Euclidean distance between their descriptors is small. The caller hands in the
 * face-api module it loaded (Node's WASM build on the server, the browser build in the storefront),
 * so both run exactly this code and this package never bundles the library itself.
 */
export type FaceApiModule = typeof FaceApi;
type Tensor3D = FaceApi.tf.Tensor3D;

export interface FaceQuality {
  /** Shorter side of the face box, in pixels of the analysed image. */
  size: number;
  /** Mean luminance of the face, 0 (black) to 1 (white). */
  brightness: number;
  /**
   * Share of the face (64x64 grey levels) with no texture at all (Laplacian under 0.002): drawn
   * faces are flat fills, photographed skin never is.
   */
  flatness: number;
  /**
   * Variance of the Laplacian of the face resampled to 64x64 grey levels 0-1, divided by the squared
   * brightness: low means blurred (sharp selfie faces measured 0.05 to 0.23; a Gaussian blur of 2.5 px
   * brings some to 0.016).
   */
  sharpness: number;
}

export interface DescribedFace {
  /** x, y, width, height in pixels of the analysed image. */
  box: [number, number, number, number];
  /** Detector confidence, 0 to 1. */
  score: number;
  descriptor: number[];
  quality: FaceQuality;
}

export interface DescribeOptions {
  /**
   * Also look at overlapping tiles of the image at full resolution. The detector sees the image at
   * 512 px, where a face under about 60 px of a 1280 px photo shrinks below what it can find; runners
   * in the back of a crowd need the tiles. Selfies (one large face) do not.
   */
  tiles?: boolean;
  /**
   * A face that fills most of the frame (a close selfie) is sometimes missed by the detector: with
   * no face found, look again with a grey margin around the image (a close portrait among event
   * photos too). On by default.
   */
  margin?: boolean;
  minScore?: number;
}

/** Tile side and step of the tiled pass, in pixels of the analysed image. */
const TILE = 640;
const TILE_STEP = 480;
const SHARPNESS_SIDE = 64;

function overlap(a: DescribedFace['box'], b: DescribedFace['box']): number {
  const x = Math.max(0, Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]));
  const y = Math.max(0, Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]));
  const inter = x * y;
  return inter / Math.min(a[2] * a[3], b[2] * b[3]);
}

/** Brightness and sharpness of the face box, measured on the image tensor. */
function qualityOf(faceapi: FaceApiModule, image: Tensor3D, box: DescribedFace['box']): FaceQuality {
  const tf = faceapi.tf;
  const [height, width] = image.shape;
  const x = Math.max(0, Math.floor(box[0]));
  const y = Math.max(0, Math.floor(box[1]));
  const w = Math.max(1, Math.min(width - x, Math.round(box[2])));
  const h = Math.max(1, Math.min(height - y, Math.round(box[3])));
  // The face as 64x64 grey levels 0-1; the rest is a few thousand numbers, done in plain code.
  const grey = tf.tidy(() => {
    const crop = tf.cast(tf.slice(image, [y, x, 0], [h, w, 3]), 'float32');
    const small = tf.image.resizeBilinear(crop as Tensor3D, [SHARPNESS_SIDE, SHARPNESS_SIDE]);
    return tf.div(tf.matMul(tf.reshape(small, [SHARPNESS_SIDE * SHARPNESS_SIDE, 3]), tf.tensor2d([1, 1, 1], [3, 1])), 3 * 255).dataSync();
  });
  const n = SHARPNESS_SIDE;
  let sum = 0;
  for (const v of grey) sum += v;
  let lapSum = 0;
  let lapSquares = 0;
  let flat = 0;
  for (let r = 1; r < n - 1; r += 1) {
    for (let c = 1; c < n - 1; c += 1) {
      const at = r * n + c;
      const lap = grey[at - n]! + grey[at + n]! + grey[at - 1]! + grey[at + 1]! - 4 * grey[at]!;
      lapSum += lap;
      lapSquares += lap * lap;
      // Burnt-out highlights of an overexposed photo are flat too, but they are not a drawing's fill.
      if (Math.abs(lap) < 0.002 && grey[at]! < 0.96) flat += 1;
    }
  }
  const count = (n - 2) * (n - 2);
  const brightness = sum / (n * n);
  // Relative to the brightness: darkening an image scales the Laplacian with it, blurring does not.
  const sharpness = (lapSquares / count - (lapSum / count) ** 2) / Math.max(brightness * brightness, 1e-4);
  return { size: Math.min(box[2], box[3]), brightness, sharpness, flatness: flat / count };
}

interface TfExtras {
  reverse(tensor: Tensor3D, axis: number): Tensor3D;
}

async function facesIn(faceapi: FaceApiModule, image: Tensor3D, minScore: number, dx: number, dy: number): Promise<DescribedFace[]> {
  const found = await faceapi.detectAllFaces(image, new faceapi.SsdMobilenetv1Options({ minConfidence: minScore, maxResults: 100 })).withFaceLandmarks();
  const faces: DescribedFace[] = [];
  for (const f of found) {
    const b = f.detection.box;
    const box: DescribedFace['box'] = [b.x, b.y, b.width, b.height];
    // The face aligned by its landmarks, described as it is and mirrored; the mean of the two is
    // steadier across photos of one person (measured in api/bench/face-quality.bench.ts).
    const [aligned] = await faceapi.extractFaceTensors(image, [f.alignedRect]);
    const mirrored = (faceapi.tf as unknown as TfExtras).reverse(aligned!, 1);
    try {
      const direct = (await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(aligned!)) as Float32Array;
      const flipped = (await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(mirrored)) as Float32Array;
      faces.push({
        box: [box[0] + dx, box[1] + dy, box[2], box[3]],
        score: f.detection.score,
        descriptor: Array.from(direct, (v, i) => (v + flipped[i]!) / 2),
        quality: qualityOf(faceapi, image, box),
      });
    } finally {
      aligned!.dispose();
      mirrored.dispose();
    }
  }
  return faces;
}

/**
 * Every face in an RGB image tensor (int32 or float, [height, width, 3]) with its descriptor and
 * quality. The caller disposes the tensor.
 */
export async function describeFaces(faceapi: FaceApiModule, image: Tensor3D, options: DescribeOptions = {}): Promise<DescribedFace[]> {
  const minScore = options.minScore ?? FACE_DETECTION_MIN_SCORE;
  const faces = await facesIn(faceapi, image, minScore, 0, 0);
  const [height, width] = image.shape;
  if (faces.length === 0 && (options.margin ?? true)) {
    const pad = Math.round(0.3 * Math.max(width, height));
    const padded = faceapi.tf.pad(image, [[pad, pad], [pad, pad], [0, 0]], 128) as Tensor3D;
    try {
      for (const face of await facesIn(faceapi, padded, minScore, -pad, -pad)) {
        const [x, y, w, h] = face.box;
        const left = Math.max(0, x);
        const top = Math.max(0, y);
        face.box = [left, top, Math.min(width, x + w) - left, Math.min(height, y + h) - top];
        faces.push(face);
      }
    } finally {
      padded.dispose();
    }
  }
  if (options.tiles && Math.max(width, height) > TILE) {
    const starts = (length: number) => {
      const list: number[] = [];
      for (let s = 0; s + TILE < length; s += TILE_STEP) list.push(s);
      list.push(Math.max(0, length - TILE));
      return [...new Set(list)];
    };
    for (const ty of starts(height)) {
      for (const tx of starts(width)) {
        const tile = faceapi.tf.slice(image, [ty, tx, 0], [Math.min(TILE, height - ty), Math.min(TILE, width - tx), 3]) as Tensor3D;
        try {
          for (const face of await facesIn(faceapi, tile, minScore, tx, ty)) {
            // A face the whole-image pass (or another tile) already found: keep the more confident one.
            const twin = faces.findIndex((f) => overlap(f.box, face.box) > 0.5);
            if (twin < 0) faces.push(face);
            else if (faces[twin]!.score < face.score) faces[twin] = face;
          }
        } finally {
          tile.dispose();
        }
      }
    }
  }
  // Drawings (flat fills) are not faces, for photos and selfies alike.
  return faces.filter((f) => f.descriptor.length === FACE_DESCRIPTOR_LENGTH && f.quality.flatness <= FACE_MAX_FLATNESS);
}

/**
 * Brightness and sharpness of the middle of an image (where a selfie's face is): the runner is told
 * when no face was found because the selfie is too dark for the detector.
 */
export function centreQuality(faceapi: FaceApiModule, image: Tensor3D): FaceQuality {
  const [height, width] = image.shape;
  return qualityOf(faceapi, image, [width * 0.2, height * 0.2, width * 0.6, height * 0.6]);
}

/** Euclidean distance between two descriptors. */
export function descriptorDistance(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) {
    const d = a[i]! - b[i]!;
    sum += d * d;
  }
  return Math.sqrt(sum);
}

export function descriptorNorm(descriptor: readonly number[]): number {
  return Math.sqrt(descriptor.reduce((s, v) => s + v * v, 0));
}
