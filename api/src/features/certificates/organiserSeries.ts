import {
  CERTIFICATE_LIMITS,
  CERTIFICATE_STANDARD_ACCENT,
  SERIES_MESSAGES,
  formatFinishTime,
  standardTemplate,
  templateFieldLabel,
  validTemplateConfig,
  type CertificateBackgroundResult,
  type CertificatePreviewResult,
  type CertificateTemplateConfig,
  type OrganiserSeries,
  type OrganiserSeriesList,
  type SaveSeriesInput,
} from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { AppError, badRequest, forbidden } from '../../http/envelope';
import { previewImage, storeBackground } from './organiserSettings';
import { photosOfBib } from './photos';
import { fieldOfOtherRace, placedTemplate } from './placedTemplate';
import { renderBackground, renderCertificate } from './render';
import { sameRunner, type ResultRow } from './results';

/**
 * An organiser's series (grand slams): several of their own races, one certificate for a runner who
 * finished them all (eligibility as for every achievement: one runner across races by email, else by
 * name). A series is an achievement with an owner; its template is the standard layout for its
 * races, in the series' order, in the series' colour or on a background the organiser uploaded. An
 * organiser never puts another organiser's race in one, and sees and changes only their own series.
 */

/** Series backgrounds are the uploading organiser's: a series may use only one of its owner's. */
const backgroundPrefix = (userId: number) => `public/certificates/backgrounds/series-${userId}-`;
const BACKGROUND_KEY = /^public\/certificates\/backgrounds\/series-(\d+)-[0-9a-f]{16}\.jpg$/;

interface SeriesRow {
  [column: string]: unknown;
  id: number;
  title: string;
  active: boolean;
  accent_color: string | null;
  template_image_key: string | null;
  template_config: CertificateTemplateConfig | null;
  events: OrganiserSeries['events'];
}

async function seriesOf(ctx: AppContext, userId: number, id?: number): Promise<OrganiserSeries[]> {
  const rows = await ctx.db.query<SeriesRow>(
    `select a.id, a.title, a.active, a.accent_color, a.template_image_key, a.template_config,
            coalesce((select json_agg(json_build_object('event_id', e.id, 'event_name', e.name) order by ae.seq)
                        from achievement_events ae join events e on e.id = ae.event_id where ae.achievement_id = a.id), '[]') as events
       from achievements a
      where a.organiser_user_id = $1 and a.finisher_event_id is null and ($2::int is null or a.id = $2)
      order by a.id`,
    [userId, id ?? null],
  );
  return rows.map(({ accent_color, template_image_key, template_config, ...row }) => ({
    ...row,
    template_config: template_config ?? standardTemplate({ title: row.title, eventIds: row.events.map((e) => e.event_id), accent: accent_color ?? undefined }),
    accent_color: accent_color ?? CERTIFICATE_STANDARD_ACCENT,
    background_key: template_image_key,
    background_url: template_image_key ? ctx.storage.publicUrl(template_image_key) : null,
  }));
}

export async function organiserSeriesList(ctx: AppContext, userId: number): Promise<OrganiserSeriesList> {
  const races = await ctx.db.query<{ event_id: number; event_name: string; event_date: string; has_results: boolean }>(
    `select e.id as event_id, e.name as event_name, e.from_date::text as event_date,
            exists (select 1 from participants p where p.event_id = e.id and p.finish_time is not null) as has_results
       from events e where e.organiser_user_id = $1 order by e.from_date desc, e.id desc`,
    [userId],
  );
  return { series: await seriesOf(ctx, userId), races: races.map((r) => ({ ...r, event_date: String(r.event_date).slice(0, 10) })) };
}

/**
 * The series' template as sent (the fields where the organiser placed them), else the standard layout
 * in the series' colour: the shared template rules (a field off the canvas is named), one photo slot
 * per race in the series' order, per-race fields of its races only.
 */
async function seriesTemplate(input: SaveSeriesInput, races: Array<{ id: number; name: string }>): Promise<CertificateTemplateConfig> {
  const eventIds = races.map((r) => r.id);
  if (!input.template_config) return validTemplateConfig(standardTemplate({ title: input.title, eventIds, accent: input.accent_color }));
  const config = await placedTemplate(input.template_config);
  const slots = [...config.images].sort((a, b) => a.slot - b.slot);
  if (slots.length !== eventIds.length || slots.some((slot, i) => slot.slot !== i + 1 || slot.event_id !== eventIds[i]))
    throw badRequest(SERIES_MESSAGES.slots);
  const other = fieldOfOtherRace(config, eventIds);
  if (other) throw badRequest(SERIES_MESSAGES.otherRace(templateFieldLabel(other)));
  return { ...config, images: slots };
}

/**
 * The series as sent, checked: every race the organiser's and with results, a background one this
 * organiser uploaded for a series, its template (seriesTemplate).
 */
async function checkedSeries(
  ctx: AppContext,
  userId: number,
  input: SaveSeriesInput,
): Promise<{ races: Array<{ id: number; name: string }>; config: CertificateTemplateConfig }> {
  const eventIds = input.eventIds as number[];
  const found = await ctx.db.query<{ id: number; name: string; has_results: boolean }>(
    `select e.id, e.name, exists (select 1 from participants p where p.event_id = e.id and p.finish_time is not null) as has_results
       from events e where e.id = any($1::int[]) and e.organiser_user_id = $2`,
    [eventIds, userId],
  );
  if (found.length !== eventIds.length) throw forbidden(SERIES_MESSAGES.notYours);
  const races = eventIds.map((id) => found.find((r) => r.id === id)!);
  const withoutResults = races.find((r) => !r.has_results);
  if (withoutResults) throw badRequest(SERIES_MESSAGES.noResults(withoutResults.name));
  if (input.background_key) {
    const match = BACKGROUND_KEY.exec(input.background_key);
    if (!match || Number(match[1]) !== userId || !(await ctx.storage.exists(input.background_key))) throw badRequest(SERIES_MESSAGES.backgroundKey);
  }
  return { races, config: await seriesTemplate(input, races) };
}

export async function saveOrganiserSeries(ctx: AppContext, userId: number, input: SaveSeriesInput): Promise<OrganiserSeries> {
  const eventIds = input.eventIds as number[];
  const { config } = await checkedSeries(ctx, userId, input);
  const accent = input.accent_color.toLowerCase();
  const background = input.background_key ?? null;

  const id = await ctx.db.transaction(async (tx) => {
    let seriesId = input.id ?? null;
    try {
      if (seriesId) {
        const updated = await tx.query<{ id: number }>(
          `update achievements set title = $3, active = $4, template_config = $5::jsonb, template_image_key = $6, accent_color = $7
            where id = $1 and organiser_user_id = $2 and finisher_event_id is null returning id`,
          [seriesId, userId, input.title, input.active, JSON.stringify(config), background, accent],
        );
        if (updated.length === 0) throw new AppError(404, SERIES_MESSAGES.notFound);
      } else {
        const inserted = await tx.query<{ id: number }>(
          `insert into achievements (title, description, template_config, active, organiser_user_id, template_image_key, accent_color)
           values ($1, '', $2::jsonb, $3, $4, $5, $6) returning id`,
          [input.title, JSON.stringify(config), input.active, userId, background, accent],
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
  return (await seriesOf(ctx, userId, id))[0]!;
}

/** Stores a background for the organiser's series (at the standard layout's size); nothing changes until a series is saved with it. */
export async function storeSeriesBackground(ctx: AppContext, userId: number, base64: string): Promise<CertificateBackgroundResult> {
  const { width, height } = CERTIFICATE_LIMITS.defaultOutput;
  return storeBackground(ctx, backgroundPrefix(userId), base64, width, height);
}

/**
 * The series as on screen drawn by the server's renderer with a real runner who finished every race
 * (the fastest such runner in the first race), downscaled; each slot holds that runner's watermarked
 * preview, so the organiser never receives an original or an unmarked rendition here.
 */
export async function previewSeries(ctx: AppContext, userId: number, input: SaveSeriesInput): Promise<CertificatePreviewResult> {
  const { races, config } = await checkedSeries(ctx, userId, input);
  const results = await ctx.db.query<ResultRow>(
    `select event_id, bib_number, name, email, finish_time::text as finish_time from participants
      where event_id = any($1::int[]) and finish_time is not null order by finish_time, bib_number`,
    [races.map((r) => r.id)],
  );
  const [first, ...others] = races;
  let runner: ResultRow[] | null = null;
  for (const start of results.filter((r) => r.event_id === first!.id)) {
    const rest = others.map((race) => results.find((r) => r.event_id === race.id && sameRunner(r, start)));
    if (rest.every(Boolean)) {
      runner = [start, ...(rest as ResultRow[])];
      break;
    }
  }
  if (!runner) throw new AppError(409, SERIES_MESSAGES.noFinisher);

  const photos = new Map<number, Buffer>();
  for (const result of runner) {
    const [photo] = await photosOfBib(ctx.db, result.event_id, result.bib_number);
    if (photo) photos.set(result.event_id, await ctx.storage.getBuffer(photo.preview_key));
  }
  const background = input.background_key ? await ctx.storage.getBuffer(input.background_key) : await renderBackground(config, input.accent_color);
  const times = runner.map((r) => formatFinishTime(r.finish_time) ?? '');
  const full = await renderCertificate({
    config,
    background,
    photos,
    values: {
      participantName: runner[0]!.name,
      events: runner.map((r, i) => ({ event_id: r.event_id, event_name: races[i]!.name, bib_number: r.bib_number, finish_time: times[i]! })),
    },
  });
  return {
    ...(await previewImage(full, config)),
    participant_name: runner[0]!.name,
    bib_number: runner.map((r) => r.bib_number).join(', '),
    finish_time: times.join(', '),
    with_photo: photos.size === runner.length,
  };
}
