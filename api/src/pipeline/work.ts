import type { AppContext } from '../context';
import type { WorkConfig } from '../config/config';
import { FACE_YIELD_TO_UPLOADS_MS, startFaceIndexer } from './faces';
import { startSupplyWorker } from './photos';
import { startVideoWorker } from './videos';
import { defaultReaderProcesses } from '../models/bibs';
import { acquireJobQueue } from '../queue/jobQueue';
import { startBackgroundJobs } from './scheduled/backgroundJobs';

/** What one process works of the job queue, as started by startWork. */
export interface Work {
  /** The parts this process works, for its start line ('photos', 'faces', 'videos', 'scheduled jobs'). */
  readonly parts: string[];
  /**
   * Stops taking jobs, lets the running ones finish for up to graceSeconds, then releases the queue.
   * A job still running after that is left to its heartbeat: once the process is gone, another
   * worker takes it again (its handler is idempotent), so nothing is lost and nothing is done twice.
   */
  stop(graceSeconds?: number): Promise<{ finished: boolean }>;
}

/**
 * Starts the work of the job queue in this process as the settings say: photo processing
 * (renditions, BIB reading), face indexing, video cutting and the scheduled jobs. The API process
 * calls it unless API_WORKS=false; a worker process (worker.ts) calls it and nothing else.
 */
export async function startWork(
  ctx: AppContext,
  settings: WorkConfig,
  log: (message: string) => void,
  // The queue's own errors (a lost connection, a failed supervision pass) are warnings, not progress.
  warn: (message: string) => void = log,
): Promise<Work> {
  const { queue, release } = await acquireJobQueue(ctx.db, warn, { monitorSeconds: ctx.config.jobs.monitorSeconds });
  // Face embeddings of event photos (the demo seed's included) at half a core by default
  // (FACE_INDEX_PAUSE=0: flat out). Uploaded photos waiting for their BIBs go first.
  const faceIndexer = settings.faceIndexing
    ? startFaceIndexer({ db: ctx.db, storage: ctx.storage, queue, pauseRatio: settings.faceIndexPause, yieldToUploadsMs: FACE_YIELD_TO_UPLOADS_MS }, log)
    : null;
  const supplyWorker = settings.photos
    ? await startSupplyWorker(ctx, queue, {
        concurrency: settings.photoConcurrency,
        ocrWorkers: settings.bibOcrWorkers,
        readerProcesses: settings.bibReaderProcesses ?? defaultReaderProcesses(),
        legacyCheck: settings.bibLegacyCheck,
        bibEngine: settings.bibEngine,
        ...(settings.bibReading ? {} : { reader: null }),
      })
    : null;
  // Finish-line videos: the BIB check shares the photo worker's reader.
  const videoWorker = settings.videos
    ? await startVideoWorker(ctx, queue, { reader: supplyWorker?.reader ?? null, concurrency: settings.videoConcurrency })
    : null;
  // Outbox mail, payment reconciliation and pruning: scheduled once across every process, worked by any.
  const backgroundJobs = settings.scheduledJobs ? await startBackgroundJobs(ctx, queue, log) : null;
  const parts = [supplyWorker && 'photos', faceIndexer && 'faces', videoWorker && 'videos', backgroundJobs && 'scheduled jobs'].filter((part): part is string =>
    Boolean(part),
  );

  let stopping: Promise<{ finished: boolean }> | null = null;
  const stopAll = async () => {
    await backgroundJobs?.stop();
    await faceIndexer?.stop();
    await videoWorker?.stop();
    await supplyWorker?.stop();
  };
  return {
    parts,
    stop(graceSeconds = settings.stopGraceSeconds) {
      stopping ??= (async () => {
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), graceSeconds * 1000);
        });
        const outcome = await Promise.race([stopAll().then(() => 'finished' as const), timedOut]);
        clearTimeout(timer);
        if (outcome === 'finished') await release();
        return { finished: outcome === 'finished' };
      })();
      return stopping;
    },
  };
}
