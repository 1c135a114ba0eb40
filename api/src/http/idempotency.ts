import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  API_ROUTES,
  IDEMPOTENCY_KEY_HEADER,
  READ_ONLY_POST_ROUTES,
  IDEMPOTENCY_KEY_REUSED_MESSAGE,
  IDEMPOTENT_REPLAYED_HEADER,
  REQUEST_IN_PROGRESS_MESSAGE,
} from '@finishline/shared/pure';
import type { AppConfig } from '../config/config';
import type { Db } from '../db/db';
import { seal, unseal } from '../security/sealing';
import { hashToken } from '../security/tokens';
import { AppError } from './envelope';

/**
 * Idempotency-Key for POST and PATCH, for every route at once: the browser's client sends one key
 * per logical call and the same key on each retry (shared/src/api/retryPolicy.ts). The first attempt
 * claims the key (a row in idempotency_keys) and, when it has answered, stores the answer; a repeat
 * gets the stored answer (Idempotent-Replayed: true), a repeat while the first still runs gets 409,
 * and the key sent with another request gets 422. A claim older than staleClaimSeconds was left by a
 * process that died: the next attempt takes it over and runs the request.
 *
 * Read-only POSTs (READ_ONLY_POST_ROUTES: searches, bills, lists) are left alone: a retry runs them again.
 * Only JSON answers below 500 (and up to 256 KB) are stored. A 5xx or any other answer (a zip, an
 * image) releases the key, so a retry runs the request again. Multipart bodies and the tus upload routes (their own
 * resumable protocol) are not handled; a request without the header is untouched.
 */

const KEYED_METHODS = new Set(['POST', 'PATCH']);
const KEY_PATTERN = /^[\x21-\x7e]{8,200}$/;
const HEADER = IDEMPOTENCY_KEY_HEADER.toLowerCase();
const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;
/** Writes answer in a few hundred bytes; a longer answer (a large search result) is a read, run again on a retry. */
const LARGEST_STORED_ANSWER_BYTES = 256 * 1024;

interface Claim {
  keyHash: string;
  claimId: string;
  /** Seals the stored answer: derived from the key itself, which the database does not hold. */
  sealKey: Buffer;
  /** The route stored its answer in its own transaction (storeAnswerWithin): it stays, whatever happens after the commit. */
  storedWithin?: boolean;
}

/** The claim each keyed request holds while it runs. */
const claims = new WeakMap<FastifyRequest, Claim>();

const STORE_ANSWER_SQL = `update idempotency_keys set status = 'done', response_status = $3, response_body = $4, completed_at = now() where key_hash = $1 and claim_id = $2 returning key_hash`;

/**
 * Stores the answer a keyed request is about to send, in the route's own transaction (tx), so that
 * the work and the key's answer commit together: a process that dies after the commit leaves the
 * answer for the retry, never a claim that a later attempt takes over and runs again. Throws 409
 * (rolling tx back) when the claim was taken over meanwhile: that later attempt does the work.
 * Without a key (or on a route the keys do not cover) it does nothing.
 */
export async function storeAnswerWithin(tx: Db, request: FastifyRequest, answer: unknown, statusCode = 200): Promise<void> {
  const held = claims.get(request);
  if (!held) return;
  const stored = await tx.query(STORE_ANSWER_SQL, [held.keyHash, held.claimId, statusCode, seal(held.sealKey, JSON.stringify(answer), held.keyHash)]);
  if (stored.length === 0) throw new AppError(409, REQUEST_IN_PROGRESS_MESSAGE);
  held.storedWithin = true;
}

interface StoredKey {
  request_hash: string;
  status: 'running' | 'done';
  claim_id: string;
  response_status: number | null;
  response_body: string | null;
  stale: boolean;
  expired: boolean;
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** Who asked: the presented session (by its hash), or anonymous. Keys of one caller never reach another's answers. */
function callerOf(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
  return token ? `session:${hashToken(token)}` : 'anonymous';
}

function handled(request: FastifyRequest): boolean {
  if (!KEYED_METHODS.has(request.method)) return false;
  if (request.isMultipart()) return false;
  if (READ_ONLY_POST_ROUTES.has(request.url.split('?')[0]!)) return false;
  return (
    request.url !== API_ROUTES.partnerUploads &&
    !request.url.startsWith(`${API_ROUTES.partnerUploads}/`) &&
    !request.url.startsWith(`${API_ROUTES.partnerUploads}?`)
  );
}

/** Claims a key for this attempt, or says what the attempt gets instead. */
async function claim(
  db: Db,
  config: AppConfig['idempotency'],
  keyHash: string,
  requestHash: string,
): Promise<{ claimId: string } | { stored: StoredKey | null }> {
  const claimId = crypto.randomUUID();
  const inserted = await db.query(
    'insert into idempotency_keys (key_hash, request_hash, claim_id) values ($1, $2, $3) on conflict (key_hash) do nothing returning key_hash',
    [keyHash, requestHash, claimId],
  );
  if (inserted.length > 0) return { claimId };
  const [stored] = await db.query<StoredKey & Record<string, unknown>>(
    `select request_hash, status, claim_id, response_status, response_body,
            claimed_at < now() - make_interval(secs => $2) as stale,
            created_at < now() - make_interval(hours => $3) as expired
       from idempotency_keys where key_hash = $1`,
    [keyHash, config.staleClaimSeconds, config.keyHours],
  );
  if (!stored) return { stored: null };
  if (stored.expired) {
    // Past its lifetime and not yet pruned: the key starts afresh, as if it had never been used.
    const renewed = await db.query(
      `update idempotency_keys set request_hash = $2, status = 'running', claim_id = $3, claimed_at = now(), created_at = now(),
              response_status = null, response_body = null, completed_at = null
        where key_hash = $1 and claim_id = $4 returning key_hash`,
      [keyHash, requestHash, claimId, stored.claim_id],
    );
    return renewed.length > 0 ? { claimId } : { stored: null };
  }
  if (stored.request_hash === requestHash && stored.status === 'running' && stored.stale) {
    const taken = await db.query(
      `update idempotency_keys set claim_id = $2, claimed_at = now() where key_hash = $1 and status = 'running' and claim_id = $3 returning key_hash`,
      [keyHash, claimId, stored.claim_id],
    );
    if (taken.length > 0) return { claimId };
  }
  return { stored };
}

function replay(reply: FastifyReply, claimKey: Buffer, keyHash: string, stored: StoredKey): FastifyReply {
  const body = unseal(claimKey, stored.response_body!, keyHash);
  return reply.code(stored.response_status!).header(IDEMPOTENT_REPLAYED_HEADER, 'true').type('application/json; charset=utf-8').send(body);
}

/** Adds the hooks to app; every route registered after this call is covered. */
export function registerIdempotency(app: FastifyInstance, db: Db, config: AppConfig['idempotency']): void {
  // preHandler: after the body is parsed (it is part of what a key stands for) and before the route runs.
  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers[HEADER];
    if (key === undefined || !handled(request)) return;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) throw new AppError(400, `The ${IDEMPOTENCY_KEY_HEADER} header must be 8 to 200 visible characters.`);
    const keyHash = sha256(`${callerOf(request)}\n${key}`);
    const requestHash = sha256(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`);
    const sealKey = crypto.createHash('sha256').update(`idempotent answer\n${key}`).digest();
    // A key whose row vanished between the insert and the read (pruned, or released by a failed
    // first attempt) is claimed once more.
    for (let round = 0; round < 2; round++) {
      const outcome = await claim(db, config, keyHash, requestHash);
      if ('claimId' in outcome) {
        claims.set(request, { keyHash, claimId: outcome.claimId, sealKey });
        return;
      }
      const stored = outcome.stored;
      if (!stored) continue;
      if (stored.request_hash !== requestHash) throw new AppError(422, IDEMPOTENCY_KEY_REUSED_MESSAGE);
      if (stored.status === 'done') return replay(reply, sealKey, keyHash, stored);
      reply.header('retry-after', String(IN_PROGRESS_RETRY_AFTER_SECONDS));
      throw new AppError(409, REQUEST_IN_PROGRESS_MESSAGE);
    }
    reply.header('retry-after', String(IN_PROGRESS_RETRY_AFTER_SECONDS));
    throw new AppError(409, REQUEST_IN_PROGRESS_MESSAGE);
  });

  // onSend: the answer is stored before it leaves, so a retry after a lost answer finds it.
  app.addHook('onSend', async (request, reply, payload) => {
    const held = claims.get(request);
    if (!held) return payload;
    claims.delete(request);
    // Stored with the route's work, as the answer of what was committed: whatever came after stands aside.
    if (held.storedWithin) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    const storable =
      reply.statusCode < 500 && typeof payload === 'string' && type.startsWith('application/json') && Buffer.byteLength(payload) <= LARGEST_STORED_ANSWER_BYTES;
    try {
      if (storable) {
        await db.query(STORE_ANSWER_SQL, [held.keyHash, held.claimId, reply.statusCode, seal(held.sealKey, payload, held.keyHash)]);
      } else {
        // Not done, or not an answer kept here: a retry runs the request again.
        await db.query('delete from idempotency_keys where key_hash = $1 and claim_id = $2', [held.keyHash, held.claimId]);
      }
    } catch (error) {
      // The answer still goes out; the claim turns stale and a later retry runs the request again.
      request.log.error({ err: error }, 'idempotency key: the answer could not be stored');
    }
    return payload;
  });
}
