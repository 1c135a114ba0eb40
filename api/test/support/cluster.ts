import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  newIdempotencyKey,
  REQUEST_IN_PROGRESS_MESSAGE,
  retryAfterMs,
  retryDecision,
  takesIdempotencyKey,
  type AttemptOutcome,
} from '@finishline/shared/pure';
import { REPO_ROOT } from '../../src/config/config';

/**
 * Several real API processes (the `pnpm start` entry point, api/src/main.ts) on one database, and a
 * small round-robin proxy in front of them: the test's stand-in for a deployment behind a load
 * balancer. Test support only; the product has no proxy of its own.
 */

/**
 * tsx's loader in the server's own process, not tsx's CLI: the CLI runs the server in a child
 * process that a SIGKILL of the CLI would leave running.
 */
export const TSX_LOADER = pathToFileURL(path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

export interface ApiInstance {
  name: string;
  url: string;
  /** The API process's pid (its model processes, if any, are its children). */
  pid: number;
  /** Stops the process at once (SIGKILL to its process group; no shutdown hook runs, as when a machine dies). */
  kill(): void;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  /** What it wrote to stdout and stderr, for a failure message. */
  output(): string;
}

export interface EntryPointProcess {
  child: ChildProcess;
  /** What it wrote to stdout and stderr (the last keepChars characters). */
  output(): string;
  /** Resolves with its exit code (null when a signal ended it) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL to its process group: it and anything it started stop at once (no shutdown hook runs, as when a machine dies). */
  killGroup(): void;
}

/**
 * Starts one of the API package's entry points (src/main.ts, src/worker.ts) with env on top of this
 * process's environment, tsx's loader in its own process, in a process group of its own (so a kill
 * of the group reaches anything it started too), keeping the end of its output.
 */
export function spawnEntryPoint(entry: string, env: Record<string, string>, keepChars = 20_000): EntryPointProcess {
  const child: ChildProcess = spawn(process.execPath, ['--import', TSX_LOADER, entry], {
    cwd: path.join(REPO_ROOT, 'api'),
    env: { ...process.env, NODE_NO_WARNINGS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-keepChars);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  return { child, output: () => log, exited, killGroup };
}

/** Starts api/src/main.ts with env on top of this process's environment; resolves once /health answers. */
export async function startApiInstance(name: string, port: number, env: Record<string, string>, timeoutMs = 120_000): Promise<ApiInstance> {
  const started = spawnEntryPoint('src/main.ts', { API_HOST: '127.0.0.1', API_PORT: String(port), ...env });
  const { child } = started;
  let alive = true;
  const exited = started.exited.then(() => {
    alive = false;
  });
  const url = `http://127.0.0.1:${port}`;
  const instance: ApiInstance = { name, url, pid: child.pid!, kill: started.killGroup, exited, output: started.output };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!alive) throw new Error(`API instance ${name} exited while starting:\n${started.output()}`);
    const ok = await fetch(`${url}/health`)
      .then((res) => res.ok)
      .catch(() => false);
    if (ok) return instance;
    if (Date.now() > deadline) {
      instance.kill();
      throw new Error(`API instance ${name} did not answer /health within ${timeoutMs} ms:\n${started.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export interface RoundRobinProxy {
  url: string;
  /** Requests each upstream answered (by upstream name), and those passed on because one refused the connection. */
  stats: { answered: Map<string, number>; passedOn: number; failedMidway: number; answersLost: number };
  /** Called as each request is passed to an upstream (a test kills one in the middle of a request with it). */
  onForward: ((upstream: string, method: string, url: string) => void) | null;
  /**
   * Asked for each answer an upstream gives: true loses it. The upstream's answer is read to its end
   * (its work is done and answered), then the client's connection is cut, as when the network or
   * the balancer fails on the way back.
   */
  loseAnswer: ((upstream: string, method: string, url: string) => boolean) | null;
  close(): Promise<void>;
}

/**
 * A round-robin HTTP proxy, as a load balancer is: each request goes to the next upstream; when that
 * one refuses the connection (its process is gone) the request is passed to the next, so nothing
 * reaches the client from a dead instance that never saw the request. A request an upstream dies
 * in the middle of is answered 502 (it may have been done, so it is not replayed here: the client
 * retries, as nginx's proxy_next_upstream does not replay a POST either).
 */
export async function startRoundRobinProxy(upstreams: Array<{ name: string; url: string }>): Promise<RoundRobinProxy> {
  let next = 0;
  const stats = { answered: new Map<string, number>(), passedOn: 0, failedMidway: 0, answersLost: 0 };
  const proxy = { onForward: null as RoundRobinProxy['onForward'], loseAnswer: null as RoundRobinProxy['loseAnswer'] };
  const server = http.createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      const payload = Buffer.concat(body);
      const start = next++ % upstreams.length;
      const attempt = (tried: number) => {
        const upstream = upstreams[(start + tried) % upstreams.length]!;
        const target = new URL(req.url ?? '/', upstream.url);
        const forward = http.request(
          target,
          { method: req.method, headers: { ...req.headers, host: target.host, 'content-length': String(payload.length) } },
          (answer) => {
            stats.answered.set(upstream.name, (stats.answered.get(upstream.name) ?? 0) + 1);
            if (proxy.loseAnswer?.(upstream.name, req.method ?? 'GET', req.url ?? '/')) {
              stats.answersLost += 1;
              answer.resume();
              answer.on('end', () => res.destroy());
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            answer.on('error', () => res.destroy());
            answer.on('aborted', () => res.destroy());
          },
        );
        forward.on('error', (error: NodeJS.ErrnoException) => {
          if (error.code === 'ECONNREFUSED' && tried + 1 < upstreams.length) {
            stats.passedOn += 1;
            attempt(tried + 1);
            return;
          }
          stats.failedMidway += 1;
          if (res.headersSent) res.destroy();
          else {
            res.writeHead(502, { 'content-type': 'text/plain' });
            res.end(`upstream ${upstream.name}: ${error.message}`);
          }
        });
        forward.end(payload);
        proxy.onForward?.(upstream.name, req.method ?? 'GET', req.url ?? '/');
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** One HTTP answer as the browser's code sees it after its retries. */
export interface SeenAnswer {
  method: string;
  route: string;
  status: number;
  /** How many times it was sent (1: no retry). */
  attempts: number;
  /** The API answered from an earlier attempt's stored answer (Idempotent-Replayed). */
  replayed: boolean;
}

/** Whether a 409 is the API's "an earlier attempt with this key is still running". */
async function inProgress(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { Message?: string } | null;
  return body?.Message === REQUEST_IN_PROGRESS_MESSAGE;
}

/**
 * fetch as the browser's API client (shared/src/api/client.ts) uses it behind a load balancer: the
 * product's retry policy (shared/src/api/retryPolicy.ts) decides whether and when a failed attempt
 * is sent again, and a POST/PATCH carries one Idempotency-Key on every attempt. tus requests are the
 * upload client's own protocol (a chunk names its offset, as tus-js-client retries them): retried by
 * the same rule, without a key. Every final answer is recorded in `seen`, so the test can say no 5xx
 * reached the page.
 */
export function retryingFetch(seen: SeenAnswer[]): (url: string, init?: RequestInit) => Promise<Response> {
  return async (url, init = {}) => {
    const route = new URL(url).pathname;
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    const tus = headers.has('tus-resumable');
    const keyed = !tus && takesIdempotencyKey(method, init.body);
    if (keyed) headers.set(IDEMPOTENCY_KEY_HEADER, newIdempotencyKey());
    for (let attempt = 1; ; attempt++) {
      let response: Response | null = null;
      let failure: unknown = null;
      let outcome: AttemptOutcome;
      try {
        response = await fetch(url, { ...init, headers, redirect: 'manual' });
        outcome = {
          kind: 'response',
          status: response.status,
          inProgress: await inProgress(response),
          retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
        };
      } catch (error) {
        failure = error;
        outcome = { kind: 'no-response', timedOut: false };
      }
      const decision = retryDecision({ method, hasIdempotencyKey: keyed || tus }, attempt, outcome);
      if (!decision.retry) {
        if (!response) throw failure;
        seen.push({ method, route, status: response.status, attempts: attempt, replayed: response.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true' });
        return response;
      }
      await response?.arrayBuffer().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, decision.afterMs));
    }
  };
}
