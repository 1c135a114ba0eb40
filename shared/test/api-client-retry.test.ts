import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { call, isApiError, setRuntimeConfig } from '@finishline/shared/runtime';
import { REQUEST_IN_PROGRESS_MESSAGE } from '../src/api/retryPolicy';

/**
 * The shared client's call() against a real local HTTP server (no axios mock): each path answers
 * from a script of statuses, one per attempt, and records what every attempt sent.
 */
describe('call() retries as the retry policy says', () => {
  let server: http.Server;
  const scripts = new Map<string, number[]>();
  const received = new Map<string, Array<{ method: string; key: string | undefined; at: number }>>();

  const envelopeOf = (status: number) => ({
    StatusCode: status,
    Message: status === 200 ? 'Success' : status === 409 ? REQUEST_IN_PROGRESS_MESSAGE : `failed ${status}`,
    HasError: status !== 200,
    result: status === 200 ? { ok: true } : null,
  });
  const attemptsAt = (path: string) => received.get(path) ?? [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const path = req.url ?? '/';
        const seen = received.get(path) ?? [];
        seen.push({ method: req.method ?? '', key: req.headers['idempotency-key'] as string | undefined, at: Date.now() });
        received.set(path, seen);
        const script = scripts.get(path) ?? [200];
        const code = script[Math.min(seen.length - 1, script.length - 1)]!;
        if (code === 0) {
          // No answer at all: the connection is cut, as when an instance dies mid-request.
          req.socket.destroy();
          return;
        }
        res.writeHead(code, { 'content-type': 'application/json', ...(code === 409 ? { 'retry-after': '1' } : {}) });
        res.end(JSON.stringify(envelopeOf(code)));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    setRuntimeConfig({ apiBaseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('a GET answered 503 once is sent again after about 300 ms and its 200 reaches the page', async () => {
    scripts.set('/flaky-read', [503, 200]);
    const answer = await call<{ ok: boolean }>({ method: 'GET', url: '/flaky-read' });
    expect(answer.result).toEqual({ ok: true });
    const attempts = attemptsAt('/flaky-read');
    expect(attempts.map((a) => a.method)).toEqual(['GET', 'GET']);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(290);
    expect(attempts[0]!.key).toBeUndefined();
  });

  it('a 500 is not retried: the page gets its message', async () => {
    scripts.set('/broken', [500, 200]);
    const failure = await call({ method: 'GET', url: '/broken' }).catch((error: unknown) => error);
    expect(isApiError(failure) && failure.message).toBe('failed 500');
    expect(attemptsAt('/broken')).toHaveLength(1);
  });

  it('a POST whose connection was cut, then answered 409 (still running), is sent again with the same Idempotency-Key', async () => {
    scripts.set('/order', [0, 409, 200]);
    expect((await call({ method: 'POST', url: '/order', data: { a: 1 } })).result).toEqual({ ok: true });
    const keys = attemptsAt('/order').map((a) => a.key);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    // The 409's Retry-After (1 s) is waited out.
    expect(attemptsAt('/order')[2]!.at - attemptsAt('/order')[1]!.at).toBeGreaterThanOrEqual(990);
    // A second logical call gets a key of its own.
    await call({ method: 'POST', url: '/order', data: { a: 1 } });
    expect(attemptsAt('/order')[3]!.key).not.toBe(keys[0]);
  });

  it('gives up after two retries, and never retries a multipart POST (it carries no key)', async () => {
    scripts.set('/down', [503]);
    const failure = await call({ method: 'GET', url: '/down' }).catch((error: unknown) => error);
    expect(isApiError(failure) && failure.statusCode).toBe(503);
    expect(attemptsAt('/down')).toHaveLength(3);
    scripts.set('/upload', [503, 200]);
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.txt');
    await expect(call({ method: 'POST', url: '/upload', data: form })).rejects.toThrow('failed 503');
    expect(attemptsAt('/upload')).toEqual([expect.objectContaining({ method: 'POST', key: undefined })]);
  });
});
