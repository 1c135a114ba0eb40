import type { LineText, RgbImage, TextBox } from './ppocr';

/**
 * Whether a number read from a line is whole: the rules that keep a visible part of a BIB (a digit lost at
 * the frame's edge, under a hand, behind another runner, a narrow leading 1 dropped) from tagging a photo,
 * and the participant list's part in it. See docs/bib-reading.md, "Whole numbers".
 */

/** The image lines were found in: its size, and what lies beyond a line's ends. */
export interface Frame {
  width: number;
  height: number;
  /** The share of the bib's ground just beyond each end of a line (see groundBeyond); absent: not measured. */
  beyond?: (line: TextBox, index: number) => Promise<[number, number]>;
}

/**
 * How much of what lies just beyond each end of a line (a strip from the box's end to `reach` line heights
 * further, over the middle 70 % of its height) has the colour of the ground the number is printed on: a
 * whole number has its bib's margin there; a number cut by a hand, an arm or another runner has that in
 * front of it, and one cut by a digit half hidden has ink. The ground is the brighter or darker of the
 * box's two brightness classes, whichever shows more along the box's top and bottom edges; a pixel is ground when
 * within `tolerance` of that class's median colour there (RGB distance). Returns [before, after].
 */
export function groundBeyond(image: RgbImage, line: TextBox, reach: number, tolerance: number): [number, number] {
  const cos = Math.cos(line.angle);
  const sin = Math.sin(line.angle);
  const pixel = (u: number, v: number): [number, number, number] | null => {
    const x = Math.round(line.cx + u * cos - v * sin);
    const y = Math.round(line.cy + u * sin + v * cos);
    if (x < 0 || y < 0 || x >= image.width || y >= image.height) return null;
    const i = (y * image.width + x) * 3;
    return [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!];
  };
  const halfW = line.width / 2;
  const h = line.height;
  // The box's own pixels, on a grid: split by brightness (Otsu), the larger class is the ground.
  const inside: [number, number, number][] = [];
  for (let a = 0; a < 48; a += 1)
    for (let b = 0; b < 12; b += 1) {
      const p = pixel(-halfW + ((a + 0.5) / 48) * 2 * halfW, (-0.45 + ((b + 0.5) / 12) * 0.9) * h);
      if (p) inside.push(p);
    }
  if (inside.length < 20) return [0, 0];
  const grey = (p: [number, number, number]) => (p[0] * 77 + p[1] * 150 + p[2] * 29) >> 8;
  const threshold = otsu(inside.map(grey));
  // The ground is the class that shows above and below the characters, along the box's top and bottom
  // (a bold font's ink can cover more of the box than its ground does); its colour is taken there too.
  const ring: [number, number, number][] = [];
  for (let a = 0; a < 32; a += 1)
    for (const v of [-0.47, -0.42, 0.42, 0.47]) {
      const p = pixel(-halfW + ((a + 0.5) / 32) * 2 * halfW, v * h);
      if (p) ring.push(p);
    }
  const bright = ring.filter((p) => grey(p) > threshold);
  const dark = ring.filter((p) => grey(p) <= threshold);
  const groundPixels = bright.length >= dark.length ? bright : dark;
  if (groundPixels.length === 0) return [0, 0];
  // The median colour: a sponsor band touching the box's edge is no part of the ground.
  const ground = [0, 1, 2].map((c) => groundPixels.map((p) => p[c]!).sort((a, b) => a - b)[groundPixels.length >> 1]!);
  const share = (sign: number): number => {
    let near = 0;
    let all = 0;
    for (let a = 0; a < 8; a += 1)
      for (let b = 0; b < 10; b += 1) {
        const p = pixel(sign * (halfW + ((a + 0.5) / 8) * reach * h), (-0.35 + ((b + 0.5) / 10) * 0.7) * h);
        all += 1;
        if (p && Math.hypot(p[0] - ground[0]!, p[1] - ground[1]!, p[2] - ground[2]!) <= tolerance) near += 1;
      }
    return near / all;
  };
  return [share(-1), share(1)];
}

/** The brightness that best splits values into two classes (Otsu's threshold). */
function otsu(values: number[]): number {
  const counts = new Array<number>(256).fill(0);
  for (const v of values) counts[v]! += 1;
  const total = values.length;
  const sumAll = values.reduce((a, b) => a + b, 0);
  let sumBelow = 0;
  let below = 0;
  let best = 0;
  let bestT = 127;
  for (let t = 0; t < 256; t += 1) {
    below += counts[t]!;
    sumBelow += t * counts[t]!;
    const above = total - below;
    if (below === 0 || above === 0) continue;
    const between = below * above * (sumBelow / below - (sumAll - sumBelow) / above) ** 2;
    if (between > best) {
      best = between;
      bestT = t;
    }
  }
  return bestT;
}

const partsCache = new WeakMap<ReadonlySet<string>, Set<string>>();

/**
 * Whether `bib` is the beginning or the end of another participant's BIB (148 of 1486, 753 of 7531): then
 * reading it says nothing about which of them is in the photo until the number is known to be whole.
 */
export function partOfAnother(bib: string, participants: ReadonlySet<string>): boolean {
  let parts = partsCache.get(participants);
  if (!parts) {
    parts = new Set<string>();
    for (const p of participants) {
      for (let k = 2; k < p.length; k += 1) {
        parts.add(p.slice(0, k));
        parts.add(p.slice(p.length - k));
      }
    }
    partsCache.set(participants, parts);
  }
  return parts.has(bib);
}

/**
 * Whether a line reaches the frame's edge: its box grown by `along` line heights beyond each end and
 * `across` beyond each side is not inside the image. A number cut by the frame ends at the edge.
 */
export function touchesFrame(line: TextBox, frame: Frame, along: number, across: number): boolean {
  const halfW = line.width / 2 + along * line.height;
  const halfH = line.height / 2 + across * line.height;
  const cos = Math.cos(line.angle);
  const sin = Math.sin(line.angle);
  for (const [u, v] of [
    [-halfW, -halfH],
    [halfW, -halfH],
    [-halfW, halfH],
    [halfW, halfH],
  ] as const) {
    const x = line.cx + u * cos - v * sin;
    const y = line.cy + u * sin + v * cos;
    if (x < 0 || y < 0 || x > frame.width || y > frame.height) return true;
  }
  return false;
}

/** Where a reading's characters lie once marks at its ends (a bib's edge read as -, a pin as .) are left off. */
export function coreSpan(chars: string[]): [number, number] {
  let start = 0;
  let end = chars.length;
  while (start < end && !/[A-Z0-9]/.test(chars[start]!)) start += 1;
  while (end > start && !/[A-Z0-9]/.test(chars[end - 1]!)) end -= 1;
  return [start, end];
}

/** Where `bib` stands in a reading's characters (after marks at its ends), or null. */
function spanOf(text: LineText, bib: string): [number, number] | null {
  const at = text.text.toUpperCase().indexOf(bib);
  return at < 0 ? null : [at, at + bib.length];
}

/**
 * Where the recogniser put the characters of `bib` in a cut (their CTC frames), in character pitches: the
 * room before the first character's centre and after the last one's (less the cut's `margin` beyond the
 * box, in line heights), and the widest step between two characters. `widthOverHeight` is the cut's width
 * over the line's height. Null when the frames are unknown.
 */
export function glyphRoom(text: LineText, bib: string, widthOverHeight: number, margin: number): { lead: number; trail: number; step: number } | null {
  const span = spanOf(text, bib);
  if (!span || !text.frames || !text.steps || bib.length < 2) return null;
  const perFrame = widthOverHeight / text.steps;
  const at = text.frames.slice(span[0], span[1]).map((f) => (f + 0.5) * perFrame);
  const pitch = (at.at(-1)! - at[0]!) / (at.length - 1);
  if (!(pitch > 0)) return null;
  let step = 0;
  for (let i = 1; i < at.length; i += 1) step = Math.max(step, (at[i]! - at[i - 1]!) / pitch);
  return { lead: (at[0]! - margin) / pitch, trail: (widthOverHeight - at.at(-1)! - margin) / pitch, step };
}

/**
 * Unread print at an end of the number or a gap inside it: more room than `endRoom` pitches before the
 * first or after the last character (something there the recogniser could not read: half a digit under a
 * hand), or a step of more than `gapRoom` pitches between two characters (a glyph missing).
 */
export function glyphGap(text: LineText, bib: string, widthOverHeight: number, margin: number, endRoom: number, gapRoom: number): string | null {
  const room = glyphRoom(text, bib, widthOverHeight, margin);
  if (!room) return null;
  if (room.lead > endRoom) return `room before ${room.lead.toFixed(2)}`;
  if (room.trail > endRoom) return `room after ${room.trail.toFixed(2)}`;
  if (room.step > gapRoom) return `gap ${room.step.toFixed(2)}`;
  return null;
}

/**
 * Whether a wider cut reads `bib` with one more character joined to it (no space): a narrow leading 1 the
 * first cuts left out, or a digit half under a hand. A character joined must be at least `sure`.
 */
export function readsLonger(wide: LineText, bib: string, sure: number): string | null {
  const text = wide.text.toUpperCase();
  for (let at = text.indexOf(bib); at >= 0; at = text.indexOf(bib, at + 1)) {
    const before = at > 0 ? text[at - 1]! : ' ';
    const after = at + bib.length < text.length ? text[at + bib.length]! : ' ';
    const beforeP = at > 0 ? wide.probs[at - 1]! : 0;
    const afterP = at + bib.length < text.length ? wide.probs[at + bib.length]! : 0;
    if (/[A-Z0-9]/.test(before) && beforeP >= sure) return `wider cut reads ${before}${bib}`;
    if (/[A-Z0-9]/.test(after) && afterP >= sure) return `wider cut reads ${bib}${after}`;
  }
  return null;
}

/**
 * The one participant a reading can be when exactly one of its characters is doubtful (below `doubt`, or
 * not a character the event prints) and every other is sure (each at least `minChar`, their mean at
 * least `minMean`): the participants of the same length that agree on every sure character. Null when
 * none or more than one do, or more than one character is doubtful.
 */
export function participantFor(
  text: LineText,
  participants: ReadonlySet<string>,
  whitelist: string,
  doubt: number,
  minChar: number,
  minMean: number,
): { bib: string; confidence: number; position: number } | null {
  const chars = [...text.text.toUpperCase()];
  const [start, end] = coreSpan(chars);
  const core = chars.slice(start, end);
  const probs = text.probs.slice(start, end);
  if (core.length < 2 || core.some((c) => /\s/.test(c))) return null;
  const doubtful = core.map((c, i) => probs[i]! < doubt || !whitelist.includes(c));
  const position = doubtful.indexOf(true);
  if (position < 0 || doubtful.lastIndexOf(true) !== position) return null;
  const sure = probs.filter((_, i) => i !== position);
  if (Math.min(...sure) < minChar || sure.reduce((a, b) => a + b, 0) / sure.length < minMean) return null;
  let match: string | null = null;
  for (const p of participants) {
    if (p.length !== core.length) continue;
    let same = true;
    for (let i = 0; i < core.length && same; i += 1) if (i !== position && p[i] !== core[i]) same = false;
    if (!same) continue;
    if (match !== null) return null; // two participants fit: the doubtful character decides, and it is doubtful
    match = p;
  }
  if (match === null) return null;
  return { bib: match, confidence: Math.round((sure.reduce((a, b) => a + b, 0) / sure.length) * 0.95 * 100) / 100, position };
}
