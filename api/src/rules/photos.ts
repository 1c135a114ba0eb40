import type { Photo } from '@finishline/shared/pure';
import type { AppContext } from '../context';

/**
 * Which photos exist for buyers, as SQL conditions on the photo alias p. A photo is shown, searched
 * and sold only once it is ready (an upload still processing or failed is the photographer's alone);
 * its BIBs are rows of photo_bibs (a photo may show several runners); a ready photo with no BIB is
 * one of the event's unlabeled photos.
 */
export const READY_PHOTO_SQL = `p.status = 'ready'`;
export const UNLABELED_PHOTO_SQL = `p.status = 'ready' and not exists (select 1 from photo_bibs b where b.photo_id = p.id)`;
/** Photo p is tagged with the BIB in placeholder bibParam. */
export const taggedWithSql = (bibParam: string): string => `exists (select 1 from photo_bibs b where b.photo_id = p.id and b.bib_number = ${bibParam})`;

/**
 * The one SQL condition that leaves out reported photos of a BIB (photo alias p): those its owner
 * hid, those the organiser upheld a "not me" report on for this BIB (a photo of two runners stays in
 * the other runner's results), and those the viewer reported as not them.
 * bibParam and viewerParam are the query's placeholders ($n) for the BIB and the viewer's user id.
 */
export function notReportedSql(bibParam: string, viewerParam: string): string {
  return `not exists (select 1 from photo_feedback f where f.photo_id = p.id and f.bib_number = ${bibParam} and f.feedback = 1)
        and not exists (select 1 from photo_reports r where r.photo_id = p.id and r.withdrawn_at is null
                          and ((r.status = 'upheld' and r.bib_number = ${bibParam}) or r.reporter_user_id = ${viewerParam}::int))`;
}

/** The columns every photo listing selects to show a photo (of `photos p`). */
export const SHOWN_PHOTO_COLUMNS = 'p.id, p.image_id, p.kind, p.preview_key, p.thumb_key, p.seq, p.width, p.height';

export interface ShownPhotoRow {
  [column: string]: unknown;
  id: number;
  image_id: string;
  kind: 'image' | 'video';
  preview_key: string;
  thumb_key: string;
  seq: number;
  /** The picture's size as shown (upright); null until it is processed. */
  width: number | null;
  height: number | null;
}

/** Search results and photo pages sign their links for one search session (awsImageExpary). */
export function searchLinksExpireAt(ctx: AppContext): Date {
  return new Date(Date.now() + ctx.config.searchSessionMinutes * 60_000);
}

/**
 * A photo or video as the storefront shows it: preview and thumbnail signed until expiresAt (the
 * original never leaves storage here), labelled with the BIB it was found under, at the event's price.
 */
export async function shownPhoto(
  ctx: AppContext,
  row: ShownPhotoRow,
  found: { bibNumber: string; event: { single_photo_price: number; video_price: number } },
  expiresAt: Date,
): Promise<Photo> {
  const [preview, thumb] = await Promise.all([ctx.storage.signedUrl(row.preview_key, expiresAt), ctx.storage.signedUrl(row.thumb_key, expiresAt)]);
  const isVideo = row.kind === 'video';
  return {
    id: row.id,
    imageid: row.image_id,
    s3: preview,
    image: thumb,
    category: row.kind,
    type: 'download',
    bibNumber: found.bibNumber,
    ...(isVideo ? { videopath: preview } : {}),
    price: isVideo ? found.event.video_price : found.event.single_photo_price,
    seq: row.seq,
    // The grid reserves the picture's place before its thumbnail arrives (no layout shift).
    ...(row.width && row.height ? { width: row.width, height: row.height } : {}),
  };
}
