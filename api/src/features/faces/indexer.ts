import type { Db } from '../../db/db';
import type { ObjectStorage } from '../../storage/storage';
import type { FaceIndexStatus } from '@finishline/shared/pure';
import { faceDetector, type FaceDetector } from './detector';
import { saveFacesOfPhoto } from './embeddingStore';

/**
 * Background job that gives every image photo of a selfie-search event its face embeddings.
 * Jobs live in face_index_jobs, so progress survives restarts and several API processes share the
 * work: a process claims one photo at a time with a lease; a lease that runs out (the process died)
 * makes the photo claimable again. Photos are queued by a sweep, so any code that adds photos (the
 * demo seed, uploads) gets them indexed without calling in here; queuePhotosForFaces() only hurries it.
 */

const LEASE_SECONDS = 120;
const MAX_ATTEMPTS = 3;
const IDLE_POLL_MS = 3000;

/** Queues image photos of selfie-search events that have no job yet; returns how many were queued. */
export async function sweepNewPhotos(db: Db): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `with queued as (
       insert into face_index_jobs (photo_id, event_id)
       select p.id, p.event_id from photos p join events e on e.id = p.event_id
        where p.kind = 'image' and e.selfiesearch
          and not exists (select 1 from face_index_jobs j where j.photo_id = p.id)
       on conflict (photo_id) do nothing
       returning 1)
     select count(*)::int as n from queued`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Queues the given photos (again) for indexing, e.g. right after they were added or replaced; only
 * photos of selfie-search events (an event whose face data was deleted has selfie search off).
 */
export async function queuePhotosForFaces(db: Db, photoIds: number[]): Promise<void> {
  if (photoIds.length === 0) return;
  await db.query(
    `insert into face_index_jobs (photo_id, event_id, priority)
     select p.id, p.event_id, 1 from photos p join events e on e.id = p.event_id
      where p.id = any($1::int[]) and p.kind = 'image' and e.selfiesearch
     on conflict (photo_id) do update set status = 'pending', priority = 1, attempts = 0, error = null, lease_until = null, finished_at = null`,
    [photoIds],
  );
  activeIndexer?.wake();
}

interface ClaimedJob {
  [column: string]: unknown;
  photo_id: number;
  event_id: number;
  attempts: number;
  original_key: string;
}

async function claimNextJob(db: Db): Promise<ClaimedJob | null> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<ClaimedJob>(
      `update face_index_jobs j
          set status = 'running', attempts = j.attempts + 1, lease_until = now() + make_interval(secs => $1)
         from photos p
        where p.id = j.photo_id
          and j.photo_id = (
            select photo_id from face_index_jobs
             where status = 'pending' or (status = 'running' and lease_until < now())
             order by priority desc, created_at, photo_id
             limit 1
             for update skip locked)
        returning j.photo_id, j.event_id, j.attempts, p.original_key`,
      [LEASE_SECONDS],
    );
    return rows[0] ?? null;
  });
}

export async function faceIndexStatus(db: Db, eventId: number | null): Promise<FaceIndexStatus> {
  const rows = await db.query<{ status: string; n: number; faces: number }>(
    `select status, count(*)::int as n, coalesce(sum(face_count), 0)::int as faces
       from face_index_jobs where ($1::int is null or event_id = $1) group by status`,
    [eventId],
  );
  const count = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
  const total = rows.reduce((s, r) => s + r.n, 0);
  const done = count('done');
  const failed = count('failed');
  return {
    eventId,
    total,
    pending: count('pending'),
    running: count('running'),
    done,
    failed,
    faces: rows.reduce((s, r) => s + r.faces, 0),
    percent: total === 0 ? 100 : Math.floor(((done + failed) * 100) / total),
  };
}

export interface FaceIndexer {
  wake(): void;
  /** Resolves once no job is pending or running (tests, benchmarks). */
  whenIdle(): Promise<void>;
  stop(): Promise<void>;
  readonly processed: number;
}

let activeIndexer: (FaceIndexer & { wake(): void }) | null = null;

/** Starts the indexing loop in this process. Stop it before closing the database. */
export function startFaceIndexer(
  deps: {
    db: Db;
    storage: ObjectStorage;
    detector?: FaceDetector;
    /**
     * Pause after each photo, as a multiple of the time the photo took: 1 keeps the worker's core
     * half free for the rest of the machine (the API serving pages, a build); 0 runs flat out.
     */
    pauseRatio?: number;
  },
  log: (message: string) => void = () => undefined,
): FaceIndexer {
  const { db, storage } = deps;
  const pauseRatio = deps.pauseRatio ?? 0;
  const detector = deps.detector ?? faceDetector();
  let stopped = false;
  let processed = 0;
  let wakeUp: (() => void) | null = null;
  let idleWaiters: Array<() => void> = [];

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

  async function processOne(job: ClaimedJob): Promise<void> {
    try {
      const image = await storage.getBuffer(job.original_key);
      const faces = await detector.detect(image, 'index');
      await db.transaction(async (tx) => {
        // The job may have gone while the photo was read (the event's face data was deleted): save nothing then.
        const still = await tx.query('select 1 from face_index_jobs where photo_id = $1 for update', [job.photo_id]);
        if (still.length === 0) return;
        await saveFacesOfPhoto(tx, job.photo_id, job.event_id, faces);
        await tx.query(
          `update face_index_jobs set status = 'done', face_count = $2, error = null, lease_until = null, finished_at = now() where photo_id = $1`,
          [job.photo_id, faces.length],
        );
      });
      processed += 1;
    } catch (error) {
      if (stopped) return; // the lease runs out and another start picks the photo up again
      const message = error instanceof Error ? error.message : String(error);
      const status = job.attempts >= MAX_ATTEMPTS ? 'failed' : 'pending';
      await db.query(`update face_index_jobs set status = $2, error = $3, lease_until = null where photo_id = $1`, [job.photo_id, status, message]);
      log(`face index: photo ${job.photo_id} ${status === 'failed' ? 'failed' : 'will retry'}: ${message}`);
    }
  }

  const loop = (async () => {
    let reported = -1;
    while (!stopped) {
      try {
        await sweepNewPhotos(db);
        const job = await claimNextJob(db);
        if (!job) {
          for (const resolve of idleWaiters.splice(0)) resolve();
          await sleep(IDLE_POLL_MS);
          continue;
        }
        const started = Date.now();
        await processOne(job);
        if (pauseRatio > 0) await sleep((Date.now() - started) * pauseRatio);
        const status = await faceIndexStatus(db, null);
        // Progress in the log: every 25 photos and when the queue empties.
        if (status.pending === 0 || processed - reported >= 25) {
          reported = processed;
          log(`face index: ${status.done + status.failed}/${status.total} photos (${status.percent}%), ${status.faces} faces, ${status.failed} failed`);
        }
      } catch (error) {
        if (stopped) break;
        log(`face index: ${error instanceof Error ? error.message : String(error)}`);
        await sleep(IDLE_POLL_MS);
      }
    }
  })();

  const indexer = {
    wake() {
      wakeUp?.();
    },
    async whenIdle() {
      await new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        indexer.wake();
      });
    },
    async stop() {
      stopped = true;
      wakeUp?.();
      for (const resolve of idleWaiters.splice(0)) resolve();
      idleWaiters = [];
      await loop;
      if (activeIndexer === indexer) activeIndexer = null;
    },
    get processed() {
      return processed;
    },
  };
  activeIndexer = indexer;
  return indexer;
}
