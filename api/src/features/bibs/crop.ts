import type { GreyImage, TextLine } from './regions';

/** Character height tesseract reads best at (its LSTM model was trained on text about this size). */
export const OCR_CHAR_HEIGHT = 36;
const MARGIN_X = 0.55;
const HALF_HEIGHT = 0.95;
const BORDER = 12;

/**
 * Cuts one row out of the reading image, turned level, scaled to OCR_CHAR_HEIGHT, stretched to full
 * contrast and always dark characters on white with a white border: the form tesseract expects.
 * `scale` maps the row's coordinates (found in the search image) onto `image`.
 */
export function cropRow(image: GreyImage, line: TextLine, scale: number): GreyImage {
  const h = line.charHeight * scale;
  const k = OCR_CHAR_HEIGHT / h;
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
      t = Math.min(1, Math.max(0, t));
      data[(v + BORDER) * width + u + BORDER] = Math.round(255 * (invert ? 1 - t : t));
    }
  }
  return { data, width, height };
}
