import { Worker } from 'node:worker_threads';
import type { BibReader, BibReading, BibRules } from './index';
import type { ReadReply } from './bibWorker';

/**
 * The model reader run in a worker thread (bibWorker.ts). Photos queue; one is read at a time, so the
 * process holds one set of model activations, and the API's thread stays free meanwhile.
 */
interface Pending {
  id: number;
  image: Uint8Array<ArrayBuffer>;
  rules: BibRules;
  resolve: (readings: BibReading[]) => void;
  reject: (error: Error) => void;
}

export class ThreadedBibReader implements BibReader {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly queue: Pending[] = [];
  private inFlight: Pending | null = null;
  private nextId = 1;
  private closed = false;

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    const worker = new Worker(new URL('./bibWorker.bootstrap.mjs', import.meta.url));
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      const onFirst = (message: { ready?: boolean; error?: string }) => {
        if (message.ready === true) resolve();
        else reject(new Error(`BIB models failed to load: ${message.error ?? 'unknown error'}`));
      };
      worker.once('message', onFirst);
      worker.once('error', reject);
    });
    worker.on('message', (message: ReadReply | { ready: boolean }) => {
      if ('ready' in message) return;
      const current = this.inFlight;
      if (!current || current.id !== message.id) return;
      this.inFlight = null;
      if ('error' in message) current.reject(new Error(message.error));
      else current.resolve(message.readings);
      this.pump();
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', (code) => {
      this.worker = null;
      this.ready = null;
      if (code !== 0) this.failAll(new Error(`BIB worker exited with code ${code}`));
    });
    this.ready.catch(() => undefined);
    return this.ready;
  }

  private failAll(error: Error): void {
    const waiting = [...(this.inFlight ? [this.inFlight] : []), ...this.queue.splice(0)];
    this.inFlight = null;
    for (const p of waiting) p.reject(error);
  }

  private pump(): void {
    if (this.inFlight || !this.worker) return;
    const next = this.queue.shift();
    if (!next) {
      // Idle: let a script or test end without closing the reader.
      this.worker.unref();
      return;
    }
    this.worker.ref();
    this.inFlight = next;
    // The copy made in read() is handed over, not copied again.
    this.worker.postMessage({ id: next.id, image: next.image, rules: next.rules }, [next.image.buffer]);
  }

  /** Loads the models (in the worker) now: a reader that cannot load fails here, as before. */
  async warmUp(): Promise<void> {
    await this.start();
    this.pump();
  }

  async read(image: Buffer, rules: BibRules): Promise<BibReading[]> {
    if (this.closed) throw new Error('BIB reader closed');
    const copy = new Uint8Array(image); // the caller keeps its buffer; the worker gets this one
    const result = new Promise<BibReading[]>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, image: copy, rules, resolve, reject });
    });
    try {
      await this.start();
    } catch (error) {
      this.failAll(error instanceof Error ? error : new Error(String(error)));
    }
    this.pump();
    return result;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.failAll(new Error('BIB reader closed'));
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate();
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
