import { standardTemplate, type CertificateTemplateConfig } from '@finishline/shared/pure';
import type { Db } from '../../db/db';
import { AppError } from '../../http/envelope';

/** An achievements row. template_config null: the standard layout for its events. */
export interface AchievementRow {
  [column: string]: unknown;
  id: number;
  title: string;
  description: string;
  template_image_key: string | null;
  template_config: CertificateTemplateConfig | null;
  /** The race whose finisher certificate this is; null for a series. */
  finisher_event_id: number | null;
  active: boolean;
  /** The organiser's colour of the standard layout; null: the standard colour. */
  accent_color: string | null;
}

/** An event the runner must finish, in the required sequence. */
export interface RequiredEvent {
  [column: string]: unknown;
  event_id: number;
  event_name: string;
}

const COLUMNS = 'a.id, a.title, a.description, a.template_image_key, a.template_config, a.finisher_event_id, a.active, a.accent_color';

export async function findAchievement(db: Db, id: number): Promise<AchievementRow | null> {
  const rows = await db.query<AchievementRow>(`select ${COLUMNS} from achievements a where a.id = $1 and a.active`, [id]);
  return rows[0] ?? null;
}

/** The race's finisher certificate (on or off), or null when the race has no results yet. */
export async function finisherCertificateOf(db: Db, eventId: number): Promise<AchievementRow | null> {
  const rows = await db.query<AchievementRow>(`select ${COLUMNS} from achievements a where a.finisher_event_id = $1`, [eventId]);
  return rows[0] ?? null;
}

/** The achievement's events in their required sequence. */
export async function requiredEvents(db: Db, achievementId: number): Promise<RequiredEvent[]> {
  return db.query<RequiredEvent>(
    `select e.id as event_id, e.name as event_name
       from achievement_events ae join events e on e.id = ae.event_id
      where ae.achievement_id = $1
      order by ae.seq, e.id`,
    [achievementId],
  );
}

/**
 * The achievement a set of events makes: one that holds every one of them. One made of exactly
 * these events comes first (a runner who chose a series' races means that series, even when the BIB
 * search named a bigger one), then the achievement the caller named, then the one with fewest events.
 */
export async function achievementOfEvents(db: Db, eventIds: number[], preferred: number | null): Promise<AchievementRow | null> {
  const rows = await db.query<AchievementRow>(
    `select ${COLUMNS}
       from achievements a
      where a.active
        and (select count(*) from achievement_events ae where ae.achievement_id = a.id and ae.event_id = any($1::int[])) = $2
      order by (select count(*) from achievement_events ae where ae.achievement_id = a.id) = $2 desc, (a.id = $3) desc,
               (select count(*) from achievement_events ae where ae.achievement_id = a.id), a.id
      limit 1`,
    [eventIds, eventIds.length, preferred ?? 0],
  );
  return rows[0] ?? null;
}

/** The template the certificate is drawn from: the achievement's own, or the standard one for its events. */
export function templateConfigOf(achievement: AchievementRow, events: RequiredEvent[]): CertificateTemplateConfig {
  return (
    achievement.template_config ??
    standardTemplate({ title: achievement.title, eventIds: events.map((e) => e.event_id), accent: achievement.accent_color ?? undefined })
  );
}

export async function requireAchievement(db: Db, id: number): Promise<{ achievement: AchievementRow; events: RequiredEvent[] }> {
  const achievement = await findAchievement(db, id);
  if (!achievement) throw new AppError(404, 'We could not find this achievement. Please start again from your photos.');
  return { achievement, events: await requiredEvents(db, id) };
}
