import type { Db } from '../db/db';
import type { ObjectStorage } from '../storage/storage';
import { faceDetector, type FaceDetector } from '../models/faces/detector';
import { acquireJobQueue, type JobAttempt, type JobQueue } from '../queue/jobQueue';
import { defineFaceQueue, FACE_MAX_ATTEMPTS, FACE_QUEUE } from '../queue/queues';
import { faceIndexStatus, onFacesQueued, saveFacesOfPhoto, sweepNewPhotos } from '../features/faces';

/**
 * Background work that gives every image photo of a selfie-search event its face embeddings. The
 * rows of face_index_jobs (features/faces/faceJobs.ts) say which photos need it; the work runs on the
 * job queue (queue/jobQueue.ts), so several processes share it and a job whose process died is
 * claimed again.
 */

/** How long the face worker lets uploaded photos go first, per photo, before it claims the photo (well inside the job's expiry). */
export const FACE_YIELD_TO_UPLOADS_MS = 45_000;
const IDLE_POLL_MS = 3000;

interface ClaimedJob {
  [column: string]: unknown;
  photo_id: number;
  event_id: number;
  attempts: number;
  original_key: string;
}

/**
 * A running row is held by one attempt of a queue job (claim_job, claim_retry). Whether that attempt
 * still lives is the job queue's to say: a job whose worker died stops being active once its
 * heartbeat runs out (queues.ts), and is then retried or failed. This is the SQL for "the holder's
 * job is gone" (completed, failed, or no longer kept); j is the face_index_jobs row.
 */
function holderGone(queue: JobQueue): string {
  return `not exists (select 1 from ${queue.jobTable} b
                       where b.name = '${FACE_QUEUE}' and b.id = j.claim_job and b.state in ('created', 'retry', 'active'))`;
}

/**
 * Hands pending rows to the queue, once each, and rows left running by an attempt whose job is gone
 * (its process died and the queue gave the job up): those go out again, or are failed once they
 * used up their attempts (a photo that kills its worker each time must not go round for ever).
 * Returns how many were handed over.
 */
export async function dispatchFaceJobs(db: Db, queue: JobQueue): Promise<number> {
  await db.query(
    `update face_index_jobs j set status = 'failed', error = $2, claim_job = null, claim_retry = null, queued_at = null, finished_at = now()
      where j.status = 'running' and j.attempts >= $1 and ${holderGone(queue)}`,
    [FACE_MAX_ATTEMPTS, `The worker stopped during each of its ${FACE_MAX_ATTEMPTS} attempts at this photo.`],
  );
  const rows = await db.query<{ photo_id: number; priority: number }>(
    `update face_index_jobs j set queued_at = now(), status = 'pending', claim_job = null, claim_retry = null
      where (j.status = 'pending' and j.queued_at is null) or (j.status = 'running' and ${holderGone(queue)})
      returning photo_id, priority`,
  );
  for (const priority of [...new Set(rows.map((r) => r.priority))]) {
    await queue.sendMany(
      FACE_QUEUE,
      rows.filter((r) => r.priority === priority).map((r) => ({ photoId: r.photo_id })),
      { priority },
    );
  }
  return rows.length;
}

/**
 * Takes the photo's row for this attempt; null when there is nothing to do: done already, gone, or
 * held by another job that still lives (a second delivery of the same photo). A row held by an
 * earlier attempt of this same job is taken over: the queue retries a job only once it has given the
 * earlier attempt up.
 */
async function claimJob(db: Db, queue: JobQueue, photoId: number, attempt: JobAttempt): Promise<ClaimedJob | null> {
  const rows = await db.query<ClaimedJob>(
    `update face_index_jobs j
        set status = 'running', attempts = j.attempts + 1, claim_job = $2::uuid, claim_retry = $3
       from photos p
      where p.id = j.photo_id and j.photo_id = $1
        and (j.status = 'pending' or (j.status = 'running' and (j.claim_job is null or j.claim_job = $2::uuid or ${holderGone(queue)})))
      returning j.photo_id, j.event_id, j.attempts, p.original_key`,
    [photoId, attempt.id, attempt.retryCount],
  );
  return rows[0] ?? null;
}

/** The row is still held by this attempt: it was neither taken over, queued again, nor deleted with the event's face data. */
const HELD_BY_ATTEMPT = `photo_id = $1 and status = 'running' and claim_job = $2::uuid and claim_retry = $3`;

export interface FaceIndexer {
  wake(): void;
  /** Resolves once no photo is pending or running (tests, benchmarks). */
  whenIdle(): Promise<void>;
  stop(): Promise<void>;
  readonly processed: number;
}

/** Starts indexing in this process: a sweep that queues photos, and a worker on the face queue. Stop it before closing the database. */
export function startFaceIndexer(
  deps: {
    db: Db;
    storage: ObjectStorage;
    detector?: FaceDetector;
    /** The process's job queue; without it the indexer takes the database's shared one. */
    queue?: JobQueue;
    /**
     * Pause after each photo, as a multiple of the time the photo took: 1 keeps the worker's core
     * half free for the rest of the machine (the API serving pages, a build); 0 runs flat out.
     */
    pauseRatio?: number;
    /**
     * While uploaded photos wait to be made searchable by BIB (anywhere on the shared queue), the
     * face worker waits up to this long before each photo, so the cores go to BIB reading first. 0: never.
     */
    yieldToUploadsMs?: number;
  },
  log: (message: string) => void = () => undefined,
): FaceIndexer {
  const { db, storage } = deps;
  const pauseRatio = deps.pauseRatio ?? 0;
  const detector = deps.detector ?? faceDetector();
  let stopped = false;
  let processed = 0;
  let wakeUp: (() => void) | null = null;
  let reported = -1;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });

  /**
   * Waits while uploaded photos are still being read for BIBs, up to yieldToUploadsMs. Clips of a
   * finish-line video wait on the video's cut, not on a reader, so they are no reason to wait.
   */
  async function yieldToUploads(): Promise<void> {
    const until = Date.now() + (deps.yieldToUploadsMs ?? 0);
    while (!stopped && Date.now() < until) {
      const [waiting] = await db.query<{ busy: boolean }>(
        `select exists (select 1 from photos where status = 'processing' and kind = 'image' and source_video_id is null) as busy`,
      );
      if (!waiting?.busy) return;
      await sleep(Math.min(1000, until - Date.now()));
    }
  }

  async function indexPhoto(photoId: number, attempt: JobAttempt): Promise<void> {
    await yieldToUploads();
    const { queue } = await acquired;
    const job = await claimJob(db, queue, photoId, attempt);
    if (!job) return;
    const holder = [job.photo_id, attempt.id, attempt.retryCount];
    const started = Date.now();
    try {
      const image = await storage.getBuffer(job.original_key);
      const faces = await detector.detect(image, 'index');
      await db.transaction(async (tx) => {
        // Only the attempt that still holds the claim saves: a slower attempt the queue gave up (its
        // heartbeat stopped, and the photo was taken again), or one overtaken by a re-queue of the
        // photo, saves nothing. The row may also have gone (the event's face data was deleted).
        const still = await tx.query(`select 1 from face_index_jobs where ${HELD_BY_ATTEMPT} for update`, holder);
        if (still.length === 0) return;
        // Replaces the photo's faces in this transaction: a second run leaves one set, not two.
        await saveFacesOfPhoto(tx, job.photo_id, job.event_id, faces);
        await tx.query(
          `update face_index_jobs set status = 'done', face_count = $4, error = null, claim_job = null, claim_retry = null, finished_at = now(), queued_at = null
            where ${HELD_BY_ATTEMPT}`,
          [...holder, faces.length],
        );
      });
      processed += 1;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const final = attempt.lastAttempt || job.attempts >= FACE_MAX_ATTEMPTS;
      // Only while this attempt still holds the claim: a failure must not undo another attempt's work.
      await db.query(
        `update face_index_jobs set status = $4, error = $5, claim_job = null, claim_retry = null, queued_at = case when $4 = 'failed' then null else queued_at end
          where ${HELD_BY_ATTEMPT}`,
        [...holder, final ? 'failed' : 'pending', message],
      );
      log(`face index: photo ${job.photo_id} ${final ? 'failed' : 'will retry'}: ${message}`);
      // The queue records the error and retries the job (the row above says what became of the photo).
      throw error;
    } finally {
      if (pauseRatio > 0 && !stopped) await sleep((Date.now() - started) * pauseRatio);
    }
    const status = await faceIndexStatus(db, null);
    // Progress in the log: every 25 photos and when the queue empties.
    if (status.pending === 0 || processed - reported >= 25) {
      reported = processed;
      log(`face index: ${status.done + status.failed}/${status.total} photos (${status.percent}%), ${status.faces} faces, ${status.failed} failed`);
    }
  }

  const acquired = deps.queue ? Promise.resolve({ queue: deps.queue, release: async () => undefined }) : acquireJobQueue(db, log);
  const ready = (async () => {
    const { queue } = await acquired;
    await defineFaceQueue(queue);
    await queue.work<{ photoId: number }>(FACE_QUEUE, 1, (data, attempt) => indexPhoto(data.photoId, attempt));
    return queue;
  })();

  // The sweep: new photos get rows, pending rows go to the queue.
  const loop = (async () => {
    const queue = await ready.catch((error: unknown) => {
      log(`face index: the job queue did not start: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    });
    while (!stopped && queue) {
      try {
        await sweepNewPhotos(db);
        await dispatchFaceJobs(db, queue);
      } catch (error) {
        if (stopped) break;
        log(`face index: ${error instanceof Error ? error.message : String(error)}`);
      }
      await sleep(IDLE_POLL_MS);
    }
  })();

  const indexer: FaceIndexer = {
    wake() {
      wakeUp?.();
    },
    async whenIdle() {
      const queue = await ready;
      for (;;) {
        await sweepNewPhotos(db);
        await dispatchFaceJobs(db, queue);
        const open = await db.query<{ n: number }>(`select count(*)::int as n from face_index_jobs where status in ('pending', 'running')`);
        if ((open[0]?.n ?? 0) === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async stop() {
      stopped = true;
      wakeUp?.();
      await loop;
      const queue = await ready.catch(() => null);
      await queue?.offWork(FACE_QUEUE);
      await (await acquired.catch(() => null))?.release();
      stopListening();
    },
    get processed() {
      return processed;
    },
  };
  const stopListening = onFacesQueued(() => indexer.wake());
  return indexer;
}
