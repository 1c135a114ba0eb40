import { formatFinishTime } from '@finishline/shared/pure';
import type { Db } from '../../db/db';
import { normaliseBib } from '../../rules/privacy';

/** One line of an event's results (participants, imported by the organiser or seeded). */
export interface ResultRow {
  [column: string]: unknown;
  event_id: number;
  bib_number: string;
  name: string;
  email: string | null;
  finish_time: string | null;
}

const tidy = (row: ResultRow): ResultRow => ({ ...row, finish_time: formatFinishTime(row.finish_time) });

export async function resultOf(db: Db, eventId: number, bib: string): Promise<ResultRow | null> {
  const rows = await db.query<ResultRow>(
    'select event_id, bib_number, name, email, finish_time::text as finish_time from participants where event_id = $1 and bib_number = $2',
    [eventId, normaliseBib(bib)],
  );
  return rows[0] ? tidy(rows[0]) : null;
}

const sameText = (a: string, b: string) => a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Two results are the same runner's: the same email where both lists carry one, else the same name.
 * A BIB changes from race to race; the runner's email (or name) is what the results have in common.
 */
export function sameRunner(a: ResultRow, b: ResultRow): boolean {
  if (a.email && b.email) return sameText(a.email, b.email);
  return sameText(a.name, b.name);
}

/**
 * For the BIB search: the achievement (holding this event) whose every event this runner finished,
 * with an official time in each, and the runner's result line in each event, in the required order.
 * Several achievements: the one with most events (a series before the race's own finisher
 * certificate); seriesOnly leaves the finisher certificates out.
 */
export async function finishedAchievementOf(
  db: Db,
  eventId: number,
  bib: string,
  seriesOnly = false,
): Promise<{ achievementId: number; results: ResultRow[] } | null> {
  const own = await resultOf(db, eventId, bib);
  if (!own?.finish_time) return null;
  const candidates = await db.query<ResultRow & { achievement_id: number; seq: number; events: number }>(
    `select ae.achievement_id, ae.seq, p.event_id, p.bib_number, p.name, p.email, p.finish_time::text as finish_time,
            (select count(*)::int from achievement_events x where x.achievement_id = ae.achievement_id) as events
       from achievement_events mine
       join achievements a on a.id = mine.achievement_id and a.active and ($5::boolean is false or a.finisher_event_id is null)
       join achievement_events ae on ae.achievement_id = mine.achievement_id
       join participants p on p.event_id = ae.event_id and p.finish_time is not null
        and (case when $3::text is not null then lower(p.email) = lower($3) else lower(p.name) = lower($4) end)
      where mine.event_id = $1
      order by events desc, ae.achievement_id, ae.seq, (p.bib_number = $2) desc`,
    [eventId, normaliseBib(bib), own.email, own.name, seriesOnly],
  );
  const byAchievement = new Map<number, { events: number; results: Map<number, ResultRow> }>();
  for (const row of candidates) {
    const entry = byAchievement.get(row.achievement_id) ?? { events: row.events, results: new Map<number, ResultRow>() };
    if (!entry.results.has(row.event_id)) entry.results.set(row.event_id, tidy(row));
    byAchievement.set(row.achievement_id, entry);
  }
  for (const [achievementId, entry] of byAchievement) {
    if (entry.results.size === entry.events) return { achievementId, results: [...entry.results.values()] };
  }
  return null;
}
