import sharp from 'sharp';
import type { BibReader, BibReading, BibRules } from './index';
import { cutLine, PpOcr, type LineText, type RgbImage, type TextBox } from './ppocr';
import { allowed, whitelistFor } from './rules';

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
}

export const DEFAULT_MODEL_TUNING: ModelTuning = { detSide: 1600, minChar: 0.8, minMean: 0.9, neighbourGap: 1.2, wordGap: 2.5, wideCheck: false };

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

const roundTo32 = (v: number) => Math.max(32, Math.round(v / 32) * 32);

/**
 * Whether `other` continues `box`'s line: on the same line, close beyond one of its ends, and from `low` to
 * `high` times as tall (by default about as tall).
 */
function continues(box: TextBox, other: TextBox, gap: number, low = 0.7, high = 1.45): boolean {
  if (other === box) return false;
  const ratio = other.height / box.height;
  if (ratio < low || ratio > high) return false;
  const cos = Math.cos(box.angle);
  const sin = Math.sin(box.angle);
  const dx = other.cx - box.cx;
  const dy = other.cy - box.cy;
  const along = dx * cos + dy * sin;
  const across = -dx * sin + dy * cos;
  if (Math.abs(across) > 0.5 * box.height) return false;
  const space = Math.abs(along) - box.width / 2 - other.width / 2;
  return space < gap * box.height;
}

/** How a line is cut for the recogniser: margins beyond its box, in line heights, along and across it. */
export interface View {
  name: string;
  alongMargin: number;
  acrossMargin: number;
}

export const VIEWS: Record<'first' | 'second' | 'wide', View> = {
  first: { name: 'first', alongMargin: 0.1, acrossMargin: 0.05 },
  second: { name: 'second', alongMargin: 0.35, acrossMargin: 0.2 },
  wide: { name: 'wide', alongMargin: 1.6, acrossMargin: 0.05 },
};

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

/** A line's reading when it passes every check on its own, else null. */
function accept(text: LineText, rules: BibRules, whitelist: string, tuning: ModelTuning): BibReading | null {
  // Marks at the ends (a bib's edge read as -, a pin as ., a logo as ~) are no part of the number.
  const chars = [...text.text.toUpperCase()];
  let start = 0;
  let end = chars.length;
  while (start < end && !/[A-Z0-9]/.test(chars[start]!)) start += 1;
  while (end > start && !/[A-Z0-9]/.test(chars[end - 1]!)) end -= 1;
  const bib = chars.slice(start, end).join('');
  // A BIB is one word: "KM 40" or "SPLIT 35" is a banner.
  if (bib.length < MIN_BIB_LENGTH || /\s/.test(bib)) return null;
  if ([...bib].some((c) => !whitelist.includes(c)) || !allowed(bib, rules)) return null;
  const probs = text.probs.slice(start, end);
  const mean = probs.reduce((a, b) => a + b, 0) / probs.length;
  if (Math.min(...probs) < tuning.minChar || mean < tuning.minMean) return null;
  return { bib, confidence: Math.round(mean * 100) / 100 };
}

/** The BIBs among detected lines (in the reading image's pixels), best first. */
export async function decide(lines: TextBox[], look: Look, rules: BibRules, tuning: ModelTuning): Promise<BibReading[]> {
  const whitelist = whitelistFor(rules);
  const found: (BibReading & { line: TextBox })[] = [];
  for (const [index, line] of lines.entries()) {
    if (line.height < 10) continue;
    // Text of the same height close beside it on its line: a word or number of a banner or a slogan.
    if (lines.some((other) => continues(line, other, tuning.neighbourGap))) continue;
    const first = accept(await look(line, index, VIEWS.first), rules, whitelist, tuning);
    if (!first) continue;
    // A second cut with wider margins must read the same: a misread the model is sure of rarely survives it.
    const second = accept(await look(line, index, VIEWS.second), rules, whitelist, tuning);
    if (!second || second.bib !== first.bib) continue;
    if (tuning.wideCheck && runsOn((await look(line, index, VIEWS.wide)).text.toUpperCase(), first.bib)) continue;
    // A word of like size further along the line (a banner's "SPLIT" beside its "35", with what lies between
    // hidden): bibs print no word that large in line with the number (names and sponsors sit above or below).
    if (await besideWord(lines, index, look, tuning.wordGap)) continue;
    found.push({ bib: first.bib, confidence: Math.min(first.confidence, second.confidence), line });
  }
  const best = new Map<string, BibReading>();
  for (const r of found) {
    const seen = best.get(r.bib);
    if (!seen || seen.confidence < r.confidence) best.set(r.bib, { bib: r.bib, confidence: r.confidence });
  }
  return [...best.values()].sort((a, b) => b.confidence - a.confidence);
}

export class ModelBibReader implements BibReader {
  private closed = false;

  constructor(
    private readonly ocr: PpOcr,
    private readonly tuning: ModelTuning = DEFAULT_MODEL_TUNING,
  ) {}

  /** The photo at READ_SIDE and its text lines, in its pixels. */
  async lines(image: Buffer): Promise<{ photo: RgbImage; lines: TextBox[] }> {
    const photo = await decode(image);
    const k = Math.min(1, this.tuning.detSide / Math.max(photo.width, photo.height));
    const detW = roundTo32(photo.width * k);
    const detH = roundTo32(photo.height * k);
    const boxes = await this.ocr.detect(await resized(photo, detW, detH));
    const sx = photo.width / detW;
    const sy = photo.height / detH;
    const lines = boxes.map((b) => ({ ...b, cx: b.cx * sx, cy: b.cy * sy, width: b.width * Math.hypot(sx * Math.cos(b.angle), sy * Math.sin(b.angle)), height: b.height * Math.hypot(sx * Math.sin(b.angle), sy * Math.cos(b.angle)) }));
    return { photo, lines };
  }

  /** The recogniser's look at one line of `photo`. */
  look(photo: RgbImage): Look {
    return (line, _index, view) => this.ocr.recognise(cutLine(photo, line, view.alongMargin, view.acrossMargin), null);
  }

  async read(image: Buffer, rules: BibRules): Promise<BibReading[]> {
    if (this.closed) throw new Error('BIB reader closed');
    const { photo, lines } = await this.lines(image);
    return decide(lines, this.look(photo), rules, this.tuning);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.ocr.close();
  }
}

export async function createModelBibReader(tuning?: ModelTuning): Promise<ModelBibReader> {
  return new ModelBibReader(await PpOcr.start(1), tuning);
}
