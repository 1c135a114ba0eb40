import os from 'node:os';
import { modelSettings } from '../../config/config';
import { SerialWorker, type ModelProcessStats } from '../workers/serialWorker';
import type { BibReader, BibReading, BibRules } from './index';

/**
 * Reader processes when BIB_READER_PROCESSES is not set: two where there are two cores. One process
 * reads one photo at a time (about 0.65 s of CPU), which leaves a core idle while the API receives and
 * renders the next photos; a second one reads the other photo worker's photo meanwhile.
 */
export function defaultReaderProcesses(): number {
  return Math.min(2, os.availableParallelism());
}

/**
 * How long a reader process may sit without a photo before it is let go (BIB_READER_IDLE_SECONDS, default
 * 60; 0 keeps it): between photos it keeps its detections' arena (ppocr.ts; 600-750 MB resident), which is worth
 * it while a batch is read and not on a quiet day. The next photo starts a new one (about 2 s of loading).
 */
export function defaultReaderIdleMs(): number {
  return modelSettings().bibReaderIdleMs;
}

/**
 * The model reader run in child processes (bibWorker.ts). Each reads one photo at a time, so it holds
 * one set of model activations, outside the API's process, and the API's thread stays free meanwhile.
 * A photo goes to the process with the fewest photos waiting; the first is started (its models loaded)
 * at once, the others when photos first overlap, so a machine that reads one photo at a time (tests,
 * a quiet day) keeps one. If a process dies, the photo it was reading fails (its job is retried) and
 * its next photo starts a new process.
 */
export class ThreadedBibReader implements BibReader {
  private readonly workers: Array<SerialWorker<{ readings: BibReading[] }>>;
  private closed = false;

  constructor(processes = defaultReaderProcesses(), idleMs = defaultReaderIdleMs()) {
    const count = Math.max(1, Math.floor(processes));
    this.workers = Array.from(
      { length: count },
      (_, index) =>
        new SerialWorker<{ readings: BibReading[] }>(
          new URL('./bibWorker', import.meta.url),
          index === 0 ? 'BIB reader' : `BIB reader ${index + 1}`,
          ['default'],
          { idleMs },
        ),
    );
  }

  /** Loads the first process's models now: a reader that cannot load fails here, as before. */
  async warmUp(): Promise<void> {
    await this.workers[0]!.warmUp();
  }

  async read(image: Buffer, rules: BibRules): Promise<BibReading[]> {
    if (this.closed) throw new Error('BIB reader closed');
    // The first process wins a tie, so a second one starts only when a photo would otherwise wait.
    const worker = this.workers.reduce((best, next) => (next.backlog < best.backlog ? next : best));
    return (await worker.run({ image, rules })).readings; // the bytes are copied to the child
  }

  /** Each process's figures, the first first (a pid of null: not started, or closed). */
  stats(): ModelProcessStats[] {
    return this.workers.map((worker) => worker.stats());
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((worker) => worker.close()));
  }
}

export async function createThreadedBibReader(processes?: number, idleMs?: number): Promise<ThreadedBibReader> {
  const reader = new ThreadedBibReader(processes, idleMs);
  try {
    await reader.warmUp();
  } catch (error) {
    await reader.close();
    throw error;
  }
  return reader;
}
