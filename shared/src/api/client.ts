import axios, { type AxiosInstance, type AxiosRequestConfig } from 'axios';
import type { ApiEnvelope } from '../types/envelope';
import { STORAGE_KEYS } from '../storageKeys';
import { localStore } from '../storage/localStore';
import { getRuntimeConfig } from '../runtime/runtimeConfig';
import { ApiError } from './errors';

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

/** Turns any axios outcome into ApiAnswer or ApiError, following the spec's envelope. */
export async function call<T>(config: AxiosRequestConfig): Promise<ApiAnswer<T>> {
  let data: unknown;
  let status: number;
  try {
    const response = await http.request({ ...config, validateStatus: () => true });
    data = response.data;
    status = response.status;
  } catch (error) {
    const message = error instanceof Error ? error.message : 'Network error';
    throw new ApiError(message, 0, 'network');
  }
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
