/** A failed API call, carrying the server's Message so screens can show it word for word. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly kind: 'http' | 'network' | 'envelope';
  readonly payload: unknown;

  constructor(message: string, statusCode: number, kind: ApiError['kind'], payload?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.kind = kind;
    this.payload = payload;
  }

  get isNetworkError(): boolean {
    return this.kind === 'network';
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
