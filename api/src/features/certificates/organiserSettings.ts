import crypto from 'node:crypto';
import sharp from 'sharp';
import {
  CERTIFICATE_BACKGROUND_MAX_BYTES,
  CERTIFICATE_PREVIEW_WIDTH,
  CERTIFICATE_SETTINGS_MESSAGES,
  CERTIFICATE_STANDARD_ACCENT,
  formatFinishTime,
  standardTemplate,
  templateFieldLabel,
  type CertificateBackgroundResult,
  type CertificatePreviewResult,
  type CertificateTemplateConfig,
  type OrganiserCertificate,
} from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import type { Db } from '../../db/db';
import { AppError, badRequest } from '../../http/envelope';
import { finisherCertificateOf, templateConfigOf } from './achievements';
import { ensureFinisherCertificate } from './admin';
import { photosOfBib } from './photos';
import { fieldOfOtherRace, placedTemplate } from './placedTemplate';
import { renderBackground, renderCertificate } from './render';

/**
 * A race's finisher certificate as its organiser sets it in the Event Dashboard: on or off, the
 * title, the colour of the standard layout or an uploaded background, and where the fields go. The
 * routes check first that the caller runs the race (requireEventOrganiser).
 */

interface RaceRow {
  [column: string]: unknown;
  name: string;
  from_date: string;
  finishers: number;
}

/** The organiser's uploaded backgrounds of a race: public (the builder draws them), named by race and content. */
const backgroundPrefix = (eventId: number) => `public/certificates/backgrounds/${eventId}-`;
const BACKGROUND_KEY = /^public\/certificates\/backgrounds\/(\d+)-[0-9a-f]{16}\.jpg$/;

async function raceOf(db: Db, eventId: number): Promise<RaceRow> {
  const rows = await db.query<RaceRow>(
    `select e.name, e.from_date::text as from_date,
            (select count(*)::int from participants p where p.event_id = e.id and p.finish_time is not null) as finishers
       from events e where e.id = $1`,
    [eventId],
  );
  if (!rows[0]) throw new AppError(404, 'We could not find this event.');
  return rows[0];
}

export async function certificateSettings(ctx: AppContext, eventId: number): Promise<OrganiserCertificate> {
  const race = await raceOf(ctx.db, eventId);
  // Results written before certificates existed (or without the import) get theirs now, as the import would.
  if (race.finishers > 0) await ensureFinisherCertificate(ctx.db, eventId);
  const row = await finisherCertificateOf(ctx.db, eventId);
  const base = { event_id: eventId, event_name: race.name, event_date: race.from_date.slice(0, 10), finishers: race.finishers };
  if (!row) {
    return {
      ...base,
      has_results: false,
      active: false,
      title: race.name,
      accent_color: CERTIFICATE_STANDARD_ACCENT,
      background_key: null,
      background_url: null,
      template_config: standardTemplate({ title: race.name, eventIds: [eventId] }),
    };
  }
  return {
    ...base,
    has_results: true,
    active: row.active,
    title: row.title,
    accent_color: row.accent_color ?? CERTIFICATE_STANDARD_ACCENT,
    background_key: row.template_image_key,
    background_url: row.template_image_key ? ctx.storage.publicUrl(row.template_image_key) : null,
    template_config: templateConfigOf(row, [{ event_id: eventId, event_name: race.name }]),
  };
}

export interface CertificateDraft {
  title: string;
  accent_color: string;
  background_key: string | null;
  template_config: unknown;
}

/**
 * The draft's template checked for this race: the shared template rules (a field off the canvas is
 * named), every per-race field and the one photo slot of this race, and a background uploaded for it.
 */
async function checkedDraft(ctx: AppContext, eventId: number, draft: CertificateDraft): Promise<CertificateTemplateConfig> {
  const config = await placedTemplate(draft.template_config);
  const other = fieldOfOtherRace(config, [eventId]);
  if (other) throw badRequest(CERTIFICATE_SETTINGS_MESSAGES.otherRace(templateFieldLabel(other)));
  if (config.images.length !== 1) throw badRequest(CERTIFICATE_SETTINGS_MESSAGES.onePhotoSlot);
  if (config.images[0].event_id !== eventId) throw badRequest(CERTIFICATE_SETTINGS_MESSAGES.otherRace('Photo slot 1'));
  if (draft.background_key !== null) {
    const match = BACKGROUND_KEY.exec(draft.background_key);
    if (!match || Number(match[1]) !== eventId || !(await ctx.storage.exists(draft.background_key)))
      throw badRequest(CERTIFICATE_SETTINGS_MESSAGES.backgroundKey);
  }
  return config;
}

/** Saves the race's certificate in one statement, after every check: a refused draft leaves the stored one as it was. */
export async function saveCertificateSettings(
  ctx: AppContext,
  eventId: number,
  draft: CertificateDraft & { active: boolean },
  organiserId: number,
): Promise<OrganiserCertificate> {
  const before = await certificateSettings(ctx, eventId);
  if (!before.has_results) throw new AppError(409, CERTIFICATE_SETTINGS_MESSAGES.noResults);
  const config = await checkedDraft(ctx, eventId, draft);
  await ctx.db.transaction(async (tx) => {
    await tx.query(
      `update achievements set active = $2, title = $3, accent_color = $4, template_image_key = $5, template_config = $6::jsonb where finisher_event_id = $1`,
      [eventId, draft.active, draft.title, draft.accent_color.toLowerCase(), draft.background_key, JSON.stringify(config)],
    );
    const summary = (s: { active: boolean; title: string; accent_color: string; background_key: string | null }) =>
      `${s.active ? 'on' : 'off'}, "${s.title}", ${s.background_key ? 'own background' : `standard layout in ${s.accent_color.toLowerCase()}`}`;
    await tx.query('insert into event_changes (event_id, field, old_value, new_value, changed_by) values ($1, $2, $3, $4, $5)', [
      eventId,
      'certificate',
      summary(before),
      summary(draft),
      organiserId,
    ]);
  });
  return certificateSettings(ctx, eventId);
}

/** Stores an organiser's background (JPEG or PNG, at most the limit) at the template's size; nothing else changes until the certificate is saved. */
export async function storeCertificateBackground(ctx: AppContext, eventId: number, base64: string): Promise<CertificateBackgroundResult> {
  const { width, height } = (await certificateSettings(ctx, eventId)).template_config.output_resolution;
  return storeBackground(ctx, backgroundPrefix(eventId), base64, width, height);
}

/**
 * An uploaded background (JPEG or PNG, at most the limit) stored as a JPEG at the template's size under
 * prefix, named by its content (public: the builder draws it). Anything else is refused with the
 * message that names the rule; nothing is stored then.
 */
export async function storeBackground(ctx: AppContext, prefix: string, base64: string, width: number, height: number): Promise<CertificateBackgroundResult> {
  const bytes = Buffer.from(base64.replace(/^data:[^,]*,/, ''), 'base64');
  if (bytes.length > CERTIFICATE_BACKGROUND_MAX_BYTES) throw badRequest(CERTIFICATE_SETTINGS_MESSAGES.backgroundSize);
  if (bytes.length === 0) throw badRequest(CERTIFICATE_SETTINGS_MESSAGES.background);
  let jpeg: Buffer;
  try {
    const meta = await sharp(bytes).metadata();
    if (meta.format !== 'png' && meta.format !== 'jpeg') throw new Error('format');
    jpeg = await sharp(bytes).rotate().resize(width, height, { fit: 'cover' }).flatten({ background: '#ffffff' }).jpeg({ quality: 90 }).toBuffer();
  } catch {
    throw badRequest(CERTIFICATE_SETTINGS_MESSAGES.background);
  }
  const key = `${prefix}${crypto.createHash('sha256').update(jpeg).digest('hex').slice(0, 16)}.jpg`;
  await ctx.storage.put(key, jpeg, 'image/jpeg');
  return { background_key: key, background_url: ctx.storage.publicUrl(key) };
}

/** The server's full drawing downscaled to the preview's width. */
export async function previewImage(full: Buffer, config: CertificateTemplateConfig): Promise<Pick<CertificatePreviewResult, 'image' | 'width' | 'height'>> {
  const { width, height } = config.output_resolution;
  const previewHeight = Math.round((height * CERTIFICATE_PREVIEW_WIDTH) / width);
  const small = await sharp(full).resize(CERTIFICATE_PREVIEW_WIDTH, previewHeight).jpeg({ quality: 80 }).toBuffer();
  return { image: `data:image/jpeg;base64,${small.toString('base64')}`, width: CERTIFICATE_PREVIEW_WIDTH, height: previewHeight };
}

/**
 * The draft drawn by the server's renderer with one real finisher of the race (the fastest official
 * time among those with photos, else the fastest), downscaled. The photo slot gets that BIB's watermarked preview: the organiser never receives
 * an original or an unmarked rendition here.
 */
export async function previewCertificate(ctx: AppContext, eventId: number, draft: CertificateDraft): Promise<CertificatePreviewResult> {
  const race = await raceOf(ctx.db, eventId);
  const config = await checkedDraft(ctx, eventId, draft);
  const rows = await ctx.db.query<{ name: string; bib_number: string; finish_time: string }>(
    `select name, bib_number, finish_time::text as finish_time from participants
      where event_id = $1 and finish_time is not null
      order by (exists (select 1 from photo_bibs pb where pb.event_id = $1 and pb.bib_number = participants.bib_number)) desc, finish_time, bib_number
      limit 1`,
    [eventId],
  );
  const finisher = rows[0];
  if (!finisher) throw new AppError(409, CERTIFICATE_SETTINGS_MESSAGES.noResults);
  const [photo] = await photosOfBib(ctx.db, eventId, finisher.bib_number);
  const photos = new Map<number, Buffer>();
  if (photo) photos.set(eventId, await ctx.storage.getBuffer(photo.preview_key));
  const background = draft.background_key ? await ctx.storage.getBuffer(draft.background_key) : await renderBackground(config, draft.accent_color);
  const finishTime = formatFinishTime(finisher.finish_time) ?? '';
  const full = await renderCertificate({
    config,
    background,
    photos,
    values: {
      participantName: finisher.name,
      events: [{ event_id: eventId, event_name: race.name, bib_number: finisher.bib_number, finish_time: finishTime }],
    },
  });
  return {
    ...(await previewImage(full, config)),
    participant_name: finisher.name,
    bib_number: finisher.bib_number,
    finish_time: finishTime,
    with_photo: Boolean(photo),
  };
}
