import sharp from 'sharp';
import type { BibReader, BibReading, BibRules } from './index';
import { cropRow, FIRST_VIEW, levelled, SECOND_VIEW } from './crop';
import { OcrPool, type RowText } from './ocr';
import { DEFAULT_REGION_OPTIONS, findTextLines, halve, type GreyImage, type RegionOptions, type TextLine } from './regions';
import { allowed, whitelistFor } from './rules';
import { createThreadedBibReader } from './threadedReader';

/** Longest side of the image rows are cut from (24 MP photos are shrunk while the JPEG is decoded). */
const READ_SIDE = 3000;
/** Longest side rows are searched at. */
const SEARCH_SIDE = 1600;
/** Shortest reading that tags a photo. */
const MIN_BIB_LENGTH = 2;

export interface AcceptanceOptions {
  /** Lowest mean character confidence (0..100) of a row that tags a photo. */
  minConfidence: number;
  /** Lowest confidence of any single character of that row. */
  minSymbol: number;
  /** Whether OCR must find as many characters as the row finder saw blobs. */
  sameCount: boolean;
}

export const DEFAULT_ACCEPTANCE: AcceptanceOptions = { minConfidence: 75, minSymbol: 50, sameCount: false };

/** Mean character confidence (0..100) at which the legacy engine's other reading vetoes the LSTM's. */
const LEGACY_CONTRADICTS = 70;

export interface ReaderTuning {
  regions: RegionOptions;
  acceptance: AcceptanceOptions;
}

/**
 * The photo in grey at READ_SIDE. Resized in colour and turned grey here: asking sharp for grey before
 * the resize costs its shrink-while-decoding and triples the time on a 24 MP JPEG.
 */
async function decode(image: Buffer): Promise<GreyImage> {
  const { data, info } = await sharp(image, { failOn: 'error' })
    .resize({ width: READ_SIDE, height: READ_SIDE, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const channels = info.channels;
  const grey = new Uint8Array(info.width * info.height);
  if (channels < 3) {
    for (let i = 0; i < grey.length; i += 1) grey[i] = data[i * channels];
  } else {
    for (let i = 0, j = 0; i < grey.length; i += 1, j += channels) grey[i] = (77 * data[j] + 150 * data[j + 1] + 29 * data[j + 2]) >> 8;
  }
  return { data: grey, width: info.width, height: info.height };
}

/** A row's reading when it passes every check, else null. */
function accept(text: { text: string; confidence: number; minSymbol: number }, line: TextLine, rules: BibRules, options: AcceptanceOptions): BibReading | null {
  const bib = text.text.replace(/\s+/g, '').toUpperCase();
  // One character alone is as often a shape as a digit.
  if (bib.length < MIN_BIB_LENGTH || !allowed(bib, rules)) return null;
  if (text.confidence < options.minConfidence || text.minSymbol < options.minSymbol) return null;
  // A blob count that differs from the characters read means a cut, merged or invented character.
  if (options.sameCount && bib.length !== line.chars) return null;
  return { bib, confidence: Math.round(text.confidence) / 100 };
}

/** Whether two rows lie on one bib: about the same line of print, their ends no more than two characters apart. */
function sameBib(a: TextLine, b: TextLine): boolean {
  const height = Math.max(a.charHeight, b.charHeight);
  const alongGap = Math.hypot(a.cx - b.cx, a.cy - b.cy) - (a.length + b.length) / 2;
  return Math.abs(a.cy - b.cy) < 2 * height && alongGap < 2 * height;
}

const compact = (text: string) => text.replace(/\s+/g, '').toUpperCase();

export class TesseractBibReader implements BibReader {
  constructor(
    private readonly pool: OcrPool,
    /** The legacy (shape classifier) engine that checks the LSTM's readings; null: the LSTM's two views decide. */
    private readonly legacy: OcrPool | null,
    private readonly tuning: ReaderTuning = { regions: DEFAULT_REGION_OPTIONS, acceptance: DEFAULT_ACCEPTANCE },
  ) {}

  private closed = false;

  async read(image: Buffer, rules: BibRules): Promise<BibReading[]> {
    if (this.closed) throw new Error('BIB reader closed');
    const reading = await decode(image);
    let search = reading;
    while (Math.max(search.width, search.height) > SEARCH_SIDE) search = halve(search);
    const scale = reading.width / search.width;
    const lines = findTextLines(search, this.tuning.regions);
    const whitelist = whitelistFor(rules);
    const results = await Promise.all(
      lines.map(async (found) => {
        const line = levelled(reading, found, scale);
        const firstCrop = cropRow(reading, line, scale, FIRST_VIEW);
        const firstText = await this.pool.read(firstCrop, whitelist);
        const first = accept(firstText, line, rules, this.tuning.acceptance);
        if (!first) return null;
        const tagged = (confidence: number) => ({ bib: first.bib, confidence: Math.round(Math.min(first.confidence * 100, confidence)) / 100, line: found });
        // A second look at another size, in black and white, and looks by tesseract's older shape
        // classifier, which errs on other shapes than the LSTM: it reads most of the LSTM's sure
        // misreads in unseen fonts right (7667 for 1667). A wrong tag sells someone else's photo.
        const secondCrop = cropRow(reading, line, scale, SECOND_VIEW);
        const legacy = this.legacy;
        if (!legacy) {
          const second = await this.pool.read(secondCrop, whitelist);
          return compact(second.text) === first.bib ? tagged(second.confidence) : null;
        }
        const [second, legacyFirst] = await Promise.all([this.pool.read(secondCrop, whitelist), legacy.read(firstCrop, whitelist)]);
        const secondAgrees = compact(second.text) === first.bib;
        // The legacy engine reading the same confirms, even when the LSTM's second view lost the row.
        if (compact(legacyFirst.text) === first.bib) return tagged(secondAgrees ? second.confidence : legacyFirst.confidence);
        if (!secondAgrees) return null;
        const legacySecond = await legacy.read(secondCrop, whitelist);
        if (compact(legacySecond.text) === first.bib) return tagged(second.confidence);
        // It misses many rows outright (nothing, or a character more from the bib's edge): only a
        // confident other number of the same length contradicts the LSTM.
        const contradicts = (other: RowText) => other.confidence >= LEGACY_CONTRADICTS && compact(other.text).length === first.bib.length;
        return contradicts(legacyFirst) || contradicts(legacySecond) ? null : tagged(second.confidence);
      }),
    );
    const read = results.filter((r): r is BibReading & { line: TextLine } => r !== null);
    const best = new Map<string, BibReading>();
    for (const r of read) {
      // Part of a longer number read beside it (2462 next to K2462: a letter seen as a row of its
      // own, or a digit cut off in one view) is that number, not a second runner's BIB.
      if (read.some((other) => other.bib !== r.bib && other.bib.includes(r.bib) && sameBib(other.line, r.line))) continue;
      const seen = best.get(r.bib);
      if (!seen || seen.confidence < r.confidence) best.set(r.bib, { bib: r.bib, confidence: r.confidence });
    }
    return [...best.values()].sort((a, b) => b.confidence - a.confidence);
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.all([this.pool.close(), this.legacy?.close()]).then(() => undefined);
  }
}

/**
 * Starts a reader. The default engine is the PP-OCR text detector and recogniser (modelReader.ts, run in
 * child processes by threadedReader.ts, `processes` of them, so the API's thread stays free while a photo is read); the
 * 'tesseract' engine is the earlier row finder with `workers` LSTM engines and, unless legacyCheck is
 * false, one legacy engine (it reads only rows the LSTM accepted, a few per photo, and holds about 140 MB).
 */
export async function createBibReader(
  options: { workers?: number; tuning?: ReaderTuning; legacyCheck?: boolean; engine?: 'model' | 'tesseract'; processes?: number } = {},
): Promise<BibReader> {
  if ((options.engine ?? 'model') === 'model') return createThreadedBibReader(options.processes);
  const workers = Math.max(1, Math.min(4, Math.floor(options.workers ?? 1)));
  const [pool, legacy] = await Promise.all([OcrPool.start(workers), options.legacyCheck === false ? null : OcrPool.start(1, 'legacy')]);
  return new TesseractBibReader(pool, legacy, options.tuning);
}
