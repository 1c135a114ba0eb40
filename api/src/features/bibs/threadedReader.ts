import { SerialWorker } from '../../workers/serialWorker';
import type { BibReader, BibReading, BibRules } from './index';

/**
 * The model reader run in a worker thread (bibWorker.ts). Photos queue; one is read at a time, so the
 * process holds one set of model activations, and the API's thread stays free meanwhile.
 */
export class ThreadedBibReader implements BibReader {
  private readonly worker = new SerialWorker<{ readings: BibReading[] }>(new URL('./bibWorker.bootstrap.mjs', import.meta.url), 'BIB reader');
  private closed = false;

  /** Loads the models (in the worker) now: a reader that cannot load fails here, as before. */
  async warmUp(): Promise<void> {
    await this.worker.warmUp();
  }

  async read(image: Buffer, rules: BibRules): Promise<BibReading[]> {
    if (this.closed) throw new Error('BIB reader closed');
    const copy = new Uint8Array(image); // the caller keeps its buffer; the worker is handed this one
    return (await this.worker.run({ image: copy, rules }, 'default', [copy.buffer])).readings;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.worker.close();
  }
}

export async function createThreadedBibReader(): Promise<ThreadedBibReader> {
  const reader = new ThreadedBibReader();
  try {
    await reader.warmUp();
  } catch (error) {
    await reader.close();
    throw error;
  }
  return reader;
}
