import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { forbidden } from '../../http/envelope';
import { requireUser, type SessionInfo } from './sessions';
import type { UserRow } from './users';

/**
 * Rights that hold for one event, checked on the server for every partner and organiser route:
 * an organiser acts only on the events they run, a photographer only on the events they are an
 * approved partner of. A runner, or the organiser of another race, gets 403 (the browser shows
 * /unauthorizeduser); nobody learns anything of an event that is not theirs.
 */
export const NOT_YOUR_EVENT_MESSAGE = 'You are not authorized to access this page.';

type SignedIn = { session: SessionInfo; user: UserRow };

/** The signed-in organiser who runs this event. */
export async function requireEventOrganiser(ctx: AppContext, request: FastifyRequest, eventId: number): Promise<SignedIn> {
  const found = await requireUser(ctx, request);
  if (!found.user.is_organiser) throw forbidden();
  const rows = await ctx.db.query('select 1 from events where id = $1 and organiser_user_id = $2', [eventId, found.user.id]);
  if (rows.length === 0) throw forbidden(NOT_YOUR_EVENT_MESSAGE);
  return found;
}

/** The signed-in photographer whose registration for this event the organiser approved. */
export async function requireApprovedPartner(ctx: AppContext, request: FastifyRequest, eventId: number): Promise<SignedIn> {
  const found = await requireUser(ctx, request);
  if (!found.user.is_partner) throw forbidden();
  const rows = await ctx.db.query(`select 1 from event_partners where event_id = $1 and user_id = $2 and status = 'approved'`, [eventId, found.user.id]);
  if (rows.length === 0) throw forbidden(NOT_YOUR_EVENT_MESSAGE);
  return found;
}
