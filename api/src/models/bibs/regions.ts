/**
 * Finds text lines that may be BIB numbers in a greyscale photo, without any knowledge of what a bib
 * looks like: characters are dark-on-light or light-on-dark blobs of character-like size and shape,
 * and a number is a row of two or more such blobs of equal height, evenly spaced along a straight
 * (possibly tilted) line. OCR over a whole photo reads little; OCR over these few rows reads well.
 */

export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export type Polarity = 'dark' | 'light';

/** One candidate row of characters, in the pixels of the image it was found in. */
export interface TextLine {
  /** Centre of the row. */
  cx: number;
  cy: number;
  /** Direction of the row in radians (image y points down, so positive turns clockwise). */
  angle: number;
  /** Extent along the row, first character's left edge to last character's right edge. */
  length: number;
  /** Median character height (measured across the row). */
  charHeight: number;
  /** Number of character blobs in the row. */
  chars: number;
  polarity: Polarity;
  /** Ordering only: bigger and more regular rows first. */
  score: number;
}

interface Blob {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
  area: number;
  cx: number;
  cy: number;
  w: number;
  h: number;
  polarity: Polarity;
}

export interface RegionOptions {
  /**
   * Local contrasts a character needs against the mean of its surroundings (grey levels), each a
   * pass of its own: the low one finds faint print, the high one separates blurred characters that
   * run into each other at the low one.
   */
  contrasts: number[];
  /** Half the side of the square the local mean is taken over. */
  windowRadius: number;
  /** Smallest and largest character height, in pixels of the searched image. */
  minCharHeight: number;
  maxCharHeightRatio: number;
  /** Most rows handed back. */
  maxLines: number;
}

export const DEFAULT_REGION_OPTIONS: RegionOptions = {
  contrasts: [14, 40],
  windowRadius: 18,
  minCharHeight: 7,
  maxCharHeightRatio: 0.25,
  maxLines: 16,
};

/** Halves an image (2x2 mean), the cheap way to get the search image from the reading image. */
export function halve(image: GreyImage): GreyImage {
  const width = image.width >> 1;
  const height = image.height >> 1;
  const data = new Uint8Array(width * height);
  const src = image.data;
  const stride = image.width;
  for (let y = 0; y < height; y += 1) {
    const row = 2 * y * stride;
    for (let x = 0; x < width; x += 1) {
      const i = row + 2 * x;
      data[y * width + x] = (src[i] + src[i + 1] + src[i + stride] + src[i + stride + 1] + 2) >> 2;
    }
  }
  return { data, width, height };
}

/** Marks pixels clearly darker (1) or lighter (2) than the mean of their neighbourhood. */
function integralOf(image: GreyImage): Float64Array {
  const { data, width, height } = image;
  const w1 = width + 1;
  const integral = new Float64Array(w1 * (height + 1));
  for (let y = 0; y < height; y += 1) {
    let rowSum = 0;
    for (let x = 0; x < width; x += 1) {
      rowSum += data[y * width + x];
      integral[(y + 1) * w1 + x + 1] = integral[y * w1 + x + 1] + rowSum;
    }
  }
  return integral;
}

function threshold(image: GreyImage, integral: Float64Array, radius: number, contrast: number): Uint8Array {
  const { data, width, height } = image;
  const w1 = width + 1;
  const marks = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    const y0 = Math.max(0, y - radius);
    const y1 = Math.min(height, y + radius + 1);
    for (let x = 0; x < width; x += 1) {
      const x0 = Math.max(0, x - radius);
      const x1 = Math.min(width, x + radius + 1);
      const sum = integral[y1 * w1 + x1] - integral[y0 * w1 + x1] - integral[y1 * w1 + x0] + integral[y0 * w1 + x0];
      const mean = sum / ((y1 - y0) * (x1 - x0));
      const v = data[y * width + x];
      if (v < mean - contrast) marks[y * width + x] = 1;
      else if (v > mean + contrast) marks[y * width + x] = 2;
    }
  }
  return marks;
}

/** 8-connected blobs of one mark value, with their boxes. */
function blobsOf(marks: Uint8Array, width: number, height: number, value: number, polarity: Polarity): Blob[] {
  const labels = new Int32Array(width * height).fill(-1);
  const stack = new Int32Array(width * height);
  const blobs: Blob[] = [];
  for (let start = 0; start < marks.length; start += 1) {
    if (marks[start] !== value || labels[start] !== -1) continue;
    let top = 0;
    stack[top++] = start;
    labels[start] = blobs.length;
    let minX = width;
    let maxX = 0;
    let minY = height;
    let maxY = 0;
    let area = 0;
    let sumX = 0;
    let sumY = 0;
    while (top > 0) {
      const p = stack[--top];
      const x = p % width;
      const y = (p - x) / width;
      area += 1;
      sumX += x;
      sumY += y;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      for (let dy = -1; dy <= 1; dy += 1) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx += 1) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const q = ny * width + nx;
          if (marks[q] === value && labels[q] === -1) {
            labels[q] = blobs.length;
            stack[top++] = q;
          }
        }
      }
    }
    const w = maxX - minX + 1;
    const h = maxY - minY + 1;
    blobs.push({ minX, maxX, minY, maxY, area, cx: sumX / area, cy: sumY / area, w, h, polarity });
  }
  return blobs;
}

/** Whether a blob is shaped like a printed letter or digit. */
function characterLike(b: Blob, image: GreyImage, options: RegionOptions): boolean {
  if (b.h < options.minCharHeight || b.h > image.height * options.maxCharHeightRatio) return false;
  if (b.w < 2 || b.w > 1.35 * b.h || b.h > 10 * b.w) return false;
  const fill = b.area / (b.w * b.h);
  if (fill < 0.12 || fill > 0.82) return false;
  // A character never touches the photo's edge (it would be cut).
  return b.minX > 0 && b.minY > 0 && b.maxX < image.width - 1 && b.maxY < image.height - 1;
}

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

const MAX_TILT = Math.tan((26 * Math.PI) / 180);

/** Whether two characters sit next to each other in one row. */
function neighbours(a: Blob, b: Blob): boolean {
  const hMax = Math.max(a.h, b.h);
  const hMin = Math.min(a.h, b.h);
  if (hMax > 1.45 * hMin) return false;
  const dx = b.cx - a.cx;
  const dy = b.cy - a.cy;
  if (dx <= 0 || dx > 1.5 * hMax) return false;
  if (Math.abs(dy) > MAX_TILT * dx + 0.12 * hMax) return false;
  const gap = b.minX - a.maxX;
  return gap < 0.75 * hMax;
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[sorted.length >> 1];
}

/** A row's geometry from its characters, or null when they do not form one straight, even row. */
function rowOf(members: Blob[]): TextLine | null {
  // Longer rows are words and slogans; numbers on bibs are short.
  if (members.length < 2 || members.length > 8) return null;
  members.sort((p, q) => p.cx - q.cx);
  const n = members.length;
  const mx = members.reduce((s, b) => s + b.cx, 0) / n;
  const my = members.reduce((s, b) => s + b.cy, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const b of members) {
    sxx += (b.cx - mx) ** 2;
    sxy += (b.cx - mx) * (b.cy - my);
    syy += (b.cy - my) ** 2;
  }
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  // A tilted character's box is taller than the character (a digit is about 0.6 as wide as tall).
  const charHeight = median(members.map((b) => b.h)) / (Math.abs(cos) + 0.6 * Math.abs(sin));
  const maxH = Math.max(...members.map((b) => b.h));
  const minH = Math.min(...members.map((b) => b.h));
  if (maxH > 1.5 * minH) return null;
  // Every centre lies close to the fitted line.
  for (const b of members) {
    const off = -(b.cx - mx) * sin + (b.cy - my) * cos;
    if (Math.abs(off) > 0.22 * charHeight) return null;
  }
  let lo = Infinity;
  let hi = -Infinity;
  for (const b of members) {
    for (const [x, y] of [
      [b.minX, b.minY],
      [b.maxX + 1, b.minY],
      [b.minX, b.maxY + 1],
      [b.maxX + 1, b.maxY + 1],
    ]) {
      const along = (x - mx) * cos + (y - my) * sin;
      lo = Math.min(lo, along);
      hi = Math.max(hi, along);
    }
  }
  // Printed digits and letters leave much of their box empty; limbs, poles and the gaps between them
  // (the other polarity) fill theirs.
  if (median(members.map((b) => b.area / (b.w * b.h))) > 0.66) return null;
  const centreAlong = (lo + hi) / 2;
  const regular = 1 / (1 + (maxH - minH) / charHeight);
  return {
    cx: mx + centreAlong * cos + 0.5,
    cy: my + centreAlong * sin + 0.5,
    angle,
    length: hi - lo,
    charHeight,
    chars: n,
    polarity: members[0].polarity,
    // Mid-sized rows of three to six characters are the likeliest numbers.
    score: Math.min(charHeight, 60) * Math.min(n, 5) * regular,
  };
}

/**
 * A blob as wide as a short number and as tall as a character: digits that motion blur or a tight
 * font ran together. It becomes a row of its own, read like any other.
 */
function mergedRow(b: Blob, image: GreyImage, options: RegionOptions): TextLine | null {
  if (b.h < Math.max(10, options.minCharHeight) || b.h > image.height * options.maxCharHeightRatio) return null;
  if (b.w < 1.35 * b.h || b.w > 6 * b.h) return null;
  const fill = b.area / (b.w * b.h);
  if (fill < 0.3 || fill > 0.85) return null;
  if (b.minX === 0 || b.minY === 0 || b.maxX >= image.width - 1 || b.maxY >= image.height - 1) return null;
  return {
    cx: (b.minX + b.maxX + 1) / 2,
    cy: (b.minY + b.maxY + 1) / 2,
    angle: 0,
    length: b.w,
    charHeight: b.h,
    chars: Math.max(2, Math.round(b.w / (0.65 * b.h))),
    polarity: b.polarity,
    score: 0.5 * Math.min(b.h, 60) * Math.min(5, b.w / (0.65 * b.h)),
  };
}

function rowsAt(image: GreyImage, integral: Float64Array, contrast: number, options: RegionOptions): TextLine[] {
  const marks = threshold(image, integral, options.windowRadius, contrast);
  const lines: TextLine[] = [];
  for (const [value, polarity] of [
    [1, 'dark'],
    [2, 'light'],
  ] as const) {
    const blobs = blobsOf(marks, image.width, image.height, value, polarity);
    const chars = blobs.filter((b) => characterLike(b, image, options));
    for (const b of blobs) {
      const merged = mergedRow(b, image, options);
      if (merged && !continued(merged, [b], blobs)) lines.push(merged);
    }
    chars.sort((a, b) => a.cx - b.cx);
    const parent = new Int32Array(chars.length).map((_, i) => i);
    for (let i = 0; i < chars.length; i += 1) {
      const a = chars[i];
      for (let j = i + 1; j < chars.length; j += 1) {
        const b = chars[j];
        if (b.cx - a.cx > 1.5 * 1.45 * a.h) break;
        if (neighbours(a, b)) parent[find(parent, j)] = find(parent, i);
      }
    }
    const groups = new Map<number, Blob[]>();
    chars.forEach((b, i) => {
      const root = find(parent, i);
      const group = groups.get(root);
      if (group) group.push(b);
      else groups.set(root, [b]);
    });
    for (const members of groups.values()) {
      const row = rowOf(members);
      if (row && !continued(row, members, blobs)) lines.push(row);
    }
  }
  return lines;
}

/** Whether characters of the same size stand in line with the row: it is part of a longer text, or a number split in two. */
function continued(row: TextLine, members: Blob[], blobs: Blob[]): boolean {
  const h = row.charHeight;
  const cos = Math.cos(row.angle);
  const sin = Math.sin(row.angle);
  const half = row.length / 2;
  const inRow = new Set(members);
  for (const b of blobs) {
    if (inRow.has(b) || b.h < 0.7 * h || b.h > 1.45 * h) continue;
    const across = Math.abs(-(b.cx - row.cx) * sin + (b.cy - row.cy) * cos);
    if (across > 0.6 * h) continue;
    const along = Math.abs((b.cx - row.cx) * cos + (b.cy - row.cy) * sin);
    const reach = Math.abs((b.w / 2) * cos) + Math.abs((b.h / 2) * sin);
    // Up to a monospaced space (clocks, timing boards) plus a colon.
    if (along > half && along - reach - half < 1.6 * h) return true;
  }
  return false;
}

/** Whether two rows cover the same characters (found at two contrasts, or as blobs and as one blob). */
function sameRow(a: TextLine, b: TextLine): boolean {
  const h = Math.max(a.charHeight, b.charHeight);
  return (
    a.polarity === b.polarity &&
    Math.abs(a.cx - b.cx) < 0.25 * Math.max(a.length, b.length) + 0.3 * h &&
    Math.abs(a.cy - b.cy) < 0.4 * h &&
    Math.min(a.charHeight, b.charHeight) > 0.7 * h
  );
}

/**
 * Whether a row lies within a longer row of somewhat larger characters on the same line: a piece of
 * that text (the 1 and 5 of a clock "1:58:03" whose serif digits were also found at a smaller
 * height). Rows of shapes several times taller (limbs, a torso around a bib) are no such text.
 */
function insideLargerRow(row: TextLine, other: TextLine): boolean {
  if (other === row || other.polarity !== row.polarity || other.chars <= row.chars) return false;
  const ratio = other.charHeight / row.charHeight;
  if (ratio < 1.2 || ratio > 1.6) return false;
  const cos = Math.cos(other.angle);
  const sin = Math.sin(other.angle);
  const along = (row.cx - other.cx) * cos + (row.cy - other.cy) * sin;
  const across = -(row.cx - other.cx) * sin + (row.cy - other.cy) * cos;
  return Math.abs(across) < 0.5 * other.charHeight && Math.abs(along) + row.length / 2 <= other.length / 2 + 0.2 * other.charHeight;
}

/** Candidate rows of characters, most promising first. */
export function findTextLines(image: GreyImage, options: RegionOptions = DEFAULT_REGION_OPTIONS): TextLine[] {
  const integral = integralOf(image);
  const found = options.contrasts.flatMap((contrast) => rowsAt(image, integral, contrast, options));
  const all = found.filter((row) => !found.some((other) => insideLargerRow(row, other)));
  all.sort((a, b) => b.score - a.score);
  const kept: TextLine[] = [];
  for (const row of all) {
    if (kept.length >= options.maxLines) break;
    if (!kept.some((k) => sameRow(k, row))) kept.push(row);
  }
  return kept;
}
