/**
 * The supply line's promise under load (docs/supply-line.md, "When many photos arrive"): an
 * uploaded photo is findable within about a minute. When more photos wait than the line clears in
 * that minute, the photographer is told how long it will be instead. One rule for the API (which
 * answers the estimate) and the partner remote (which words it).
 */

/** The promise: an uploaded photo is findable within about this many seconds. */
export const FINDABLE_PROMISE_SECONDS = 60;

/**
 * The line's rate when none was measured lately (workers idle or just started), in photos a minute:
 * one photo a second, near the slow end of what bench:upload measured on two cores (0.8 to 1.9 photos/s),
 * so that an estimate without a measure errs long rather than short.
 */
export const FALLBACK_PHOTOS_PER_MINUTE = 60;

/**
 * Seconds until the last of `waitingAhead` photos (every photo waiting on the line ahead of and
 * including the photographer's own) is processed at `photosPerMinute`, rounded up; null when that
 * is within the promise (nothing to say). Without a usable rate (null, zero, not finite) the
 * fallback rate is used, so the answer is never infinite.
 */
export function findableInSeconds(waitingAhead: number, photosPerMinute: number | null, promiseSeconds: number = FINDABLE_PROMISE_SECONDS): number | null {
  if (!(waitingAhead > 0)) return null;
  const rate = photosPerMinute !== null && Number.isFinite(photosPerMinute) && photosPerMinute > 0 ? photosPerMinute : FALLBACK_PHOTOS_PER_MINUTE;
  const seconds = Math.ceil((waitingAhead * 60) / rate);
  return seconds > promiseSeconds ? seconds : null;
}

/**
 * What the upload and review screens say for an estimate (null: nothing): minutes rounded up, and
 * "a minute or two" under two minutes.
 */
export function findableWaitMessage(estimateSeconds: number | null): string | null {
  if (estimateSeconds === null) return null;
  const when = estimateSeconds < 120 ? 'in about a minute or two' : `in about ${Math.ceil(estimateSeconds / 60)} minutes`;
  return `Many photos are arriving right now: your photos will be findable ${when}. You can keep uploading.`;
}
