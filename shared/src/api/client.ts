import axios, { AxiosHeaders, type AxiosInstance, type AxiosRequestConfig } from 'axios';
import type { ApiEnvelope } from '../types/envelope';
import { STORAGE_KEYS } from '../storageKeys';
import { localStore } from '../storage/localStore';
import { getRuntimeConfig } from '../runtime/runtimeConfig';
import { ApiError } from './errors';
import {
  IDEMPOTENCY_KEY_HEADER,
  newIdempotencyKey,
  REQUEST_IN_PROGRESS_MESSAGE,
  retryAfterMs,
  retryDecision,
  takesIdempotencyKey,
  type AttemptOutcome,
} from './retryPolicy';

/** The unwrapped answer of a call: the result plus the envelope's Message (screens show it). */
export interface ApiAnswer<T> {
  result: T;
  message: string;
  statusCode: number;
}

function readToken(): string | null {
  return localStore.get(STORAGE_KEYS.sessionToken);
}

function isEnvelope(data: unknown): data is ApiEnvelope<unknown> {
  return typeof data === 'object' && data !== null && 'StatusCode' in data && 'HasError' in data;
}

/**
 * Axios instance whose base URL is read from the run-time config on every request (so the shell
 * can load the config after remotes imported this module) and which sends the session token.
 */
export function createHttp(): AxiosInstance {
  const http = axios.create({ timeout: 60_000 });
  http.interceptors.request.use((config) => {
    config.baseURL = getRuntimeConfig().apiBaseUrl;
    const token = readToken();
    if (token) config.headers.set('Authorization', `Bearer ${token}`);
    return config;
  });
  return http;
}

export const http = createHttp();

/** What one attempt gave: the answer's status, headers and body, or no answer at all. */
type Attempt =
  { kind: 'response'; status: number; data: unknown; headers: { get(name: string): unknown } } | { kind: 'no-response'; timedOut: boolean; message: string };

async function attemptOnce(config: AxiosRequestConfig): Promise<Attempt> {
  try {
    const response = await http.request({ ...config, validateStatus: () => true });
    return { kind: 'response', status: response.status, data: response.data, headers: AxiosHeaders.from(response.headers as Record<string, string>) };
  } catch (error) {
    // A call the page cancelled is not a failure to retry.
    if (axios.isCancel(error)) throw error;
    const timedOut = axios.isAxiosError(error) && (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT');
    return { kind: 'no-response', timedOut, message: error instanceof Error ? error.message : 'Network error' };
  }
}

function outcomeOf(attempt: Attempt): AttemptOutcome {
  if (attempt.kind === 'no-response') return { kind: 'no-response', timedOut: attempt.timedOut };
  const inProgress = attempt.status === 409 && isEnvelope(attempt.data) && attempt.data.Message === REQUEST_IN_PROGRESS_MESSAGE;
  const wait = attempt.headers.get('retry-after');
  return { kind: 'response', status: attempt.status, inProgress, retryAfterMs: retryAfterMs(typeof wait === 'string' ? wait : undefined) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends the request, and again as the retry policy (retryPolicy.ts) says when an instance behind
 * the load balancer failed; a POST/PATCH carries one Idempotency-Key on every attempt. Turns the
 * last outcome into ApiAnswer or ApiError, following the spec's envelope.
 */
export async function call<T>(config: AxiosRequestConfig): Promise<ApiAnswer<T>> {
  const method = (config.method ?? 'GET').toUpperCase();
  const headers = AxiosHeaders.from((config.headers ?? {}) as Record<string, string>);
  const keyed = takesIdempotencyKey(method, config.data);
  if (keyed) headers.set(IDEMPOTENCY_KEY_HEADER, newIdempotencyKey());
  let attempt: Attempt;
  for (let n = 1; ; n++) {
    attempt = await attemptOnce({ ...config, headers });
    const decision = retryDecision({ method, hasIdempotencyKey: keyed }, n, outcomeOf(attempt));
    if (!decision.retry) break;
    await sleep(decision.afterMs);
  }
  if (attempt.kind === 'no-response') throw new ApiError(attempt.message, 0, 'network');
  const { data, status } = attempt;
  if (!isEnvelope(data)) {
    throw new ApiError(`Unexpected response (HTTP ${status})`, status, 'envelope', data);
  }
  if (data.HasError || data.StatusCode !== 200 || status >= 400) {
    throw new ApiError(data.Message || `Request failed (HTTP ${status})`, data.StatusCode || status, 'http', data.result);
  }
  return { result: data.result as T, message: data.Message, statusCode: data.StatusCode };
}

export const get = <T>(url: string, params?: Record<string, unknown>) => call<T>({ method: 'GET', url, params });
export const post = <T>(url: string, data?: unknown) => call<T>({ method: 'POST', url, data });
