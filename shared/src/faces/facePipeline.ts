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
  /**
   * How far the face is turned to a side, from its 68 landmarks: where the tip of the nose sits
   * between the two sides of the jaw, -1 (turned fully to one side) through 0 (facing the camera) to
   * 1. Absent where no landmarks were found (the middle of an image without a face).
   */
  yaw?: number;
  /**
   * Mean grey level of the eyes (the box of each eye's landmarks) divided by that of the cheek just
   * below them. Open eyes (iris, lashes) measure darker than their cheek (0.36 to 0.76 on the tuning
   * faces); behind sunglasses the landmark model puts the eyes at the lens' upper edge and the
   * cheek box falls on the dark lens, so the ratio goes over 0.9.
   */
  eyeLight?: number;
}

/** The quality of a face the detector found with its landmarks: pose and eye evidence are known. */
export type FaceMeasures = FaceQuality & Required<Pick<FaceQuality, 'yaw' | 'eyeLight'>>;

export interface DescribedFace {
  /** x, y, width, height in pixels of the analysed image. */
  box: [number, number, number, number];
  /** Detector confidence, 0 to 1. */
  score: number;
  descriptor: number[];
  quality: FaceMeasures;
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
  /**
   * When the whole photo is dark (a race at dusk, an underexposed shot), look for faces again in a
   * copy with its light evened out: the detector misses about half the faces of a photo at 30 % of
   * its light (api/bench/face-heldout.bench.ts), and finds them all in the evened copy.
   */
  evenLight?: boolean;
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

type Point = { x: number; y: number };

/** Grey levels (0-1) of a box of the image. */
function greyOf(faceapi: FaceApiModule, image: Tensor3D, box: DescribedFace['box']): Float32Array | Int32Array | Uint8Array {
  const tf = faceapi.tf;
  const [height, width] = image.shape;
  const x = Math.min(width - 1, Math.max(0, Math.floor(box[0])));
  const y = Math.min(height - 1, Math.max(0, Math.floor(box[1])));
  const w = Math.max(1, Math.min(width - x, Math.round(box[2])));
  const h = Math.max(1, Math.min(height - y, Math.round(box[3])));
  return tf.tidy(() => {
    const crop = tf.cast(tf.slice(image, [y, x, 0], [h, w, 3]), 'float32');
    return tf.div(tf.matMul(tf.reshape(crop, [h * w, 3]), tf.tensor2d([1, 1, 1], [3, 1])), 3 * 255).dataSync();
  });
}

const meanOf = (values: ArrayLike<number>) => {
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) sum += values[i]!;
  return sum / Math.max(1, values.length);
};

/**
 * Pose and eye evidence from the 68 landmarks (jaw 0-16, nose tip 30, eyes 36-41 and 42-47): see
 * FaceQuality.yaw and eyeLight.
 */
function landmarkQuality(faceapi: FaceApiModule, image: Tensor3D, points: Point[]): Pick<FaceMeasures, 'yaw' | 'eyeLight'> {
  const jawLeft = points[0]!;
  const jawRight = points[16]!;
  const nose = points[30]!;
  const span = jawRight.x - jawLeft.x;
  const yaw = Math.abs(span) < 1 ? 1 : Math.max(-1, Math.min(1, (2 * (nose.x - jawLeft.x)) / span - 1));
  const eyes: number[] = [];
  const cheeks: number[] = [];
  for (const eye of [points.slice(36, 42), points.slice(42, 48)]) {
    const xs = eye.map((p) => p.x);
    const ys = eye.map((p) => p.y);
    const width = Math.max(4, Math.max(...xs) - Math.min(...xs));
    const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
    const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
    // The eye itself (its landmarks' box, at least 0.4 of its width high) and the cheek below it.
    const height = Math.max(0.4 * width, Math.max(...ys) - Math.min(...ys));
    eyes.push(...greyOf(faceapi, image, [cx - width / 2, cy - height / 2, width, height]));
    cheeks.push(...greyOf(faceapi, image, [cx - width / 2, cy + 0.7 * width, width, 0.5 * width]));
  }
  return { yaw, eyeLight: meanOf(eyes) / Math.max(meanOf(cheeks), 1e-3) };
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

function withLandmarks(faceapi: FaceApiModule, image: Tensor3D, quality: FaceQuality, points: Point[]): FaceMeasures {
  return { ...quality, ...landmarkQuality(faceapi, image, points) };
}

interface TfExtras {
  reverse(tensor: Tensor3D, axis: number): Tensor3D;
  mean(tensor: FaceApi.tf.Tensor, axis?: number): FaceApi.tf.Tensor;
  pow(base: FaceApi.tf.Tensor, exponent: FaceApi.tf.Tensor): FaceApi.tf.Tensor;
}

/** A photo whose mean grey (0-1) is below this is looked at again with its light evened out. */
export const EVEN_LIGHT_BELOW = 0.3;
/** The mean grey the evened copy is brought to. */
const EVEN_LIGHT_MEAN = 0.47;

/**
 * A dark image with its light evened out (its levels from the 1st to the 99th percentile stretched
 * to the full range, then a gamma that brings its mean grey to the middle), or null when its light
 * is fair. The caller disposes the copy.
 */
export function evenedLight(faceapi: FaceApiModule, image: Tensor3D): Tensor3D | null {
  const tf = faceapi.tf;
  const extras = tf as unknown as TfExtras;
  const grey = tf.tidy(() => extras.mean(tf.cast(image, 'float32'), 2));
  const values = grey.dataSync();
  grey.dispose();
  const histogram = new Array<number>(256).fill(0);
  let sum = 0;
  for (const v of values) {
    const level = Math.max(0, Math.min(255, Math.round(v)));
    histogram[level]! += 1;
    sum += level;
  }
  const mean = sum / values.length / 255;
  if (mean >= EVEN_LIGHT_BELOW) return null;
  const level = (share: number) => {
    let seen = 0;
    for (let i = 0; i < 256; i += 1) {
      seen += histogram[i]!;
      if (seen >= share * values.length) return i;
    }
    return 255;
  };
  const lo = level(0.01);
  const hi = Math.max(lo + 16, level(0.99));
  // Mean after the stretch, then the gamma that moves it to the middle.
  let stretchedSum = 0;
  for (let i = 0; i < 256; i += 1) stretchedSum += histogram[i]! * Math.max(0, Math.min(1, (i - lo) / (hi - lo)));
  const stretchedMean = Math.max(0.02, Math.min(0.98, stretchedSum / values.length));
  const gamma = Math.log(EVEN_LIGHT_MEAN) / Math.log(stretchedMean);
  return tf.tidy(() => {
    const x = tf.clipByValue(tf.div(tf.sub(tf.cast(image, 'float32'), tf.scalar(lo)), tf.scalar(hi - lo)), 0, 1);
    return tf.mul(extras.pow(x, tf.scalar(gamma)), tf.scalar(255)) as Tensor3D;
  });
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
        quality: withLandmarks(faceapi, image, qualityOf(faceapi, image, box), f.landmarks.positions),
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
    const padded = faceapi.tf.pad(
      image,
      [
        [pad, pad],
        [pad, pad],
        [0, 0],
      ],
      128,
    ) as Tensor3D;
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
  if (options.evenLight) {
    const even = evenedLight(faceapi, image);
    if (even) {
      try {
        for (const face of await describeFaces(faceapi, even, { ...options, evenLight: false })) {
          if (!faces.some((f) => overlap(f.box, face.box) > 0.5)) faces.push(face);
        }
      } finally {
        even.dispose();
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

/** Detector confidence from which a selfie's face is measured to say what to change (never searched with). */
export const SELFIE_HINT_MIN_SCORE = 0.2;

/**
 * What a selfie without a face (at the detector's usual confidence) can tell the runner: the
 * quality of the face the detector sees with less confidence (dark, overexposed, blurred, turned
 * away or covered faces often score under the usual 0.5), or else the brightness of the middle of
 * the image. Only used to pick a message (noFaceProblem); such a face is never searched with.
 */
export async function selfieHint(faceapi: FaceApiModule, image: Tensor3D): Promise<FaceQuality> {
  const weak = await describeFaces(faceapi, image, { minScore: SELFIE_HINT_MIN_SCORE });
  const best = [...weak].sort((a, b) => b.score - a.score)[0];
  return best ? best.quality : centreQuality(faceapi, image);
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
