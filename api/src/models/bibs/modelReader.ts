import sharp from 'sharp';
import type { BibReader, BibReading, BibRules } from './index';
import { cutLine, PpOcr, type LineText, type RgbImage, type TextBox } from './ppocr';
import { allowed, whitelistFor } from './rules';
import { coreSpan, glyphGap, glyphRoom, groundBeyond, participantFor, partOfAnother, readsLonger, touchesFrame, type Frame } from './wholeness';

export type { Frame } from './wholeness';

/** Longest side of the image lines are cut from (24 MP photos are shrunk while the JPEG is decoded). */
const READ_SIDE = 3000;

export interface ModelTuning {
  /** Longest side of the image the detector sees (a multiple of 32). */
  detSide: number;
  /** Lowest probability of any character of an accepted reading. */
  minChar: number;
  /** Lowest mean character probability. */
  minMean: number;
  /** Another text line of about the same height this close (in line heights) beyond an end: part of a longer text. */
  neighbourGap: number;
  /** A word (letters only) from half to twice as tall this close (in line heights) on the line: a banner's text. */
  wordGap: number;
  /** Whether a wider look that reads more characters joined to the number refuses it (off: see docs/bib-reading.md). */
  wideCheck: boolean;
  /** A reading with a colon among the marks stripped from its ends is a clock's time ("1:58:03" half hidden). */
  clockCheck: boolean;
  /** A shorter reading within this many heights of a taller accepted number, across its line and overlapping it: the bib's other print (0: off). */
  bandGap: number;
  /** When the two cuts do not agree on a sure reading: more cuts (turned, other margins), two of which must agree. */
  retry: boolean;
  /** A doubtful character at an end, beyond a reading the format or list accepts without it: a logo or the bib's edge. */
  dropEnd: boolean;
  /** Lowest character probability of the second of two cuts that read exactly the same, the first being sure. */
  agreeChar: number;
  /**
   * Whole numbers only: a reading must not reach the frame's edge, leave unread print at an end or a gap
   * inside, nor read longer in a wider cut, unless the participant list shows it cannot be part of another
   * participant's number (see wholeness.ts).
   */
  wholeness: boolean;
  /** Line heights beyond each end (and a tenth of that beyond each side) that must lie inside the frame. */
  frameRoom: number;
  /** Character pitches of room beyond the first or last character of the first cut that mean unread print (0: off). */
  endRoom: number;
  /** Character pitches between two characters that mean a missing glyph (0: off). */
  gapRoom: number;
  /** Lowest probability of a character a wider cut reads joined to the number (0: the wider cut is not read). */
  longerChar: number;
  /** With a participant list, a reading with one doubtful character becomes the one participant it can be. */
  listRepair: boolean;
  /** A further cut of doubtful lines with the contrast stretched (glare, low light, shadow). */
  normaliseRetry: boolean;
  /** Cuts follow the region's height from end to end (a number in perspective is taller at its near end). */
  rectify: boolean;
  /** Lowest share of the bib's ground just beyond each end of a number (0: not looked at; see groundBeyond). */
  groundShare: number;
  /** How far beyond a number's ends its ground is looked at (line heights), and how near its colour (RGB distance) a pixel must be. */
  groundReach: number;
  groundTolerance: number;
  /** The ground check only for readings that begin or end another participant's BIB (with a list). */
  groundStrictOnly: boolean;
  /** The detector sees the photo with its contrast equalised locally (CLAHE): glare, shadow, low light. */
  detectorContrast: boolean;
  /**
   * A photo in which no BIB was read, or which shows small text, is searched again by the detector at
   * this longest side (0: never). At detSide the lines of small bibs (digits under about 1.5 % of the
   * photo's height) are often not found at all; a larger detection costs about twice the first, so
   * only such photos get it.
   */
  smallTextSide: number;
  /** A line under this height (pixels of the reading image, READ_SIDE) is small text. */
  smallTextLine: number;
}

export const DEFAULT_MODEL_TUNING: ModelTuning = {
  detSide: 1600,
  minChar: 0.8,
  minMean: 0.9,
  neighbourGap: 1.2,
  wordGap: 2.5,
  wideCheck: false,
  clockCheck: true,
  bandGap: 1,
  retry: true,
  dropEnd: true,
  agreeChar: 0.7,
  wholeness: true,
  frameRoom: 0.25,
  endRoom: 0,
  gapRoom: 0,
  longerChar: 0.8,
  listRepair: true,
  normaliseRetry: true,
  rectify: true,
  groundShare: 0,
  groundReach: 0.3,
  groundTolerance: 50,
  groundStrictOnly: true,
  detectorContrast: false,
  smallTextSide: 2400,
  smallTextLine: 40,
};

const MIN_BIB_LENGTH = 2;

async function decode(image: Buffer): Promise<RgbImage> {
  const { data, info } = await sharp(image, { failOn: 'error' })
    .resize({ width: READ_SIDE, height: READ_SIDE, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

async function resized(image: RgbImage, width: number, height: number): Promise<RgbImage> {
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize({ width, height, fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * The image with its contrast stretched tile by tile (96-pixel tiles, each tile's 2nd and 98th brightness
 * percentiles to black and white, blended between tiles' centres, at most 4 times the contrast): print in
 * a dark photo, a shadow or a glare gets the contrast the detector was trained on. libvips's CLAHE took
 * seconds at the detector's size; this takes some 30 ms.
 */
export function equalised(image: RgbImage, tile = 96): RgbImage {
  const { width, height, data } = image;
  const tx = Math.ceil(width / tile);
  const ty = Math.ceil(height / tile);
  const lo = new Float32Array(tx * ty);
  const hi = new Float32Array(tx * ty);
  const counts = new Uint32Array(256);
  for (let j = 0; j < ty; j += 1) {
    for (let i = 0; i < tx; i += 1) {
      counts.fill(0);
      let n = 0;
      for (let y = j * tile; y < Math.min(height, (j + 1) * tile); y += 2) {
        for (let x = i * tile; x < Math.min(width, (i + 1) * tile); x += 2) {
          const p = (y * width + x) * 3;
          counts[(data[p]! * 77 + data[p + 1]! * 150 + data[p + 2]! * 29) >> 8] += 1;
          n += 1;
        }
      }
      let sum = 0;
      let a = 0;
      while (a < 255 && (sum += counts[a]!) < 0.02 * n) a += 1;
      sum = 0;
      let b = 255;
      while (b > 0 && (sum += counts[b]!) < 0.02 * n) b -= 1;
      // A flat tile (sky, a wall) is not stretched into noise: at most 4 times the contrast.
      const mid = (a + b) / 2;
      const half = Math.max((b - a) / 2, 32);
      lo[j * tx + i] = mid - half;
      hi[j * tx + i] = mid + half;
    }
  }
  // Blended between tiles' centres: per column its two tiles and weight, per row the tiles' values blended down.
  const col0 = new Int32Array(width);
  const col1 = new Int32Array(width);
  const colW = new Float32Array(width);
  for (let x = 0; x < width; x += 1) {
    const fx = Math.max(0, Math.min(tx - 1, (x + 0.5) / tile - 0.5));
    col0[x] = Math.floor(fx);
    col1[x] = Math.min(tx - 1, col0[x]! + 1);
    colW[x] = fx - col0[x]!;
  }
  const rowLo = new Float32Array(tx);
  const rowHi = new Float32Array(tx);
  // A clamped array rounds and clamps each value written to it.
  const out = new Uint8ClampedArray(data.length);
  for (let y = 0; y < height; y += 1) {
    const fy = Math.max(0, Math.min(ty - 1, (y + 0.5) / tile - 0.5));
    const j0 = Math.floor(fy);
    const j1 = Math.min(ty - 1, j0 + 1);
    const wy = fy - j0;
    for (let i = 0; i < tx; i += 1) {
      rowLo[i] = lo[j0 * tx + i]! * (1 - wy) + lo[j1 * tx + i]! * wy;
      rowHi[i] = hi[j0 * tx + i]! * (1 - wy) + hi[j1 * tx + i]! * wy;
    }
    for (let x = 0, p = y * width * 3; x < width; x += 1, p += 3) {
      const w = colW[x]!;
      const l = rowLo[col0[x]!]! * (1 - w) + rowLo[col1[x]!]! * w;
      const k = 255 / (rowHi[col0[x]!]! * (1 - w) + rowHi[col1[x]!]! * w - l);
      out[p] = (data[p]! - l) * k;
      out[p + 1] = (data[p + 1]! - l) * k;
      out[p + 2] = (data[p + 2]! - l) * k;
    }
  }
  return { data: new Uint8Array(out.buffer), width, height };
}

/**
 * A cut with its contrast stretched: the 2nd and 98th percentiles of its brightness become black and white
 * (glare washes a bib's print towards white, low light and shadow towards black).
 */
export function stretched(cut: RgbImage): RgbImage {
  const { data } = cut;
  const counts = new Uint32Array(256);
  const n = data.length / 3;
  for (let i = 0; i < data.length; i += 3) counts[(data[i]! * 77 + data[i + 1]! * 150 + data[i + 2]! * 29) >> 8] += 1;
  const at = (share: number) => {
    let sum = 0;
    for (let v = 0; v < 256; v += 1) if ((sum += counts[v]!) >= share * n) return v;
    return 255;
  };
  const lo = at(0.02);
  const hi = at(0.98);
  if (hi - lo < 8) return cut;
  const out = new Uint8Array(data.length);
  const k = 255 / (hi - lo);
  for (let i = 0; i < data.length; i += 1) out[i] = Math.max(0, Math.min(255, Math.round((data[i]! - lo) * k)));
  return { data: out, width: cut.width, height: cut.height };
}

const roundTo32 = (v: number) => Math.max(32, Math.round(v / 32) * 32);

/** Where `other`'s centre lies from `box`'s, measured along `box`'s line and across it. */
function offsetFrom(box: TextBox, other: TextBox): { along: number; across: number } {
  const cos = Math.cos(box.angle);
  const sin = Math.sin(box.angle);
  const dx = other.cx - box.cx;
  const dy = other.cy - box.cy;
  return { along: dx * cos + dy * sin, across: -dx * sin + dy * cos };
}

/**
 * Whether `other` continues `box`'s line: on the same line, close beyond one of its ends, and from `low` to
 * `high` times as tall (by default about as tall).
 */
function continues(box: TextBox, other: TextBox, gap: number, low = 0.7, high = 1.45): boolean {
  if (other === box) return false;
  const ratio = other.height / box.height;
  if (ratio < low || ratio > high) return false;
  const { along, across } = offsetFrom(box, other);
  if (Math.abs(across) > 0.5 * box.height) return false;
  const space = Math.abs(along) - box.width / 2 - other.width / 2;
  return space < gap * box.height;
}

/** How a line is cut for the recogniser: margins beyond its box, in line heights, along and across it. */
export interface View {
  name: string;
  alongMargin: number;
  acrossMargin: number;
  /** Radians added to the line's angle before it is cut (a second try at a tilted line). */
  turn?: number;
  /** Contrast stretched across the cut before it is read (glare, low light, shadow). */
  normalise?: boolean;
}

export const VIEWS: Record<'first' | 'second' | 'wide' | 'reach', View> = {
  first: { name: 'first', alongMargin: 0.1, acrossMargin: 0.05 },
  second: { name: 'second', alongMargin: 0.35, acrossMargin: 0.2 },
  wide: { name: 'wide', alongMargin: 1.6, acrossMargin: 0.05 },
  /** About one character beyond each end: a narrow 1 or half a digit the box left out. */
  reach: { name: 'reach', alongMargin: 0.8, acrossMargin: 0.1 },
};

/** The further cut of a doubtful line with its contrast stretched. */
export const NORMALISED_VIEW: View = { name: 'normalised', alongMargin: 0.2, acrossMargin: 0.1, normalise: true };

/** The further cuts of a line the two first cuts left in doubt: turned by about 3 degrees either way, and other margins. */
export const RETRY_VIEWS: View[] = [
  { name: 'turned+', alongMargin: 0.2, acrossMargin: 0.1, turn: 0.05 },
  { name: 'turned-', alongMargin: 0.2, acrossMargin: 0.1, turn: -0.05 },
  { name: 'middle', alongMargin: 0.2, acrossMargin: 0.12 },
  { name: 'tall', alongMargin: 0.15, acrossMargin: 0.35 },
];

/** Reads one detected line in one view (the reader's recogniser; a recording of it in the benchmark). */
export type Look = (line: TextBox, index: number, view: View) => Promise<LineText>;

/**
 * Whether a wider look at a line reads more characters joined to the reading (no space between):
 * a digit under a hand, or a number cut at the edge of the first look.
 */
function runsOn(wide: string, bib: string): boolean {
  const words = wide.split(/\s+/).filter((w) => w.length > 0);
  if (words.some((w) => w === bib)) return false;
  return words.some((w) => w.includes(bib)) || !words.some((w) => w.includes(bib));
}

/**
 * Whether a line on `lines[index]`'s line, within `gap` line heights beyond an end and from half to twice
 * as tall, reads as a word of letters.
 */
async function besideWord(lines: TextBox[], index: number, look: Look, gap: number): Promise<boolean> {
  const line = lines[index]!;
  for (const [k, other] of lines.entries()) {
    if (k === index || other.height < 10 || !continues(line, other, gap, 0.5, 2)) continue;
    const words = (await look(other, k, VIEWS.first)).text.toUpperCase().split(/\s+/);
    if (words.some((w) => /^[A-Z]{2,}$/.test(w))) return true;
  }
  return false;
}

/** A line's reading when it passes every check on its own, else why not. */
function judge(text: LineText, rules: BibRules, whitelist: string, tuning: ModelTuning, minChar = tuning.minChar): BibReading | string {
  // Marks at the ends (a bib's edge read as -, a pin as ., a logo as ~) are no part of the number.
  const chars = [...text.text.toUpperCase()];
  let [start, end] = coreSpan(chars);
  const said = `"${text.text}"`;
  // ":03" is what shows of a clock's "1:58:03" with the rest hidden; bibs print no colon.
  if (tuning.clockCheck && [...chars.slice(0, start), ...chars.slice(end)].includes(':')) return `clock ${said}`;
  const fits = (from: number, to: number) => {
    const bib = chars.slice(from, to).join('');
    return bib.length >= MIN_BIB_LENGTH && !/\s/.test(bib) && [...bib].every((c) => whitelist.includes(c)) && allowed(bib, rules);
  };
  if (!fits(start, end) && tuning.dropEnd && end - start > MIN_BIB_LENGTH) {
    // One doubtful character at an end that the format or the list refuses the whole with: a logo or the
    // bib's edge read as a character. The rest must then pass every check on its own.
    const doubtful = (i: number) => text.probs[i]! < 0.9;
    if (doubtful(start) && fits(start + 1, end)) start += 1;
    else if (doubtful(end - 1) && fits(start, end - 1)) end -= 1;
  }
  const bib = chars.slice(start, end).join('');
  // A BIB is one word: "KM 40" or "SPLIT 35" is a banner.
  if (bib.length < MIN_BIB_LENGTH || /\s/.test(bib)) return `shape ${said}`;
  if ([...bib].some((c) => !whitelist.includes(c)) || !allowed(bib, rules)) return `rules ${said}`;
  const probs = text.probs.slice(start, end);
  const mean = probs.reduce((a, b) => a + b, 0) / probs.length;
  if (Math.min(...probs) < minChar || mean < tuning.minMean) return `unsure ${said} min ${Math.min(...probs).toFixed(2)} mean ${mean.toFixed(2)}`;
  return { bib, confidence: Math.round(mean * 100) / 100 };
}

/**
 * Whether `number` (an accepted reading's line) is the bib's number and `other` the bib's other print:
 * shorter, within `gap` of its heights above or below it, overlapping it along its line ("KM 42" in the
 * sponsor band under the number, read as KM42).
 */
function printedUnder(number: TextBox, other: TextBox, gap: number): boolean {
  if (other === number || other.height > 0.75 * number.height) return false;
  const { along, across } = offsetFrom(number, other);
  if (Math.abs(along) > number.width / 2 + other.width / 2) return false;
  return Math.abs(across) - number.height / 2 - other.height / 2 < gap * number.height;
}

/**
 * Whether a line's first cut read something of a number's shape (after its end marks, or with one end
 * character left off), however unsure: only such lines get the further cuts.
 */
function numberLike(text: LineText, rules: BibRules, whitelist: string): boolean {
  const core = text.text.toUpperCase().replace(/^[^A-Z0-9]+|[^A-Z0-9]+$/g, '');
  if (/\s/.test(core)) return false;
  return [core, core.slice(1), core.slice(0, -1)].some(
    (part) => part.length >= MIN_BIB_LENGTH && [...part].every((c) => whitelist.includes(c)) && allowed(part, rules),
  );
}

/**
 * Whether the second cut does not gainsay a participant found for a doubtful reading: it reads the same
 * length and agrees on every character but the doubtful one, where it reads the participant's or is unsure.
 */
async function agreesWith(line: TextBox, index: number, look: Look, bib: string, position: number): Promise<boolean> {
  const text = await look(line, index, VIEWS.second);
  const chars = [...text.text.toUpperCase()];
  const [start, end] = coreSpan(chars);
  if (end - start !== bib.length) return false;
  return chars.slice(start, end).every((c, i) => c === bib[i] || (i === position && text.probs[start + i]! < 0.9));
}

/** Why a number read from a line may be only a part of one (null: nothing says so). */
async function cutShort(
  line: TextBox,
  index: number,
  bib: string,
  look: Look,
  frame: Frame | null,
  tuning: ModelTuning,
  strict: boolean,
): Promise<string | null> {
  if (frame && touchesFrame(line, frame, tuning.frameRoom, tuning.frameRoom / 10)) return "at the frame's edge";
  if (frame?.beyond && tuning.groundShare > 0 && (strict || !tuning.groundStrictOnly)) {
    const [before, after] = await frame.beyond(line, index);
    if (Math.min(before, after) < tuning.groundShare) return `ground beyond ${before.toFixed(2)} ${after.toFixed(2)}`;
  }
  if (tuning.endRoom > 0 || tuning.gapRoom > 0) {
    const first = VIEWS.first;
    const gap = glyphGap(
      await look(line, index, first),
      bib,
      line.width / line.height + 2 * first.alongMargin,
      first.alongMargin,
      tuning.endRoom || Infinity,
      tuning.gapRoom || Infinity,
    );
    if (gap) return gap;
  }
  if (strict) {
    // A part of another participant's number: the wider cut must read it alone, with nothing joined to it.
    const wide = await look(line, index, VIEWS.reach);
    if (
      !wide.text
        .toUpperCase()
        .split(/[^A-Z0-9]+/)
        .includes(bib)
    )
      return `wider cut reads ${wide.text}`;
    return null;
  }
  if (tuning.longerChar > 0) return readsLonger(await look(line, index, VIEWS.reach), bib, tuning.longerChar);
  return null;
}

/** Why a line gave no BIB (the benchmark's replay lists it for each miss). */
export type Trace = (index: number, outcome: string) => void;
const NO_TRACE: Trace = () => {};

/** A BIB read from a line, with the height of the line (pixels of the reading image). */
export interface DecidedReading extends BibReading {
  lineHeight: number;
}

/** The BIBs among detected lines (in the reading image's pixels), best first. */
export async function decide(
  lines: TextBox[],
  look: Look,
  rules: BibRules,
  tuning: ModelTuning,
  trace: Trace = NO_TRACE,
  frame: Frame | null = null,
): Promise<DecidedReading[]> {
  const whitelist = whitelistFor(rules);
  const found: (BibReading & { line: TextBox })[] = [];
  for (const [index, line] of lines.entries()) {
    if (line.height < 10) {
      trace(index, 'too small');
      continue;
    }
    // Text of the same height close beside it on its line: a word or number of a banner or a slogan.
    if (lines.some((other) => continues(line, other, tuning.neighbourGap))) {
      trace(index, 'continued');
      continue;
    }
    const firstText = await look(line, index, VIEWS.first);
    let first = judge(firstText, rules, whitelist, tuning);
    // A second cut with wider margins must read the same: a misread the model is sure of rarely survives it.
    // Once the first cut is sure, the second may be a little less sure of a character and still confirm it.
    let second = typeof first === 'string' ? first : judge(await look(line, index, VIEWS.second), rules, whitelist, tuning, tuning.agreeChar);
    if (tuning.retry && (typeof second === 'string' || typeof first === 'string' || first.bib !== second.bib) && numberLike(firstText, rules, whitelist)) {
      // Cuts turned a little and with other margins: two sure readings that agree, and none that differs.
      const further = tuning.normaliseRetry ? [...RETRY_VIEWS, NORMALISED_VIEW] : RETRY_VIEWS;
      const views = typeof first === 'string' ? [VIEWS.second, ...further] : further;
      const judged = [first, ...(typeof first === 'string' ? [] : [second])];
      for (const view of views) judged.push(judge(await look(line, index, view), rules, whitelist, tuning));
      const sure = judged.filter((r): r is BibReading => typeof r !== 'string');
      const agreed = sure.filter((r) => r.bib === sure[0]?.bib);
      if (agreed.length >= 2 && agreed.length === sure.length) [first, second] = [agreed[0]!, agreed[1]!];
    }
    if (tuning.listRepair && rules.participants && (typeof first === 'string' || typeof second === 'string' || first.bib !== second.bib)) {
      // One doubtful character, every other sure: the one participant whose BIB agrees on all the sure ones.
      const repaired = participantFor(firstText, rules.participants, whitelist, 0.9, tuning.minChar, tuning.minMean);
      if (repaired && (await agreesWith(line, index, look, repaired.bib, repaired.position))) {
        trace(index, `list ${firstText.text} as ${repaired.bib}`);
        first = second = { bib: repaired.bib, confidence: repaired.confidence };
      }
    }
    if (typeof first === 'string') {
      trace(index, `first ${first}`);
      continue;
    }
    if (typeof second === 'string' || second.bib !== first.bib) {
      trace(index, `second ${typeof second === 'string' ? second : `${second.bib} against ${first.bib}`}`);
      continue;
    }
    // Without a list, a number is whole unless its line shows it cut. With a participant list, a reading
    // that is no other participant's beginning or end cannot be a part of one (the list vouches for it);
    // one that is (148 of 1486, 753 of 7531) tags only when its line shows it whole.
    const ambiguous = rules.participants !== null && partOfAnother(first.bib, rules.participants);
    if (tuning.wholeness && (!rules.participants || ambiguous)) {
      const short = await cutShort(line, index, first.bib, look, frame, tuning, ambiguous);
      if (short) {
        trace(index, `cut short ${first.bib}: ${short}`);
        continue;
      }
    }
    if (tuning.wideCheck && runsOn((await look(line, index, VIEWS.wide)).text.toUpperCase(), first.bib)) {
      trace(index, 'wide');
      continue;
    }
    // A word of like size further along the line (a banner's "SPLIT" beside its "35", with what lies between
    // hidden): bibs print no word that large in line with the number (names and sponsors sit above or below).
    if (await besideWord(lines, index, look, tuning.wordGap)) {
      trace(index, `word beside ${first.bib}`);
      continue;
    }
    // Where its characters stand in the first cut (for the benchmark's trace only: it costs a look).
    if (trace !== NO_TRACE) {
      const room = glyphRoom(await look(line, index, VIEWS.first), first.bib, line.width / line.height + 2 * VIEWS.first.alongMargin, VIEWS.first.alongMargin);
      trace(index, `accepted ${first.bib} ${JSON.stringify({ ...room, ground: frame?.beyond ? await frame.beyond(line, index) : null })}`);
    }
    found.push({ bib: first.bib, confidence: Math.min(first.confidence, second.confidence), line });
  }
  const best = new Map<string, DecidedReading>();
  for (const r of found) {
    // The bib's other print (a sponsor band's "KM 42") close above or below its taller number.
    if (tuning.bandGap > 0 && found.some((n) => printedUnder(n.line, r.line, tuning.bandGap))) {
      trace(lines.indexOf(r.line), `band text ${r.bib}`);
      continue;
    }
    const seen = best.get(r.bib);
    if (!seen || seen.confidence < r.confidence) best.set(r.bib, { bib: r.bib, confidence: r.confidence, lineHeight: r.line.height });
  }
  return [...best.values()].sort((a, b) => b.confidence - a.confidence);
}

/** Whether the small-text detection sees at least a quarter more of a photo (its longest side) than the first. */
export function smallTextLook(tuning: ModelTuning, width: number, height: number): boolean {
  return Math.min(Math.max(width, height), tuning.smallTextSide) >= tuning.detSide * 1.25;
}

/**
 * The readings of a photo from its first detection's lines and, when that read nothing or read a number
 * in small print, the small-text detection's readings of small lines too (`decideOn` decides over a set
 * of lines; `second` says which set). Only small lines count from the second detection: the large ones
 * were read by the first.
 */
export async function readWithSmallText(
  tuning: ModelTuning,
  frame: { width: number; height: number },
  lines: TextBox[],
  larger: () => Promise<TextBox[]>,
  decideOn: (lines: TextBox[], second: boolean) => Promise<DecidedReading[]>,
): Promise<BibReading[]> {
  const first = await decideOn(lines, false);
  const small = (r: DecidedReading) => r.lineHeight < tuning.smallTextLine;
  const needed = first.length === 0 || first.some(small);
  const best = new Map<string, BibReading>(first.map((r) => [r.bib, { bib: r.bib, confidence: r.confidence }]));
  if (needed && smallTextLook(tuning, frame.width, frame.height)) {
    for (const r of (await decideOn(await larger(), true)).filter(small)) {
      const seen = best.get(r.bib);
      if (!seen || seen.confidence < r.confidence) best.set(r.bib, { bib: r.bib, confidence: r.confidence });
    }
  }
  return [...best.values()].sort((a, b) => b.confidence - a.confidence);
}

export class ModelBibReader implements BibReader {
  private closed = false;

  constructor(
    private readonly ocr: PpOcr,
    private readonly tuning: ModelTuning = DEFAULT_MODEL_TUNING,
  ) {}

  /** The photo at READ_SIDE (what lines are cut from). */
  photo(image: Buffer): Promise<RgbImage> {
    return decode(image);
  }

  /** The photo at READ_SIDE and its text lines, in its pixels. */
  async lines(image: Buffer): Promise<{ photo: RgbImage; lines: TextBox[] }> {
    const photo = await decode(image);
    return { photo, lines: await this.detect(photo, this.tuning.detSide) };
  }

  /** Text lines of the photo found by the detector with the photo scaled to `side` (at most READ_SIDE), in its pixels. */
  async detect(photo: RgbImage, side: number): Promise<TextBox[]> {
    const k = Math.min(1, side / Math.max(photo.width, photo.height));
    const detW = roundTo32(photo.width * k);
    const detH = roundTo32(photo.height * k);
    const forDetector = await resized(photo, detW, detH);
    const boxes = await this.ocr.detect(this.tuning.detectorContrast ? equalised(forDetector) : forDetector);
    const sx = photo.width / detW;
    const sy = photo.height / detH;
    return boxes.map((b) => ({
      ...b,
      cx: b.cx * sx,
      cy: b.cy * sy,
      width: b.width * Math.hypot(sx * Math.cos(b.angle), sy * Math.sin(b.angle)),
      height: b.height * Math.hypot(sx * Math.sin(b.angle), sy * Math.cos(b.angle)),
    }));
  }

  /** The recogniser's look at one line of `photo`. */
  look(photo: RgbImage): Look {
    return (line, _index, view) => {
      const cut = cutLine(photo, { ...line, angle: line.angle + (view.turn ?? 0) }, view.alongMargin, view.acrossMargin, 1600, this.tuning.rectify);
      return this.ocr.recognise(view.normalise ? stretched(cut) : cut, null);
    };
  }

  /** The photo's size and what lies beyond a line's ends in it. */
  frame(photo: RgbImage): Frame {
    return {
      width: photo.width,
      height: photo.height,
      beyond: async (line) => groundBeyond(photo, line, this.tuning.groundReach, this.tuning.groundTolerance),
    };
  }

  async read(image: Buffer, rules: BibRules): Promise<BibReading[]> {
    if (this.closed) throw new Error('BIB reader closed');
    const { photo, lines } = await this.lines(image);
    const look = this.look(photo);
    const frame = this.frame(photo);
    return readWithSmallText(
      this.tuning,
      photo,
      lines,
      () => this.detect(photo, this.tuning.smallTextSide),
      (set) => decide(set, look, rules, this.tuning, undefined, frame),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.ocr.close();
  }
}

export async function createModelBibReader(tuning?: ModelTuning): Promise<ModelBibReader> {
  return new ModelBibReader(await PpOcr.start(1), tuning);
}
