import type { Db } from '../../db/db';
import { notReportedSql, READY_PHOTO_SQL } from '../../rules/photos';
import { normaliseBib } from '../../rules/privacy';

export interface BibPhotoRow {
  [column: string]: unknown;
  id: number;
  image_id: string;
  original_key: string;
  preview_key: string;
  thumb_key: string;
  width: number;
  height: number;
}

/**
 * The one place this feature selects photos by BIB: the images of a BIB in an event that everyone
 * may see (none hidden by the BIB's owner or upheld as "not me"), in capture order; one photo when
 * photoId is given. Pages for the builder come from the paginate call (discovery), which applies
 * the same rule.
 */
export async function photosOfBib(db: Db, eventId: number, bib: string, photoId?: number): Promise<BibPhotoRow[]> {
  return db.query<BibPhotoRow>(
    `select p.id, p.image_id, p.original_key, p.preview_key, p.thumb_key, p.width, p.height
       from photo_bibs b join photos p on p.id = b.photo_id
      where b.event_id = $1 and b.bib_number = $2 and p.kind = 'image' and ${READY_PHOTO_SQL}
        and ($3::int is null or p.id = $3)
        and ${notReportedSql('$2', 'null')}
      order by p.seq, p.id`,
    [eventId, normaliseBib(bib), photoId ?? null],
  );
}

/**
 * The original of the first photo of this BIB that a paid order under this address holds (order
 * lines' photo ids, the oldest order first), or null: what another race's slot of a zip's
 * certificate may show.
 */
export async function boughtPhotoKey(db: Db, email: string, eventId: number, bib: string): Promise<string | null> {
  const rows = await db.query<{ original_key: string }>(
    `select p.original_key
       from orders o join order_items i on i.order_id = o.id
       join photos p on p.id = any(i.photo_ids) and p.kind = 'image'
       join photo_bibs b on b.photo_id = p.id and b.event_id = o.event_id and b.bib_number = o.bib_number
      where o.event_id = $1 and o.bib_number = $2 and lower(o.email) = lower($3) and o.status in ('Paid', 'Downloaded')
      order by o.paid_at, o.id, p.seq, p.id
      limit 1`,
    [eventId, normaliseBib(bib), email],
  );
  return rows[0]?.original_key ?? null;
}
