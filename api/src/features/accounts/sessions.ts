import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import type { Db } from '../../db/db';
import { hashToken, randomToken } from '../../security/tokens';
import { forbidden, unauthorized } from '../../http/envelope';
import { findUserById, type UserRow } from './users';

export const USER_SESSION_DAYS = 30;
export const ANONYMOUS_SESSION_HOURS = 24;

export interface SessionInfo {
  id: number;
  userId: number | null;
  token: string;
  expiresAt: Date;
}

/** Creates a session; the raw token is returned once and only its hash is stored. */
export async function createSession(db: Db, userId: number | null): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const lifetimeMs = userId === null ? ANONYMOUS_SESSION_HOURS * 3600_000 : USER_SESSION_DAYS * 86400_000;
  const expiresAt = new Date(Date.now() + lifetimeMs);
  await db.query('insert into sessions (token_hash, user_id, expires_at) values ($1, $2, $3)', [hashToken(token), userId, expiresAt]);
  return { token, expiresAt };
}

/** The token a request presents: the Authorization bearer, else a sessionToken / _token body field. */
export function presentedToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null;
  const body = request.body as Record<string, unknown> | undefined;
  const fromBody = body && typeof body === 'object' ? (body.sessionToken ?? body._token) : undefined;
  if (typeof fromBody === 'string' && fromBody) return fromBody;
  return null;
}

export async function findSession(db: Db, token: string): Promise<SessionInfo | null> {
  const rows = await db.query<{ id: number; user_id: number | null; expires_at: Date }>(
    'select id, user_id, expires_at from sessions where token_hash = $1 and revoked_at is null and expires_at > now()',
    [hashToken(token)],
  );
  const row = rows[0];
  return row ? { id: row.id, userId: row.user_id, token, expiresAt: new Date(row.expires_at) } : null;
}

/** The valid session behind the request, or null (expired, revoked or absent). */
export async function resolveSession(ctx: AppContext, request: FastifyRequest): Promise<SessionInfo | null> {
  const token = presentedToken(request);
  return token ? findSession(ctx.db, token) : null;
}

export async function revokeSession(db: Db, token: string): Promise<void> {
  await db.query('update sessions set revoked_at = now() where token_hash = $1 and revoked_at is null', [hashToken(token)]);
}

export async function revokeAllSessionsOf(db: Db, userId: number, exceptSessionId?: number): Promise<void> {
  await db.query('update sessions set revoked_at = now() where user_id = $1 and revoked_at is null and id <> $2', [userId, exceptSessionId ?? -1]);
}

/** The signed-in user or null. */
export async function optionalUser(ctx: AppContext, request: FastifyRequest): Promise<{ session: SessionInfo; user: UserRow } | null> {
  const session = await resolveSession(ctx, request);
  if (!session || session.userId === null) return null;
  const user = await findUserById(ctx.db, session.userId);
  return user ? { session, user } : null;
}

/** The signed-in user, or a 401 the browser turns into a sign-in redirect. */
export async function requireUser(ctx: AppContext, request: FastifyRequest): Promise<{ session: SessionInfo; user: UserRow }> {
  const found = await optionalUser(ctx, request);
  if (!found) throw unauthorized();
  return found;
}

export async function requireRole(ctx: AppContext, request: FastifyRequest, role: 'organiser' | 'partner' | 'operator' | 'fulfilment') {
  const found = await requireUser(ctx, request);
  const allowed =
    role === 'organiser'
      ? found.user.is_organiser
      : role === 'partner'
        ? found.user.is_partner
        : role === 'fulfilment'
          ? found.user.is_fulfilment === true
          : found.user.is_operator === true;
  if (!allowed) throw forbidden();
  return found;
}
