import type { Db } from '../../db/db';
import { accountOwnsOrderSql } from '../orders';
import { normaliseBib } from '../../rules/privacy';
import type { RunCaller } from './runs';

/**
 * Whether the caller's session may put this BIB's own photos (not watermarked previews) on a
 * certificate: it passed the event's privacy check for the BIB (session_verified_bibs: the OTP sent
 * to the participant), or it bought them: a paid order of this BIB in this event placed in this
 * session, or one the signed-in account owns by the order history's rule (placed signed in to it, or
 * placed under its address and the address proven). Anyone else gets the watermarked previews only.
 */
export async function photosUsableBy(db: Db, caller: RunCaller, eventId: number, bib: string): Promise<boolean> {
  const rows = await db.query<{ usable: boolean }>(
    `select exists (select 1 from session_verified_bibs v where v.session_id = $1 and v.event_id = $3 and v.bib_number = $4)
         or exists (select 1 from orders o
                      left join users u on u.id = $2::int
                     where o.event_id = $3 and o.bib_number = $4 and o.status in ('Paid', 'Downloaded')
                       and (o.placed_session_id = $1
                            or (u.id is not null and ${accountOwnsOrderSql('o', 'u.id', 'u.email', '(u.email_verified_at is not null)')}))) as usable`,
    [caller.sessionId, caller.userId, eventId, normaliseBib(bib)],
  );
  return rows[0]?.usable === true;
}

/** The same answer for each pair, in order. */
export async function pairsUsableBy(db: Db, caller: RunCaller, pairs: Array<{ event_id: number; bib_number: string }>): Promise<boolean[]> {
  return Promise.all(pairs.map((pair) => photosUsableBy(db, caller, pair.event_id, pair.bib_number)));
}
