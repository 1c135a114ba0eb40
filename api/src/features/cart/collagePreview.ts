import { COLLAGE_RULE_MESSAGE, type CartRequest } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { AppError, badRequest } from '../../http/envelope';
import { officialTime, raceDate, renderCollage } from '../../media/printFiles';
import { buildBill } from './bill';

/**
 * The runner's collage before paying: the cart's journey-map collage drawn as the print-files job
 * will draw it (same layout, race name and date, runner's name and official time, course map), but
 * small and from the watermarked previews the runner already sees, so it gives away no photo.
 */

/** About 720 x 1080 px for the 2 ft x 3 ft portrait: enough for a phone, quick to draw. */
export const COLLAGE_PREVIEW_DPI = 30;
export const PREVIEW_FAILED_MESSAGE = 'We could not draw the preview of your collage. Please try again.';

export async function collagePreview(
  ctx: AppContext,
  cart: CartRequest,
  client: { ip: string; sessionId: number | null },
  log: (error: unknown) => void = () => undefined,
): Promise<Buffer> {
  const collage = cart.lines.find((l) => l.type === 'collage');
  if (!collage) throw badRequest(COLLAGE_RULE_MESSAGE);
  // The bill's rules decide what may be previewed, as they decide what may be bought: the event is
  // published, the photos are its own, ready and released to this session, collages are on sale.
  await buildBill(ctx, { ...cart, packageKind: null, lines: [collage], discountedPhotoIds: [], sponsorofferID: null }, client);

  const photoIds = collage.collagePhotoIds ?? [];
  const [event] = await ctx.db.query<{ name: string; from_date: string | Date; course_map_key: string | null }>(
    'select name, from_date, course_map_key from events where id = $1',
    [cart.eventId],
  );
  const previews = await ctx.db.query<{ id: number; preview_key: string }>('select id, preview_key from photos where id = any($1::int[])', [photoIds]);
  const [runner] = cart.bibNumber
    ? await ctx.db.query<{ name: string; finish_time: string | null }>(
        'select name, finish_time::text as finish_time from participants where event_id = $1 and upper(bib_number) = upper($2) limit 1',
        [cart.eventId, cart.bibNumber],
      )
    : [];
  const keyOf = new Map(previews.map((p) => [p.id, p.preview_key]));
  let photos: Buffer[];
  try {
    photos = await Promise.all(photoIds.map((id) => ctx.storage.getBuffer(keyOf.get(id)!)));
  } catch (error) {
    // A preview image gone from storage (or storage not answering): say so plainly, log the cause.
    log(error);
    throw new AppError(500, PREVIEW_FAILED_MESSAGE);
  }
  const courseMap = event!.course_map_key ? await ctx.storage.getBuffer(event!.course_map_key).catch(() => null) : null;

  const drawn = await renderCollage(
    {
      photos,
      orientation: collage.orientation === 'Horizontal' ? 'Horizontal' : 'Vertical',
      eventName: event!.name,
      eventDate: raceDate(event!.from_date),
      // Before checkout the buyer's name is not known yet: the participant list's, or the BIB.
      runnerName: runner?.name ?? (cart.bibNumber ? `BIB ${cart.bibNumber}` : ''),
      officialTime: officialTime(runner?.finish_time ?? null),
      courseMap,
    },
    COLLAGE_PREVIEW_DPI,
    { checkResolution: false },
  );
  if (!drawn.ok) throw new AppError(500, PREVIEW_FAILED_MESSAGE);
  return drawn.file;
}
