import type { FastifyRequest } from 'fastify';
import { badRequest } from './envelope';

/**
 * The bounds every request's parsed input (body, query, route parameters) must keep, whatever the
 * route: checked once before any handler, so routes and their yup schemas only see sane values.
 * Each refusal is a fixed text: the input is never echoed back.
 */
export const INPUT_LIMITS = {
  /** Objects and arrays nested deeper than this are refused (no route needs more than 4). */
  maxDepth: 16,
  /** Any one string; fields that carry an image as base64 are allowed the whole body limit. */
  maxStringLength: 16 * 1024,
  /** Keys and array items together, across the whole input. */
  maxNodes: 10_000,
  /** Integers travel as PostgreSQL int4 at most. */
  maxInteger: 2_147_483_647,
} as const;

/** Fields whose value is a file: an image as base64 (a selfie, a logo, a development photo), a participants CSV. */
const LARGE_STRING_FIELDS = new Set(['image', 'selfieimg', 'csv']);

export const INPUT_MESSAGES = {
  tooDeep: 'The request is nested too deeply.',
  tooLarge: 'The request has too many fields.',
  longString: 'A field in the request is too long.',
  badCharacters: 'The request contains characters we cannot accept.',
  badNumber: 'A number in the request is out of range.',
  wrongType: 'A field in the request has the wrong type. Please check the form and try again.',
  unreadable: 'The request could not be read. Please check it and try again.',
  bodyTooLarge: 'The request is too large.',
  mediaType: 'This content type is not accepted here.',
} as const;

/** NUL and unpaired UTF-16 surrogates cannot be stored in PostgreSQL text nor sent in mail. */
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function checkString(value: string, key: string | null): void {
  if (value.length > INPUT_LIMITS.maxStringLength && !(key && LARGE_STRING_FIELDS.has(key))) throw badRequest(INPUT_MESSAGES.longString);
  if (UNSTORABLE.test(value)) throw badRequest(INPUT_MESSAGES.badCharacters);
}

/** Walks a parsed value without recursion (a 3,000-deep body must not overflow the stack). */
export function assertInputWithinBounds(input: unknown): void {
  const stack: { value: unknown; depth: number; key: string | null }[] = [{ value: input, depth: 0, key: null }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value, depth, key } = stack.pop()!;
    if (typeof value === 'string') {
      checkString(value, key);
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value) || (Number.isInteger(value) && Math.abs(value) > INPUT_LIMITS.maxInteger)) throw badRequest(INPUT_MESSAGES.badNumber);
    } else if (value !== null && typeof value === 'object') {
      if (depth >= INPUT_LIMITS.maxDepth) throw badRequest(INPUT_MESSAGES.tooDeep);
      // Buffers (raw bodies) are bounded by the body limit and read by their own route.
      if (Buffer.isBuffer(value)) continue;
      const entries = Array.isArray(value) ? value.map((item) => [key, item] as const) : Object.entries(value as Record<string, unknown>);
      nodes += entries.length;
      if (nodes > INPUT_LIMITS.maxNodes) throw badRequest(INPUT_MESSAGES.tooLarge);
      for (const [childKey, child] of entries) {
        if (childKey !== null) checkString(childKey, null);
        stack.push({ value: child, depth: depth + 1, key: childKey });
      }
    }
  }
}

/**
 * A query string carries one text per name. A repeated name (?to=a&to=b) is parsed into an array,
 * which a route reading its query as text would trip over: refused for every route here.
 */
export function assertQueryIsText(query: unknown): void {
  if (query === null || typeof query !== 'object') return;
  for (const value of Object.values(query)) if (typeof value !== 'string') throw badRequest(INPUT_MESSAGES.wrongType);
}

/** preValidation hook: every route's parsed body, query string and parameters within bounds. */
export async function guardRequestInput(request: FastifyRequest): Promise<void> {
  assertInputWithinBounds(request.params);
  assertInputWithinBounds(request.query);
  assertQueryIsText(request.query);
  assertInputWithinBounds(request.body);
}

/** Fastify and plugin error codes whose cause is the request itself, with a fixed answer each. */
const CLIENT_ERROR_TEXTS: Record<number, string> = {
  400: INPUT_MESSAGES.unreadable,
  413: INPUT_MESSAGES.bodyTooLarge,
  415: INPUT_MESSAGES.mediaType,
};

/** PostgreSQL "data exception" (class 22): a value the input supplied that the column cannot hold. */
const isDataException = (error: unknown) =>
  typeof error === 'object' && error !== null && /^22[0-9A-Z]{3}$/.test(String((error as { code?: unknown }).code ?? ''));

/** Errors thrown while the request body is still being read as multipart (busboy's own errors). */
const MULTIPART_ERROR = /multipart|boundary|unexpected end of form|malformed part header|part terminated/i;

/**
 * What the client is told about an error that no route raised on purpose: a fixed text for its
 * status, and a 400 (never a 5xx) when the request's own content caused it.
 */
export function describeUnexpectedError(error: { statusCode?: unknown; message?: unknown }, request: FastifyRequest): { status: number; message: string } {
  const declared = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : null;
  if (declared !== null && declared < 500) return { status: declared, message: CLIENT_ERROR_TEXTS[declared] ?? INPUT_MESSAGES.unreadable };
  if (declared === null && isDataException(error)) return { status: 400, message: INPUT_MESSAGES.unreadable };
  if (declared === null && request.isMultipart() && MULTIPART_ERROR.test(String(error.message ?? '')))
    return { status: 400, message: INPUT_MESSAGES.unreadable };
  return { status: declared ?? 500, message: 'Something went wrong. Please try again.' };
}
