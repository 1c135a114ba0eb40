import { validTemplateConfig, type CertificateTemplateConfig } from '@finishline/shared/pure';
import type { Db } from '../../db/db';

/**
 * Stores an achievement with its template (checked by the shared template schema) and its events in
 * the required sequence. Used by the demo seed; an organiser's screen would call the same.
 */
export async function saveAchievement(
  db: Db,
  input: { title: string; description: string; eventIds: number[]; templateImageKey: string | null; templateConfig: CertificateTemplateConfig | null },
): Promise<number> {
  const config = input.templateConfig ? await validTemplateConfig(input.templateConfig) : null;
  const rows = await db.query<{ id: number }>(
    `insert into achievements (title, description, template_image_key, template_config) values ($1, $2, $3, $4::jsonb)
     on conflict (title) where finisher_event_id is null do update set description = excluded.description, template_image_key = excluded.template_image_key, template_config = excluded.template_config
     returning id`,
    [input.title, input.description, input.templateImageKey, config ? JSON.stringify(config) : null],
  );
  const id = rows[0].id;
  await db.query('delete from achievement_events where achievement_id = $1', [id]);
  for (const [i, eventId] of input.eventIds.entries()) {
    await db.query('insert into achievement_events (achievement_id, event_id, seq) values ($1, $2, $3)', [id, eventId, i + 1]);
  }
  return id;
}

/**
 * The race's finisher certificate, made once the race has results (a participant with an official
 * finish time): a one-event achievement titled after the race, standard template, on. Called where
 * results are written (the participants import, the demo seed); an existing one is left as its
 * organiser set it.
 */
export async function ensureFinisherCertificate(db: Db, eventId: number): Promise<void> {
  await db.query(
    `insert into achievements (title, description, finisher_event_id)
     select e.name, '', e.id from events e
      where e.id = $1 and exists (select 1 from participants p where p.event_id = e.id and p.finish_time is not null)
     on conflict (finisher_event_id) do nothing`,
    [eventId],
  );
  await db.query(
    `insert into achievement_events (achievement_id, event_id, seq)
     select a.id, a.finisher_event_id, 1 from achievements a where a.finisher_event_id = $1
     on conflict do nothing`,
    [eventId],
  );
}
