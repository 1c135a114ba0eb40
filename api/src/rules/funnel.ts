import crypto from 'node:crypto';
import type { Db } from '../db/db';

/**
 * The first two steps of an event's sales funnel, marked where they happen (the BIB and selfie
 * searches that found photos, the cart bills): one row per visitor and step, so the Event Dashboard
 * counts people, not clicks. A visitor is the search session when there is one, else a hash of the
 * client address (never the address itself). A failed mark never fails the search or the cart.
 */
export type FunnelMark = 'search' | 'cart';

export function funnelVisitor(client: { sessionId: number | null; ip: string }): string {
  return client.sessionId !== null ? `s${client.sessionId}` : `a${crypto.createHash('sha256').update(client.ip).digest('hex').slice(0, 24)}`;
}

export async function markFunnel(db: Db, eventId: number, step: FunnelMark, client: { sessionId: number | null; ip: string }, log: (error: unknown) => void = () => undefined): Promise<void> {
  try {
    await db.query('insert into event_funnel_marks (event_id, step, visitor) values ($1, $2, $3) on conflict do nothing', [eventId, step, funnelVisitor(client)]);
  } catch (error) {
    log(error);
  }
}
