import { SerialWorker } from '../../workers/serialWorker';
import type { BibReader, BibReading, BibRules } from './index';

/**
 * The model reader run in a child process (bibWorker.ts). Photos queue; one is read at a time, so the
 * child holds one set of model activations, outside the API's process, and the API's thread stays
 * free meanwhile. If the child dies, the photo being read fails (its job is retried) and the next
 * photo starts a new child.
 */
export class ThreadedBibReader implements BibReader {
  private readonly worker = new SerialWorker<{ readings: BibReading[] }>(new URL('./bibWorker', import.meta.url), 'BIB reader');
  private closed = false;

  /** Loads the models (in the child) now: a reader that cannot load fails here, as before. */
  async warmUp(): Promise<void> {
    await this.worker.warmUp();
  }

  async read(image: Buffer, rules: BibRules): Promise<BibReading[]> {
    if (this.closed) throw new Error('BIB reader closed');
    return (await this.worker.run({ image, rules })).readings; // the bytes are copied to the child
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
