import { describe, expect, it } from '@jest/globals';
import { newIdempotencyKey, RETRY_DELAYS_MS, retryAfterMs, retryDecision, takesIdempotencyKey, type AttemptOutcome } from '../src/api/retryPolicy';

const noAnswer: AttemptOutcome = { kind: 'no-response', timedOut: false };
const timedOut: AttemptOutcome = { kind: 'no-response', timedOut: true };
const status = (code: number, extra: Partial<Extract<AttemptOutcome, { kind: 'response' }>> = {}): AttemptOutcome => ({
  kind: 'response',
  status: code,
  ...extra,
});

describe('the API client retry policy', () => {
  it('retries reads after no answer or a 502/503/504, 300 ms then 1 s, and at most twice', () => {
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'get']) {
      for (const outcome of [noAnswer, timedOut, status(502), status(503), status(504)]) {
        const request = { method, hasIdempotencyKey: false };
        expect([1, 2, 3].map((attempt) => retryDecision(request, attempt, outcome))).toEqual([
          { retry: true, afterMs: 300 },
          { retry: true, afterMs: 1000 },
          { retry: false },
        ]);
      }
    }
    expect(RETRY_DELAYS_MS).toEqual([300, 1000]);
  });

  it('never retries a 500, a 4xx or a success', () => {
    for (const code of [200, 201, 400, 401, 403, 404, 409, 422, 429, 500, 501]) {
      expect(retryDecision({ method: 'GET', hasIdempotencyKey: false }, 1, status(code))).toEqual({ retry: false });
      expect(retryDecision({ method: 'POST', hasIdempotencyKey: true }, 1, status(code))).toEqual({ retry: false });
    }
  });

  it('retries a POST/PATCH only when it carries an Idempotency-Key, a timeout included', () => {
    for (const method of ['POST', 'PATCH']) {
      for (const outcome of [noAnswer, timedOut, status(502), status(503), status(504)]) {
        expect(retryDecision({ method, hasIdempotencyKey: false }, 1, outcome)).toEqual({ retry: false });
        expect(retryDecision({ method, hasIdempotencyKey: true }, 1, outcome)).toEqual({ retry: true, afterMs: 300 });
        expect(retryDecision({ method, hasIdempotencyKey: true }, 3, outcome)).toEqual({ retry: false });
      }
    }
  });

  it("waits and asks again after the API's 409 'still being processed', honouring Retry-After up to 5 s", () => {
    const keyed = { method: 'POST', hasIdempotencyKey: true };
    expect(retryDecision(keyed, 1, status(409, { inProgress: true, retryAfterMs: 1000 }))).toEqual({ retry: true, afterMs: 1000 });
    expect(retryDecision(keyed, 2, status(409, { inProgress: true }))).toEqual({ retry: true, afterMs: 1000 });
    expect(retryDecision(keyed, 1, status(503, { retryAfterMs: 60_000 }))).toEqual({ retry: true, afterMs: 5000 });
    // Any other 409 (an email already registered) is an answer.
    expect(retryDecision(keyed, 1, status(409))).toEqual({ retry: false });
    expect(retryDecision({ method: 'POST', hasIdempotencyKey: false }, 1, status(409, { inProgress: true }))).toEqual({ retry: false });
  });

  it('gives POST/PATCH of JSON a key, not multipart or raw bytes, and never a read', () => {
    expect(takesIdempotencyKey('POST', { a: 1 })).toBe(true);
    expect(takesIdempotencyKey('patch', undefined)).toBe(true);
    expect(takesIdempotencyKey('POST', new URLSearchParams({ a: '1' }))).toBe(true);
    expect(takesIdempotencyKey('POST', new FormData())).toBe(false);
    expect(takesIdempotencyKey('POST', new Blob(['x']))).toBe(false);
    expect(takesIdempotencyKey('PATCH', new Uint8Array(4))).toBe(false);
    expect(takesIdempotencyKey('GET', undefined)).toBe(false);
    expect(takesIdempotencyKey('PUT', { a: 1 })).toBe(false);
  });

  it('makes a fresh version-4 UUID per call and reads Retry-After seconds', () => {
    const keys = new Set(Array.from({ length: 100 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(' 1 ')).toBe(1000);
    expect(retryAfterMs('Wed, 21 Oct 2026 07:28:00 GMT')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
