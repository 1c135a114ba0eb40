import type { AppContext } from '../../context';
import { findableInSeconds, type SupplyFindableWait } from '@finishline/shared/pure';

/**
 * Back-pressure on race day (docs/supply-line.md, "When many photos arrive"): how long until a
 * photographer's waiting photos are findable, from the database alone (so every API process answers
 * alike, whichever processes work the queue). Uploads are never refused for load; the photographer
 * is told the wait instead.
 */

/** The line's rate is measured over the photos finished in this many seconds. */
export const RATE_WINDOW_SECONDS = 300;
/** Fewer photos finished in the window is no measure (workers idle or just started): the rule's fallback rate applies. */
export const RATE_MIN_FINISHED = 5;
/**
 * The rate's time base: from the first photo finished in the window until now, and at least a
 * minute, so a few photos finished within seconds of each other do not read as hundreds a minute.
 * Counting until now (not until the last photo finished) lets the rate fall when the workers stop.
 */
export const RATE_MIN_SPAN_SECONDS = 60;

/** Photos finished a minute from those finished in the window and the seconds since the first of them; null when too few to measure. */
export function lineRate(finished: number, secondsSinceFirst: number | null): number | null {
  if (finished < RATE_MIN_FINISHED || secondsSinceFirst === null) return null;
  return (finished * 60) / Math.max(secondsSinceFirst, RATE_MIN_SPAN_SECONDS);
}

/**
 * One statement over small indexes (migration 562): the partner's last waiting photo of the event
 * (photos_partner_waiting_idx), the waiting photos up to it in the queue's order (photos_waiting_idx:
 * waiting photos only), and the photos finished in the window (a range of photos_processed_at_idx).
 */
const WAIT_SQL = `
  with mine as (
    select max(id) as last_id from photos
     where partner_user_id = $1 and event_id = $2 and status = 'processing' and source_video_id is null
  ), recent as (
    select count(*)::int as finished, extract(epoch from now() - min(processed_at))::float8 as since_first
      from photos where processed_at > now() - make_interval(secs => $3)
  )
  select (select count(*)::int from photos p where p.status = 'processing' and p.source_video_id is null and p.id <= mine.last_id) as waiting_ahead,
         recent.finished, recent.since_first
    from mine, recent`;

/**
 * The estimate for the partner's waiting photos of an event: the photos waiting on the whole line
 * ahead of and including theirs, over the line's recent rate. Null when none of theirs wait.
 */
export async function findableWaitOf(ctx: AppContext, userId: number, eventId: number): Promise<SupplyFindableWait | null> {
  const [row] = await ctx.db.query<{ waiting_ahead: number; finished: number; since_first: number | null }>(WAIT_SQL, [userId, eventId, RATE_WINDOW_SECONDS]);
  if (!row || row.waiting_ahead === 0) return null;
  const rate = lineRate(row.finished, row.since_first);
  return {
    waitingAhead: row.waiting_ahead,
    photosPerMinute: rate === null ? null : Math.round(rate * 10) / 10,
    estimateSeconds: findableInSeconds(row.waiting_ahead, rate),
  };
}
