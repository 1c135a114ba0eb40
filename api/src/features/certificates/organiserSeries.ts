import { SERIES_MESSAGES, standardTemplate, validTemplateConfig, type OrganiserSeries, type OrganiserSeriesList, type SaveSeriesInput } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import type { Db } from '../../db/db';
import { AppError, badRequest, forbidden } from '../../http/envelope';

/**
 * An organiser's series (grand slams): several of their own races, one certificate for a runner who
 * finished them all (eligibility as for every achievement: one runner across races by email, else by
 * name). A series is an achievement with an owner; its template is the standard layout for its
 * races, in the series' order. An organiser never puts another organiser's race in one, and sees and
 * changes only their own series.
 */

async function seriesOf(db: Db, userId: number, id?: number): Promise<OrganiserSeries[]> {
  const rows = await db.query<{ id: number; title: string; active: boolean; events: OrganiserSeries['events'] }>(
    `select a.id, a.title, a.active,
            coalesce((select json_agg(json_build_object('event_id', e.id, 'event_name', e.name) order by ae.seq)
                        from achievement_events ae join events e on e.id = ae.event_id where ae.achievement_id = a.id), '[]') as events
       from achievements a
      where a.organiser_user_id = $1 and a.finisher_event_id is null and ($2::int is null or a.id = $2)
      order by a.id`,
    [userId, id ?? null],
  );
  return rows;
}

export async function organiserSeriesList(ctx: AppContext, userId: number): Promise<OrganiserSeriesList> {
  const races = await ctx.db.query<{ event_id: number; event_name: string; event_date: string; has_results: boolean }>(
    `select e.id as event_id, e.name as event_name, e.from_date::text as event_date,
            exists (select 1 from participants p where p.event_id = e.id and p.finish_time is not null) as has_results
       from events e where e.organiser_user_id = $1 order by e.from_date desc, e.id desc`,
    [userId],
  );
  return { series: await seriesOf(ctx.db, userId), races: races.map((r) => ({ ...r, event_date: String(r.event_date).slice(0, 10) })) };
}

export async function saveOrganiserSeries(ctx: AppContext, userId: number, input: SaveSeriesInput): Promise<OrganiserSeries> {
  const eventIds = input.eventIds as number[];
  const races = await ctx.db.query<{ id: number; name: string; has_results: boolean }>(
    `select e.id, e.name, exists (select 1 from participants p where p.event_id = e.id and p.finish_time is not null) as has_results
       from events e where e.id = any($1::int[]) and e.organiser_user_id = $2`,
    [eventIds, userId],
  );
  if (races.length !== eventIds.length) throw forbidden(SERIES_MESSAGES.notYours);
  const withoutResults = eventIds.map((id) => races.find((r) => r.id === id)!).find((r) => !r.has_results);
  if (withoutResults) throw badRequest(SERIES_MESSAGES.noResults(withoutResults.name));
  const config = await validTemplateConfig(standardTemplate({ title: input.title, eventIds }));

  const id = await ctx.db.transaction(async (tx) => {
    let seriesId = input.id ?? null;
    try {
      if (seriesId) {
        const updated = await tx.query<{ id: number }>(
          `update achievements set title = $3, active = $4, template_config = $5::jsonb, template_image_key = null
            where id = $1 and organiser_user_id = $2 and finisher_event_id is null returning id`,
          [seriesId, userId, input.title, input.active, JSON.stringify(config)],
        );
        if (updated.length === 0) throw new AppError(404, SERIES_MESSAGES.notFound);
      } else {
        const inserted = await tx.query<{ id: number }>(
          `insert into achievements (title, description, template_config, active, organiser_user_id) values ($1, '', $2::jsonb, $3, $4) returning id`,
          [input.title, JSON.stringify(config), input.active, userId],
        );
        seriesId = inserted[0]!.id;
      }
    } catch (error) {
      // achievements' title is unique among series: another organiser's (or the platform's) has it.
      if ((error as { code?: string }).code === '23505') throw new AppError(409, SERIES_MESSAGES.titleTaken);
      throw error;
    }
    await tx.query('delete from achievement_events where achievement_id = $1', [seriesId]);
    for (const [i, eventId] of eventIds.entries()) {
      await tx.query('insert into achievement_events (achievement_id, event_id, seq) values ($1, $2, $3)', [seriesId, eventId, i + 1]);
    }
    return seriesId;
  });
  return (await seriesOf(ctx.db, userId, id))[0]!;
}
