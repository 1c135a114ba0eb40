import path from 'node:path';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import type { GreyImage } from './regions';

const require = createRequire(import.meta.url);

/**
 * The English models ship in @tesseract.js-data/eng (the LSTM's best integer model, and the full model
 * that also holds the legacy classifier) and are read from node_modules: without a
 * langPath tesseract.js fetches it from a CDN (and crashes the process when offline), and its default
 * cache writes a copy into the working directory.
 */
function languageFolder(engine: OcrEngine): string {
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), engine === 'lstm' ? '4.0.0_best_int' : '4.0.0');
}

/**
 * lstm: tesseract's neural line reader (the best integer model), which finds most BIBs.
 * legacy: its older shape classifier (in the package's full model), which errs on other shapes than
 * the LSTM does: the reader asks it to confirm what the LSTM read.
 */
export type OcrEngine = 'lstm' | 'legacy';

export interface RowText {
  text: string;
  /** Mean and lowest character confidence, 0..100. */
  confidence: number;
  minSymbol: number;
  symbols: number;
}

/**
 * Set when the engine starts. No dictionaries: they would only pull a row of digits towards English
 * words. Tesseract prints statistics of empty rows to the console unless given a debug file.
 */
const ENGINE_SETTINGS: Record<string, string> = { load_system_dawg: '0', load_freq_dawg: '0', debug_file: '/dev/null' };

interface Slot {
  worker: Worker;
  whitelist: string;
  busy: boolean;
}

/** A few tesseract workers (each a WASM engine on its own thread) reading single rows. */
export class OcrPool {
  private readonly waiting: ((slot: Slot) => void)[] = [];
  private closed = false;

  private constructor(private readonly slots: Slot[]) {}

  static async start(workers: number, engine: OcrEngine = 'lstm'): Promise<OcrPool> {
    const langPath = languageFolder(engine);
    const oem = engine === 'lstm' ? OEM.LSTM_ONLY : OEM.TESSERACT_ONLY;
    const slots = await Promise.all(
      Array.from({ length: workers }, async () => {
        const worker = await createWorker('eng', oem, { langPath, gzip: true, cacheMethod: 'none' }, ENGINE_SETTINGS);
        // A row is one line of characters; the crops carry no resolution, so name one.
        await worker.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_LINE, user_defined_dpi: '300' });
        return { worker, whitelist: '', busy: false };
      }),
    );
    return new OcrPool(slots);
  }

  private acquire(): Promise<Slot> {
    if (this.closed) return Promise.reject(new Error('BIB reader closed'));
    const free = this.slots.find((s) => !s.busy);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(slot: Slot): void {
    const next = this.waiting.shift();
    if (next) next(slot);
    else slot.busy = false;
  }

  /** Reads one row, allowing only the characters in `whitelist`. */
  async read(row: GreyImage, whitelist: string): Promise<RowText> {
    const png = await sharp(row.data, { raw: { width: row.width, height: row.height, channels: 1 } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const slot = await this.acquire();
    try {
      if (slot.whitelist !== whitelist) {
        await slot.worker.setParameters({ tessedit_char_whitelist: whitelist });
        slot.whitelist = whitelist;
      }
      const { data } = await slot.worker.recognize(png, {}, { text: true, blocks: true });
      const symbols = (data.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words.flatMap((w) => w.symbols))));
      // Character confidences, not the word's: tesseract's word figure drops for a bib's printed
      // border beside perfectly read digits.
      const confidences = symbols.map((s) => s.confidence);
      const minSymbol = confidences.length > 0 ? Math.min(...confidences) : 0;
      const confidence = confidences.length > 0 ? confidences.reduce((a, b) => a + b, 0) / confidences.length : 0;
      return { text: symbols.map((s) => s.text).join(''), confidence, minSymbol, symbols: symbols.length };
    } finally {
      this.release(slot);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
