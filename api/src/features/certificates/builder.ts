import {
  CERTIFICATE_LIMITS,
  CERTIFICATE_MESSAGES,
  rowsOfPairs,
  type AchievementDetails,
  type AchievementsSearchInput,
  type AchievementsSearchPair,
  type AchievementsSearchResult,
  type CertificatePhoto,
  type Photo,
  type TemplateDetailsInput,
  type TemplateDetailsResult,
} from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { AppError } from '../../http/envelope';
import { searchLinksExpireAt } from '../../rules/photos';
import { assertBibsReleased, normaliseBib } from '../../rules/privacy';
import { paginatePhotos } from '../discovery';
import { findEvent } from '../events';
import { achievementOfEvents, requireAchievement, templateConfigOf, type AchievementRow, type RequiredEvent } from './achievements';
import { photosOfBib } from './photos';
import { standardBackgroundKey } from './render';
import { certificatePhotoUrl } from './renditions';
import { resultOf, sameRunner, type ResultRow } from './results';
import { pairsUsableBy, photosUsableBy } from './rights';
import { chosePhotos, latestRun, startRun, type RunCaller } from './runs';

const NO_ACHIEVEMENT = 'These events do not make up one achievement. Please choose the events of one achievement.';
const DIFFERENT_RUNNERS = 'The BIB numbers belong to different runners. Please check them and search again.';
export const SEARCH_FIRST = 'Please search for your events and BIB numbers first.';

const noPhotos = (field: number, eventName: string) => `No photos found for the BIB in field ${field} (${eventName}). Please check the number and try again.`;
const noTime = (field: number, eventName: string) =>
  `We have no official finish time for the BIB in field ${field} (${eventName}), so it does not count towards the achievement yet.`;
const missingEvents = (title: string, events: RequiredEvent[]) =>
  `The ${title} certificate needs a BIB for each of its races. Please add: ${events.map((e) => e.event_name).join(', ')}.`;

function detailsOf(achievement: AchievementRow, required: RequiredEvent[], results: ResultRow[]): AchievementDetails {
  return {
    achievement_id: achievement.id,
    title: achievement.title,
    description: achievement.description,
    participant_name: results[0]?.name ?? '',
    events: required.map((event) => {
      const result = results.find((r) => r.event_id === event.event_id);
      return { event_id: event.event_id, event_name: event.event_name, bib_number: result?.bib_number ?? '', finish_time: result?.finish_time ?? null };
    }),
  };
}

function certificatePhoto(photo: Pick<Photo, 'id' | 's3' | 'image' | 'imageid'>, eventId: number, result: ResultRow): CertificatePhoto {
  return {
    id: photo.id,
    s3: photo.s3,
    image: photo.image,
    photo_id: photo.imageid,
    event_id: eventId,
    participant_details: { name: result.name, finish_time: result.finish_time },
  };
}

/**
 * Achievements search (spec: up to four event + BIB pairs). The pairs must make up one achievement,
 * each BIB must have photos this session may see (the paginate call's rules: searchable event,
 * privacy OTP, reports) and an official finish time, and all must be the same runner's. The
 * session's run remembers them; the answer holds the first page of each pair's photos.
 */
export async function searchAchievements(ctx: AppContext, input: AchievementsSearchInput, caller: RunCaller): Promise<AchievementsSearchResult> {
  const rows = rowsOfPairs(input.event_bib_pairs).map((row, i) => ({ field: i + 1, eventId: row.eventId!, bib: normaliseBib(row.bibNumber) }));
  const achievement = await achievementOfEvents(
    ctx.db,
    rows.map((r) => r.eventId),
    input.achievement_id ?? null,
  );
  if (!achievement) throw new AppError(400, NO_ACHIEVEMENT);
  const { events: required } = await requireAchievement(ctx.db, achievement.id);
  const missing = required.filter((event) => !rows.some((r) => r.eventId === event.event_id));
  if (missing.length > 0) throw new AppError(400, missingEvents(achievement.title, missing));

  const found: Array<{ row: (typeof rows)[number]; result: ResultRow; page: Awaited<ReturnType<typeof paginatePhotos>> }> = [];
  for (const row of rows) {
    const page = await paginatePhotos(
      ctx,
      { event_id: row.eventId, bib_number: row.bib, page: input.page, per_page: CERTIFICATE_LIMITS.photosPerPage },
      caller.sessionId,
      caller.userId,
    );
    if (page.pagination.total === 0) throw new AppError(404, noPhotos(row.field, page.eventName));
    const result = await resultOf(ctx.db, row.eventId, row.bib);
    if (!result?.finish_time) throw new AppError(400, noTime(row.field, page.eventName));
    found.push({ row, result, page });
  }
  if (!found.every((f) => sameRunner(f.result, found[0].result))) throw new AppError(400, DIFFERENT_RUNNERS);

  const ordered = required.map((event) => found.find((f) => f.row.eventId === event.event_id)!);
  const results = ordered.map((f) => f.result);
  await startRun(ctx.db, caller, {
    achievement_id: achievement.id,
    pairs: ordered.map((f) => ({ event_id: f.row.eventId, bib_number: f.row.bib })),
    participant_name: results[0].name,
  });
  const usable = await pairsUsableBy(
    ctx.db,
    caller,
    ordered.map((f) => ({ event_id: f.row.eventId, bib_number: f.row.bib })),
  );
  const pairs: AchievementsSearchPair[] = ordered.map((f, i) => ({
    event_id: f.row.eventId,
    event_name: f.page.eventName,
    bib_number: f.row.bib,
    photos: f.page.photos.map((photo) => certificatePhoto(photo, f.row.eventId, f.result)),
    pagination: f.page.pagination,
    achievement_id: achievement.id,
    photos_usable: usable[i],
  }));
  return { pairs, achievement_details: detailsOf(achievement, required, results) };
}

/**
 * Template details: the photo chosen for each event of the session's latest search must be one of
 * that BIB's photos there (and still released to this session). The run keeps the choice; the
 * answer is the template and the chosen photos with the links the certificate is drawn from.
 */
export async function templateDetails(ctx: AppContext, input: TemplateDetailsInput, caller: RunCaller): Promise<TemplateDetailsResult> {
  const run = await latestRun(ctx.db, caller.sessionId, input.achievement_id);
  if (!run) throw new AppError(409, SEARCH_FIRST);
  const { achievement, events: required } = await requireAchievement(ctx.db, run.achievement_id);
  const selected = input.selected_photos as Record<string, number>;
  const chosenEvents = Object.keys(selected).map(Number);
  if (chosenEvents.length !== run.pairs.length || !run.pairs.every((pair) => chosenEvents.includes(pair.event_id))) {
    throw new AppError(400, CERTIFICATE_MESSAGES.selectImage);
  }

  const expiresAt = searchLinksExpireAt(ctx);
  const photos: CertificatePhoto[] = [];
  const results: ResultRow[] = [];
  for (const pair of run.pairs) {
    const event = await findEvent(ctx.db, pair.event_id);
    if (!event) throw new AppError(409, SEARCH_FIRST);
    await assertBibsReleased(ctx.db, event, [pair.bib_number], caller.sessionId);
    const [photo] = await photosOfBib(ctx.db, pair.event_id, pair.bib_number, selected[String(pair.event_id)]);
    if (!photo) throw new AppError(403, `The photo chosen for ${event.name} is not one of the photos of your BIB there. Please choose again.`);
    const result = await resultOf(ctx.db, pair.event_id, pair.bib_number);
    if (!result?.finish_time) throw new AppError(409, SEARCH_FIRST);
    results.push(result);
    // The print-size rendition only for a session with the right to this BIB's photos; anyone else
    // draws from the watermarked preview (and cannot upload the certificate).
    const usable = await photosUsableBy(ctx.db, caller, pair.event_id, pair.bib_number);
    const [s3, image] = await Promise.all([ctx.storage.signedUrl(photo.preview_key, expiresAt), ctx.storage.signedUrl(photo.thumb_key, expiresAt)]);
    const highRes = usable ? await certificatePhotoUrl(ctx, photo, expiresAt) : s3;
    photos.push({ ...certificatePhoto({ id: photo.id, s3, image, imageid: photo.image_id }, pair.event_id, result), high_res_url: highRes, usable });
  }
  await chosePhotos(ctx.db, run.id, Object.fromEntries(run.pairs.map((pair) => [String(pair.event_id), selected[String(pair.event_id)]])));

  const config = templateConfigOf(achievement, required);
  const imageKey = achievement.template_image_key ?? (await standardBackgroundKey(ctx, config, achievement.accent_color));
  const details = detailsOf(achievement, required, results);
  return {
    photos,
    template: {
      template_image: ctx.storage.publicUrl(imageKey),
      template_config: config,
      config: { required_sequence: required.map((e) => e.event_id) },
      achievement_details: details,
    },
    achievement_details: details,
  };
}
