/**
 * What can go wrong with object storage, told apart: a missing object is a 404, a storage that is
 * busy or unreachable (S3 throttling, a 5xx, a refused or reset connection) is a 503 the client may
 * retry, and anything else (a missing bucket, refused credentials) is the server's own fault. Only
 * the first is ever "not found". statusCode is what the HTTP error handler answers with.
 */
export class ObjectNotFoundError extends Error {
  readonly statusCode = 404;
  readonly code = 'ENOENT';
  constructor(
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(`No object at ${key}`, options);
    this.name = 'ObjectNotFoundError';
  }
}

export class StorageUnavailableError extends Error {
  readonly statusCode = 503;
  constructor(operation: string, key: string, options?: { cause?: unknown }) {
    super(`Object storage is busy or unreachable (${operation} ${key}): ${describeCause(options?.cause)}`, options);
    this.name = 'StorageUnavailableError';
  }
}

export class StorageError extends Error {
  readonly statusCode = 500;
  constructor(operation: string, key: string, options?: { cause?: unknown }) {
    super(`Object storage refused ${operation} ${key}: ${describeCause(options?.cause)}`, options);
    this.name = 'StorageError';
  }
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) return `${cause.name}${cause.message && cause.message !== cause.name ? `: ${cause.message}` : ''}`;
  return String(cause);
}

/** The shape of an AWS SDK v3 service or network error, as far as the mapping reads it. */
interface S3ErrorLike {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
  $retryable?: { throttling?: boolean };
}

const S3_NOT_FOUND = new Set(['NoSuchKey', 'NotFound']);
const S3_THROTTLED = new Set([
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottled',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'RequestTimeout',
  'RequestTimeoutException',
  'ServiceUnavailable',
  'InternalError',
  'TimeoutError',
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** An S3 client error as one of the three kinds above (after the SDK's own retries). */
export function mapS3Error(error: unknown, operation: string, key: string): Error {
  const e = (error ?? {}) as S3ErrorLike;
  const status = e.$metadata?.httpStatusCode;
  if (S3_NOT_FOUND.has(e.name ?? '')) return new ObjectNotFoundError(key, { cause: error });
  // A HEAD has no body to name the error: a bare 404 there is a missing object too.
  if (status === 404 && operation === 'head' && e.name !== 'NoSuchBucket') return new ObjectNotFoundError(key, { cause: error });
  if (e.$retryable?.throttling || S3_THROTTLED.has(e.name ?? '') || status === 429 || (status !== undefined && status >= 500)) {
    return new StorageUnavailableError(operation, key, { cause: error });
  }
  if (status === undefined && NETWORK_CODES.has(e.code ?? '')) return new StorageUnavailableError(operation, key, { cause: error });
  return new StorageError(operation, key, { cause: error });
}

/** A file-system error of the local storage: only a missing file is a missing object. */
export function mapFileError(error: unknown, operation: string, key: string): Error {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return new ObjectNotFoundError(key, { cause: error });
  if (code === 'EMFILE' || code === 'ENFILE' || code === 'EAGAIN' || code === 'EBUSY') return new StorageUnavailableError(operation, key, { cause: error });
  return new StorageError(operation, key, { cause: error });
}
