import { UNLABELED_BIB, type BibAvailabilityEntry, type PaginatePhotosResult } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import type { Db } from '../../db/db';
import { AppError } from '../../http/envelope';
import {
  notReportedSql,
  READY_PHOTO_SQL,
  SHOWN_PHOTO_COLUMNS,
  searchLinksExpireAt,
  shownPhoto,
  taggedWithSql,
  UNLABELED_PHOTO_SQL,
  type ShownPhotoRow,
} from '../../rules/photos';
import { assertBibsReleased, assertUnlabeledReleased, normaliseBib } from '../../rules/privacy';
import { findEvent } from '../events';

/**
 * Advanced search: for each event + BIB, how many photos and videos the BIB has. Counts only, no
 * images: opening the photos goes through the BIB search, which applies the privacy check.
 */
export async function bibAvailability(db: Db, entries: Array<{ eventID: number; bibNumber: string }>): Promise<BibAvailabilityEntry[]> {
  const result: BibAvailabilityEntry[] = [];
  for (const entry of entries) {
    const bib = normaliseBib(entry.bibNumber);
    const rows = await db.query<{ name: string; issearchable: boolean; images: number; videos: number }>(
      `select e.name, e.issearchable,
              count(p.id) filter (where p.kind = 'image')::int as images,
              count(p.id) filter (where p.kind = 'video')::int as videos
         from events e
         left join photos p on p.event_id = e.id and ${READY_PHOTO_SQL} and ${taggedWithSql('$2')}
              and ${notReportedSql('$2', 'null')}
        where e.id = $1 and e.published
        group by e.id`,
      [entry.eventID, bib],
    );
    const row = rows[0];
    if (!row) throw new AppError(400, 'We could not find one of the chosen events. Please choose the events again.');
    const photoCount = row.issearchable ? row.images : 0;
    const videoCount = row.issearchable ? row.videos : 0;
    result.push({
      eventID: entry.eventID,
      eventName: row.name,
      bibNumber: bib,
      photoCount,
      videoCount,
      hasPhotos: photoCount + videoCount > 0,
      issearchable: row.issearchable ? 1 : 0,
    });
  }
  return result;
}

interface PageRow extends ShownPhotoRow {
  total: number;
}

/**
 * One page of an event's photos: the unlabeled ones (bib 'unlabeled', only where showunlabeled=1) or
 * those of one BIB (withheld like the BIB search while a privacy-checked BIB is unverified).
 */
export async function paginatePhotos(
  ctx: AppContext,
  input: { event_id: number; bib_number: string; page: number; per_page: number },
  sessionId: number | null,
  viewerUserId: number | null = null,
): Promise<PaginatePhotosResult> {
  const event = await findEvent(ctx.db, input.event_id);
  if (!event) throw new AppError(400, 'We could not find this event. Please choose an event from the list.');
  const unlabeled = input.bib_number === '' || input.bib_number.toLowerCase() === UNLABELED_BIB;
  const bib = unlabeled ? UNLABELED_BIB : normaliseBib(input.bib_number);
  if (unlabeled) assertUnlabeledReleased(event);
  if (!unlabeled) {
    if (!event.issearchable) throw new AppError(400, `Photos of ${event.name} are not available for search yet.`);
    await assertBibsReleased(ctx.db, event, [bib], sessionId);
  }
  const offset = (input.page - 1) * input.per_page;
  const rows = await ctx.db.query<PageRow>(
    `select ${SHOWN_PHOTO_COLUMNS}, count(*) over ()::int as total
       from photos p
      where p.event_id = $1 and p.kind = 'image'
        and ${unlabeled ? UNLABELED_PHOTO_SQL : `${READY_PHOTO_SQL} and ${taggedWithSql('$4')} and ${notReportedSql('$4', '$5')}`}
      order by p.seq, p.id
      limit $2 offset $3`,
    unlabeled ? [event.id, input.per_page, offset] : [event.id, input.per_page, offset, bib, viewerUserId],
  );
  // A page past the end has no rows to carry the total: count separately then.
  const total =
    rows[0]?.total ??
    (
      await ctx.db.query<{ n: number }>(
        `select count(*)::int as n from photos p where p.event_id = $1 and p.kind = 'image'
            and ${unlabeled ? UNLABELED_PHOTO_SQL : `${READY_PHOTO_SQL} and ${taggedWithSql('$2')} and ${notReportedSql('$2', '$3')}`}`,
        unlabeled ? [event.id] : [event.id, bib, viewerUserId],
      )
    )[0]?.n ??
    0;
  const expiresAt = searchLinksExpireAt(ctx);
  const photos = await Promise.all(rows.map((row) => shownPhoto(ctx, row, { bibNumber: bib, event }, expiresAt)));
  return {
    eventId: event.id,
    eventName: event.name,
    eventLogo: event.logo_key ? ctx.storage.publicUrl(event.logo_key) : '',
    bibNumber: bib,
    photos,
    pagination: { current_page: input.page, per_page: input.per_page, total, last_page: Math.max(1, Math.ceil(total / input.per_page)) },
    awsImageExpary: expiresAt.toISOString(),
  };
}
