/**
 * When the browser's API client sends a request again. The API runs as several instances behind a
 * load balancer: an instance that dies mid-request gives a network error or a 502/503/504, and the
 * next attempt reaches a live one. Only a request that cannot do its work twice is sent again: a
 * read (GET/HEAD/OPTIONS), a PUT/DELETE, or a POST/PATCH carrying an Idempotency-Key, which the API
 * answers with the first attempt's stored response instead of doing the work again.
 */

/** The request header naming one logical call; every attempt of that call sends the same value. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set on an answer the API replays from an earlier attempt of the same call. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
/** 409: an earlier attempt with the same key is still running; the client waits and asks again. */
export const REQUEST_IN_PROGRESS_MESSAGE = 'This request is still being processed. Please try again in a moment.';
/** 422: the key was used before for another request (another body or route). */
export const IDEMPOTENCY_KEY_REUSED_MESSAGE =
  'This request does not match the earlier request sent with the same Idempotency-Key. Please reload the page and try again.';

/** Methods that do the same thing however often they arrive. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
/** Methods whose calls carry an Idempotency-Key. */
const KEYED_METHODS = new Set(['POST', 'PATCH']);
/** Answers of a proxy whose instance died or was unreachable, or of an instance that did nothing. */
const RETRYABLE_STATUSES = new Set([502, 503, 504]);

/** The wait before the first and the second retry; there is no third. */
export const RETRY_DELAYS_MS: readonly number[] = [300, 1000];
/** A Retry-After longer than this is cut to it: the page is waiting. */
const LONGEST_WAIT_MS = 5000;

/** What one attempt came back with. */
export type AttemptOutcome =
  /** No answer at all: the connection failed or was dropped, or the client's timeout passed. */
  | { kind: 'no-response'; timedOut: boolean }
  /**
   * An HTTP answer. inProgress: the API's 409 saying an earlier attempt of this call is still
   * running. retryAfterMs: the answer's Retry-After, when it had one.
   */
  | { kind: 'response'; status: number; inProgress?: boolean; retryAfterMs?: number };

export interface RetryRequest {
  method: string;
  hasIdempotencyKey: boolean;
}

export type RetryDecision = { retry: true; afterMs: number } | { retry: false };

/** Whether a call with this method (and body) gets an Idempotency-Key: POST/PATCH of JSON or form fields. */
export function takesIdempotencyKey(method: string, body?: unknown): boolean {
  if (!KEYED_METHODS.has(method.toUpperCase())) return false;
  // Multipart uploads and raw bytes are not stored by the API, so they are never replayed.
  if (typeof FormData !== 'undefined' && body instanceof FormData) return false;
  if (typeof Blob !== 'undefined' && body instanceof Blob) return false;
  return !(body instanceof ArrayBuffer || ArrayBuffer.isView(body));
}

/**
 * Whether to send the call again after its attempt number `attempt` (1 for the first) came back with
 * `outcome`, and after how long. Never after a 500 or a 4xx (the server answered; asking again gets
 * the same), never more than RETRY_DELAYS_MS.length retries, and a POST/PATCH without a key never.
 */
export function retryDecision(request: RetryRequest, attempt: number, outcome: AttemptOutcome): RetryDecision {
  const backoff = RETRY_DELAYS_MS[attempt - 1];
  if (backoff === undefined) return { retry: false };
  const method = request.method.toUpperCase();
  const repeatable = IDEMPOTENT_METHODS.has(method) || (KEYED_METHODS.has(method) && request.hasIdempotencyKey);
  if (!repeatable) return { retry: false };
  if (outcome.kind === 'no-response') return { retry: true, afterMs: backoff };
  const wanted = RETRYABLE_STATUSES.has(outcome.status) || (outcome.status === 409 && outcome.inProgress === true && request.hasIdempotencyKey);
  if (!wanted) return { retry: false };
  return { retry: true, afterMs: Math.max(backoff, Math.min(outcome.retryAfterMs ?? 0, LONGEST_WAIT_MS)) };
}

/** Retry-After in milliseconds (seconds form only, as the API sends it); undefined when absent or a date. */
export function retryAfterMs(header: string | null | undefined): number | undefined {
  if (!header || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header.trim()) * 1000;
}

/**
 * A random version-4 UUID, made once per logical call. getRandomValues, not randomUUID: the latter
 * exists only on secure (https or localhost) pages.
 */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
