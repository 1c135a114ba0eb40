import type { AppContext } from '../../context';
import { forbidden } from '../../http/envelope';
import { PHOTO_SALES_CTE } from '../../rules/photoSales';
import { normaliseBib } from '../../rules/privacy';
import {
  SUPPLY_MAX_PER_PAGE,
  SUPPLY_MESSAGES,
  type SupplyBib,
  type SupplyCounts,
  type SupplyEvent,
  type SupplyPhoto,
  type SupplyPhotoStatus,
  type SupplyPhotosResult,
} from '@finishline/shared/pure';
import { mailPreordersOfBibs } from './preorderNotice';
import { supplyStatusOf } from './photoStatus';
import { findableWaitOf } from './findableWait';

/**
 * The photographer's own photos of an event: status, BIBs, hand corrections, removal of unsold
 * photos. Every query is limited to the caller's own photos (partner_user_id), so a partner never
 * sees, tags or removes another partner's photo.
 */

/** Thumbnails on the review screen are signed for an hour. */
const THUMB_LINK_MS = 3600_000;

export async function approvedEventsOf(ctx: AppContext, userId: number): Promise<SupplyEvent[]> {
  const rows = await ctx.db.query<{ id: number; name: string; from_date: string | null; to_date: string | null }>(
    `select e.id, e.name, e.from_date::text as from_date, e.to_date::text as to_date
       from event_partners ep join events e on e.id = ep.event_id
      where ep.user_id = $1 and ep.status = 'approved'
      order by e.from_date desc nulls last, e.name`,
    [userId],
  );
  return rows.map((r) => ({ eventId: r.id, eventName: r.name, fromDate: r.from_date, toDate: r.to_date }));
}

interface PhotoRow {
  [column: string]: unknown;
  id: number;
  event_id: number;
  image_id: string;
  original_name: string | null;
  status: 'processing' | 'ready' | 'failed';
  failure_reason: string | null;
  thumb_key: string;
  created_at: Date;
  bibs: SupplyBib[] | null;
  sold: boolean;
}

const PHOTO_SELECT = `with ${PHOTO_SALES_CTE}
  select p.id, p.event_id, p.image_id, p.original_name, p.status, p.failure_reason, p.thumb_key, p.created_at,
         (select json_agg(json_build_object('bibNumber', b.bib_number, 'source', b.source, 'confidence', b.confidence) order by b.bib_number)
            from photo_bibs b where b.photo_id = p.id) as bibs,
         exists (select 1 from photo_sales s where s.photo_id = p.id) as sold
    from photos p`;

function statusOf(row: PhotoRow): SupplyPhotoStatus {
  return supplyStatusOf(row.status, (row.bibs ?? []).length > 0);
}

async function shown(ctx: AppContext, row: PhotoRow, expiresAt: Date): Promise<SupplyPhoto> {
  return {
    photoId: row.id,
    imageId: row.image_id,
    originalName: row.original_name,
    status: statusOf(row),
    failureReason: row.failure_reason,
    bibs: row.bibs ?? [],
    thumbUrl: row.status === 'ready' ? await ctx.storage.signedUrl(row.thumb_key, expiresAt) : null,
    sold: row.sold,
    uploadedAt: new Date(row.created_at).toISOString(),
  };
}

/** SQL condition on photo p for a status of the review screen's filter. */
const STATUS_SQL: Record<SupplyPhotoStatus | 'all', string> = {
  all: 'true',
  processing: `p.status = 'processing'`,
  failed: `p.status = 'failed'`,
  tagged: `p.status = 'ready' and exists (select 1 from photo_bibs b where b.photo_id = p.id)`,
  unlabeled: `p.status = 'ready' and not exists (select 1 from photo_bibs b where b.photo_id = p.id)`,
};

/**
 * The partner's counts of an event: kept by a trigger as photos change (migration 553), so the upload
 * screen's poll reads one row instead of counting every photo.
 */
export async function countsOf(ctx: AppContext, userId: number, eventId: number): Promise<SupplyCounts> {
  const [row] = await ctx.db.query<{ uploaded: number; processing: number; searchable: number; failed: number }>(
    'select uploaded, processing, searchable, failed from partner_photo_counts where partner_user_id = $1 and event_id = $2',
    [userId, eventId],
  );
  return { uploaded: row?.uploaded ?? 0, processing: row?.processing ?? 0, searchable: row?.searchable ?? 0, needsAttention: row?.failed ?? 0 };
}

/** One page of the partner's photos of an event (newest first), of one status or all; perPage 0: the counts only. */
export async function photosOf(
  ctx: AppContext,
  userId: number,
  eventId: number,
  list: { page: number; perPage: number; status: SupplyPhotoStatus | 'all' } = { page: 1, perPage: SUPPLY_MAX_PER_PAGE, status: 'all' },
): Promise<SupplyPhotosResult> {
  const counts = await countsOf(ctx, userId, eventId);
  // The estimate only while some of theirs wait (the kept count says so without a query).
  const findable = counts.processing > 0 ? await findableWaitOf(ctx, userId, eventId) : null;
  const base = { counts, findable, page: list.page, perPage: list.perPage };
  const totalOfStatus = { all: counts.uploaded, processing: counts.processing, failed: counts.needsAttention } as Partial<
    Record<SupplyPhotoStatus | 'all', number>
  >;
  let total = totalOfStatus[list.status];
  if (list.perPage === 0) return { ...base, photos: [], total: total ?? 0 };
  // Finish-line clips (cut from a partner's video) are not the partner's photos to review.
  const where = `where p.partner_user_id = $1 and p.event_id = $2 and p.source_video_id is null and ${STATUS_SQL[list.status]}`;
  const rows = await ctx.db.query<PhotoRow>(`${PHOTO_SELECT} ${where} order by p.created_at desc, p.id desc limit $3 offset $4`, [
    userId,
    eventId,
    list.perPage,
    (list.page - 1) * list.perPage,
  ]);
  if (total === undefined) {
    const [row] = await ctx.db.query<{ n: number }>(`select count(*)::int as n from photos p ${where}`, [userId, eventId]);
    total = row?.n ?? 0;
  }
  const expiresAt = new Date(Date.now() + THUMB_LINK_MS);
  return { ...base, photos: await Promise.all(rows.map((row) => shown(ctx, row, expiresAt))), total };
}

/** The caller's photo (403 for anyone else's, or one that does not exist: nothing is learnt either way). */
export async function ownPhoto(ctx: AppContext, userId: number, photoId: number): Promise<PhotoRow> {
  const rows = await ctx.db.query<PhotoRow>(`${PHOTO_SELECT} where p.id = $1 and p.partner_user_id = $2 and p.source_video_id is null`, [photoId, userId]);
  if (!rows[0]) throw forbidden(SUPPLY_MESSAGES.notYourPhoto);
  return rows[0];
}

/**
 * Sets the BIBs a photo is found under: BIBs kept stay as they were (an OCR reading keeps its
 * source), new ones are the photographer's (manual), missing ones are removed. Searchable at once.
 */
export async function setPhotoBibs(ctx: AppContext, photo: PhotoRow, bibs: string[]): Promise<SupplyPhoto> {
  const wanted = [...new Set(bibs.map(normaliseBib))];
  await ctx.db.transaction(async (tx) => {
    await tx.query('delete from photo_bibs where photo_id = $1 and not (bib_number = any($2::text[]))', [photo.id, wanted]);
    for (const bib of wanted) {
      await tx.query(
        `insert into photo_bibs (photo_id, event_id, bib_number, source) values ($1, $2, $3, 'manual') on conflict (photo_id, bib_number) do nothing`,
        [photo.id, photo.event_id, bib],
      );
    }
  });
  if (photo.status === 'ready') await mailPreordersOfBibs(ctx, photo.event_id, wanted);
  const [row] = await ctx.db.query<PhotoRow>(`${PHOTO_SELECT} where p.id = $1`, [photo.id]);
  return shown(ctx, row!, new Date(Date.now() + THUMB_LINK_MS));
}
