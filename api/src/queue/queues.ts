import type { JobQueue } from './jobQueue';

/**
 * Every queue of the job queue, named and defined in this one place. The API's routes send to them
 * (an upload, a video's clock); the pipeline's workers (api/src/pipeline) work them. Whoever sends
 * or works a queue defines it first (defining is idempotent across processes).
 */

/** Uploaded photos to process: renditions, BIB reading, then face indexing (pipeline/photos.ts). */
export const PHOTO_QUEUE = 'photo-process';
/**
 * The worker refreshes a running photo's heartbeat every 10 s; one not refreshed for 20 s (its
 * process died) is retried then, by another process, instead of after its expiry (300 s).
 */
export const PHOTO_HEARTBEAT_SECONDS = 20;

/** Pieces of a finish-line video to cut into finishers' clips (pipeline/videos.ts). */
export const VIDEO_QUEUE = 'video-cut';
/** A worker refreshes a running piece's heartbeat; a piece whose heartbeat stops (its process died) is retried by another process. */
export const VIDEO_HEARTBEAT_SECONDS = 30;

/** Photos of selfie-search events to find faces in (pipeline/faces.ts). */
export const FACE_QUEUE = 'face-index';
/** Attempts of one photo's face indexing in all. */
export const FACE_MAX_ATTEMPTS = 3;

/** The scheduled jobs (pipeline/scheduled/backgroundJobs.ts): one job per schedule tick across every process. */
export const MAIL_JOB = 'mail-outbox';
export const RECONCILE_JOB = 'payment-reconcile';
export const PRUNE_JOB = 'prune-expired';
export const CLEAN_ORIGINALS_JOB = 'clean-originals';
export const PRINT_FILES_JOB = 'print-files';
export const PRINT_REFUNDS_JOB = 'print-refunds';
export const CANARY_WATCH_JOB = 'canary-watch';

/** Three attempts in all; an attempt still running after 300 s is taken as lost and retried. */
export async function definePhotoQueue(queue: JobQueue, retryDelaySeconds = 2): Promise<void> {
  await queue.define(PHOTO_QUEUE, { retryLimit: 2, retryDelaySeconds, expireInSeconds: 300, heartbeatSeconds: PHOTO_HEARTBEAT_SECONDS });
}

export async function defineVideoQueue(queue: JobQueue, retryDelaySeconds = 5): Promise<void> {
  await queue.define(VIDEO_QUEUE, { retryLimit: 2, retryDelaySeconds, expireInSeconds: 1800, heartbeatSeconds: VIDEO_HEARTBEAT_SECONDS });
}

export async function defineFaceQueue(queue: JobQueue): Promise<void> {
  // The worker's yield to uploads comes before its claim, inside the job's run: the expiry allows for it.
  await queue.define(FACE_QUEUE, { retryLimit: FACE_MAX_ATTEMPTS - 1, retryDelaySeconds: 1, expireInSeconds: 120, heartbeatSeconds: 20 });
}

/** mailRetrySeconds: the wait after a failed outbox delivery (MAIL_RETRY_SECONDS), doubled per failure. */
export async function defineScheduledQueues(queue: JobQueue, mailRetrySeconds: number): Promise<void> {
  // A failed delivery throws, so pg-boss retries the job with backoff; each mail keeps its own next attempt time too.
  await queue.define(MAIL_JOB, { retryLimit: 5, retryDelaySeconds: mailRetrySeconds, retryBackoff: true, expireInSeconds: 600, policy: 'stately' });
  await queue.define(RECONCILE_JOB, { retryLimit: 1, retryDelaySeconds: 30, expireInSeconds: 900, policy: 'stately' });
  await queue.define(PRUNE_JOB, { retryLimit: 1, retryDelaySeconds: 60, expireInSeconds: 900, policy: 'stately' });
  // A run works for at most 4 minutes; the next tick goes on where it stopped.
  await queue.define(CLEAN_ORIGINALS_JOB, { retryLimit: 1, retryDelaySeconds: 60, expireInSeconds: 600, policy: 'stately' });
  // Print-ready files of paid print lines: each run works the queue to its end or for 45 s (a collage takes seconds).
  await queue.define(PRINT_FILES_JOB, { retryLimit: 1, retryDelaySeconds: 60, expireInSeconds: 600, policy: 'stately' });
  // Refunds the gateway did not accept yet: asked again when due (each keeps its own next attempt).
  await queue.define(PRINT_REFUNDS_JOB, { retryLimit: 1, retryDelaySeconds: 60, expireInSeconds: 600, policy: 'stately' });
  // A canary's errors per view against the current release's; past the remote's threshold it rolls back.
  await queue.define(CANARY_WATCH_JOB, { retryLimit: 0, retryDelaySeconds: 30, expireInSeconds: 120, policy: 'stately' });
}

/** Every queue at once: what a process that only sends (the API with API_WORKS=false) defines on start. */
export async function defineQueues(queue: JobQueue, mailRetrySeconds: number): Promise<void> {
  await definePhotoQueue(queue);
  await defineVideoQueue(queue);
  await defineFaceQueue(queue);
  await defineScheduledQueues(queue, mailRetrySeconds);
}
