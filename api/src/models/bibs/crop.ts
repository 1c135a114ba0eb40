import type { GreyImage, TextLine } from './regions';

/** Character height tesseract reads best at (its LSTM model was trained on text about this size). */
export const OCR_CHAR_HEIGHT = 32;
const MARGIN_X = 0.45;

/** How a row is shown to OCR: the first look, and a second one that must agree with it. */
export interface CropView {
  charHeight: number;
  /** Black and white at mid-grey instead of the stretched grey levels. */
  binary: boolean;
}
export const FIRST_VIEW: CropView = { charHeight: OCR_CHAR_HEIGHT, binary: false };
export const SECOND_VIEW: CropView = { charHeight: 26, binary: true };
const HALF_HEIGHT = 0.95;
const BORDER = 12;

/**
 * Cuts one row out of the reading image, turned level, scaled to OCR_CHAR_HEIGHT, stretched to full
 * contrast and always dark characters on white with a white border: the form tesseract expects.
 * `scale` maps the row's coordinates (found in the search image) onto `image`.
 */
export function cropRow(image: GreyImage, line: TextLine, scale: number, view: CropView = FIRST_VIEW): GreyImage {
  const h = line.charHeight * scale;
  const k = view.charHeight / h;
  const halfW = line.length * scale * 0.5 + MARGIN_X * h;
  const halfH = HALF_HEIGHT * h;
  const innerW = Math.max(8, Math.round(2 * halfW * k));
  const innerH = Math.max(8, Math.round(2 * halfH * k));
  const cx = line.cx * scale;
  const cy = line.cy * scale;
  const cos = Math.cos(line.angle);
  const sin = Math.sin(line.angle);
  const samples = new Float32Array(innerW * innerH);
  const src = image.data;
  const sw = image.width;
  for (let v = 0; v < innerH; v += 1) {
    const dv = (v + 0.5) / k - halfH;
    for (let u = 0; u < innerW; u += 1) {
      const du = (u + 0.5) / k - halfW;
      const x = Math.min(sw - 1.001, Math.max(0, cx + du * cos - dv * sin - 0.5));
      const y = Math.min(image.height - 1.001, Math.max(0, cy + du * sin + dv * cos - 0.5));
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      const fx = x - x0;
      const fy = y - y0;
      const i = y0 * sw + x0;
      const top = src[i] * (1 - fx) + src[i + 1] * fx;
      const bottom = src[i + sw] * (1 - fx) + src[i + sw + 1] * fx;
      samples[v * innerW + u] = top * (1 - fy) + bottom * fy;
    }
  }
  // Contrast from the 3rd and 97th percentiles of the row: a glare or a shadow elsewhere does not count.
  const sorted = Float32Array.from(samples).sort();
  const lo = sorted[Math.floor(sorted.length * 0.03)];
  const hi = sorted[Math.floor(sorted.length * 0.97)];
  const range = Math.max(1, hi - lo);
  const invert = line.polarity === 'light';
  const width = innerW + 2 * BORDER;
  const height = innerH + 2 * BORDER;
  const data = new Uint8Array(width * height).fill(255);
  for (let v = 0; v < innerH; v += 1) {
    for (let u = 0; u < innerW; u += 1) {
      let t = (samples[v * innerW + u] - lo) / range;
      t = view.binary ? (t < 0.5 ? 0 : 1) : Math.min(1, Math.max(0, t));
      data[(v + BORDER) * width + u + BORDER] = Math.round(255 * (invert ? 1 - t : t));
    }
  }
  // Beyond the row's characters (with a little slack) there is only bib, its edge, pins or shirt:
  // blank it, or OCR reads a bib's edge against the shirt as a 1.
  const slackX = (MARGIN_X - 0.15) * h * k;
  const keepY = 0.68 * h * k;
  const midY = BORDER + innerH / 2;
  for (let y = BORDER; y < BORDER + innerH; y += 1) {
    const outsideY = Math.abs(y + 0.5 - midY) > keepY;
    for (let x = BORDER; x < BORDER + innerW; x += 1) {
      if (outsideY || x - BORDER < slackX || BORDER + innerW - x < slackX) data[y * width + x] = 255;
    }
  }
  clearEdges(data, width, height);
  return { data, width, height };
}

/**
 * Whitens whatever dark touches the edge of the cut: the bib's border, a pin, a neighbouring shape.
 * The row's own characters sit inside the margins and stay; OCR then has nothing to misread as a 1.
 */
function clearEdges(data: Uint8Array, width: number, height: number): void {
  const inner = (x: number, y: number) => x >= BORDER && y >= BORDER && x < width - BORDER && y < height - BORDER;
  const stack: number[] = [];
  const push = (x: number, y: number) => {
    if (!inner(x, y)) return;
    const i = y * width + x;
    if (data[i] < 128) {
      data[i] = 255;
      stack.push(i);
    }
  };
  for (let x = BORDER; x < width - BORDER; x += 1) {
    push(x, BORDER);
    push(x, height - BORDER - 1);
  }
  for (let y = BORDER; y < height - BORDER; y += 1) {
    push(BORDER, y);
    push(width - BORDER - 1, y);
  }
  while (stack.length > 0) {
    const i = stack.pop()!;
    const x = i % width;
    const y = (i - x) / width;
    push(x + 1, y);
    push(x - 1, y);
    push(x, y + 1);
    push(x, y - 1);
  }
}

/**
 * The row's angle corrected by up to 6 degrees: the centres of a few characters give the direction
 * only roughly, and tesseract reads a level row far better than a slightly tilted one. The best angle
 * is the one whose ink, summed along the row, gives the sharpest profile across it.
 */
export function levelled(image: GreyImage, line: TextLine, scale: number): TextLine {
  const deltas = [-6, -4, -2, 0, 2, 4, 6].map((d) => (d * Math.PI) / 180);
  let best = line;
  let bestScore = -Infinity;
  for (const delta of deltas) {
    const candidate = { ...line, angle: line.angle + delta };
    const small = cropRow(image, candidate, scale, { charHeight: 16, binary: false });
    let score = 0;
    let mean = 0;
    const rows: number[] = [];
    for (let y = 0; y < small.height; y += 1) {
      let sum = 0;
      for (let x = 0; x < small.width; x += 1) sum += 255 - small.data[y * small.width + x];
      rows.push(sum);
      mean += sum;
    }
    mean /= rows.length;
    for (const r of rows) score += (r - mean) ** 2;
    if (score > bestScore) {
      bestScore = score;
      best = candidate;
    }
  }
  return best;
}
