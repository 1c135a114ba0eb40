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

/**
 * A claim on a photo lasts this long and is renewed every third of it while its attempt works, so
 * the photo of a process that died is handed out again by the sweep within about this long.
 */
const LEASE_SECONDS = 45;
/** How long the face worker lets uploaded photos go first, per photo, before it claims the photo (well inside the job's expiry). */
export const FACE_YIELD_TO_UPLOADS_MS = 45_000;
const IDLE_POLL_MS = 3000;

interface ClaimedJob {
  [column: string]: unknown;
  photo_id: number;
  event_id: number;
  attempts: number;
  original_key: string;
  /** This claim's lease end, as the database stored it (text, to compare exactly): the claim's token. */
  lease: string;
}

/**
 * Hands pending rows (and rows whose worker died: running past their lease) to the queue, once each.
 * Returns how many were handed over.
 */
export async function dispatchFaceJobs(db: Db, queue: JobQueue): Promise<number> {
  const rows = await db.query<{ photo_id: number; priority: number }>(
    `update face_index_jobs set queued_at = now()
      where (status = 'pending' and queued_at is null) or (status = 'running' and lease_until < now())
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
 * Takes the photo's row for this attempt; null when there is nothing to do (done already, gone, or
 * held by another attempt whose lease still runs: the sweep hands it out again once that lease ends).
 * clock_timestamp() makes each claim's lease end differ from the one before, even in one transaction.
 */
async function claimJob(db: Db, photoId: number): Promise<ClaimedJob | null> {
  const rows = await db.query<ClaimedJob>(
    `update face_index_jobs j
        set status = 'running', attempts = j.attempts + 1, lease_until = clock_timestamp() + make_interval(secs => $2)
       from photos p
      where p.id = j.photo_id and j.photo_id = $1
        and (j.status = 'pending' or (j.status = 'running' and (j.lease_until is null or j.lease_until < now())))
      returning j.photo_id, j.event_id, j.attempts, p.original_key, j.lease_until::text as lease`,
    [photoId, LEASE_SECONDS],
  );
  return rows[0] ?? null;
}

/** While a photo is analysed, its lease is pushed on (a slow photo is not handed to a second worker); false once the claim is lost. */
async function renewLease(db: Db, job: ClaimedJob): Promise<boolean> {
  const rows = await db.query<{ lease: string }>(
    `update face_index_jobs set lease_until = clock_timestamp() + make_interval(secs => $3)
      where photo_id = $1 and status = 'running' and lease_until::text = $2
      returning lease_until::text as lease`,
    [job.photo_id, job.lease, LEASE_SECONDS],
  );
  if (!rows[0]) return false;
  job.lease = rows[0].lease;
  return true;
}

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

  /** Waits while uploaded photos are still being processed, up to yieldToUploadsMs. */
  async function yieldToUploads(): Promise<void> {
    const until = Date.now() + (deps.yieldToUploadsMs ?? 0);
    while (!stopped && Date.now() < until) {
      const [waiting] = await db.query<{ busy: boolean }>(`select exists (select 1 from photos where status = 'processing') as busy`);
      if (!waiting?.busy) return;
      await sleep(Math.min(1000, until - Date.now()));
    }
  }

  async function indexPhoto(photoId: number, attempt: JobAttempt): Promise<void> {
    await yieldToUploads();
    const job = await claimJob(db, photoId);
    if (!job) return;
    const started = Date.now();
    // The lease is renewed at a third of its length while this attempt works.
    let renewing = Promise.resolve(true);
    const renewal = setInterval(
      () => {
        renewing = renewing.then(() => renewLease(db, job).catch(() => true));
      },
      (LEASE_SECONDS * 1000) / 3,
    );
    renewal.unref();
    try {
      const image = await storage.getBuffer(job.original_key);
      const faces = await detector.detect(image, 'index');
      clearInterval(renewal);
      await renewing;
      await db.transaction(async (tx) => {
        // Only the attempt that still holds the claim saves: a slower attempt whose lease ran out (and
        // was claimed again), or one overtaken by a re-queue of the photo, saves nothing. The job may
        // also have gone (the event's face data was deleted): nothing is saved then either.
        const still = await tx.query(`select 1 from face_index_jobs where photo_id = $1 and status = 'running' and lease_until::text = $2 for update`, [
          job.photo_id,
          job.lease,
        ]);
        if (still.length === 0) return;
        // Replaces the photo's faces in this transaction: a second run leaves one set, not two.
        await saveFacesOfPhoto(tx, job.photo_id, job.event_id, faces);
        await tx.query(
          `update face_index_jobs set status = 'done', face_count = $2, error = null, lease_until = null, finished_at = now(), queued_at = null where photo_id = $1`,
          [job.photo_id, faces.length],
        );
      });
      processed += 1;
    } catch (error) {
      clearInterval(renewal);
      const message = error instanceof Error ? error.message : String(error);
      const final = attempt.lastAttempt || job.attempts >= FACE_MAX_ATTEMPTS;
      // Only while this attempt still holds the claim: a failure must not undo another attempt's work.
      await db.query(
        `update face_index_jobs set status = $2, error = $3, lease_until = null, queued_at = case when $2 = 'failed' then null else queued_at end
          where photo_id = $1 and status = 'running' and lease_until::text = $4`,
        [job.photo_id, final ? 'failed' : 'pending', message, job.lease],
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
