import type { Db } from '../../src/db/db';

export interface TestPhoto {
  eventId: number;
  /** The BIB it is found under (null: an unlabeled photo). */
  bib: string | null;
  imageId: string;
  kind?: 'image' | 'video';
  originalKey?: string;
  previewKey?: string;
  thumbKey?: string;
  width?: number;
  height?: number;
  seq?: number;
}

/** A ready photo row with its BIB tag, as the supply line leaves it (its original marked clean of metadata); returns its id. */
export async function insertTestPhoto(db: Db, photo: TestPhoto): Promise<number> {
  const original = photo.originalKey ?? `test/${photo.imageId}.jpg`;
  const rows = await db.query<{ id: number }>(
    `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, seq, metadata_cleaned_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, now()) returning id`,
    [
      photo.eventId,
      photo.imageId,
      photo.kind ?? 'image',
      original,
      photo.previewKey ?? original,
      photo.thumbKey ?? photo.previewKey ?? original,
      photo.width ?? 1200,
      photo.height ?? 800,
      photo.seq ?? 0,
    ],
  );
  const id = rows[0].id;
  if (photo.bib !== null) await tagPhoto(db, id, photo.eventId, photo.bib);
  return id;
}

/** Tags a photo with one more BIB. */
export async function tagPhoto(db: Db, photoId: number, eventId: number, bib: string): Promise<void> {
  await db.query(`insert into photo_bibs (photo_id, event_id, bib_number, source) values ($1, $2, $3, 'manual') on conflict do nothing`, [
    photoId,
    eventId,
    bib,
  ]);
}

/** Another photo with the same files and BIBs as photo `fromId`, under a new image id. */
export async function copyTestPhoto(db: Db, fromId: number, imageId: string): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, metadata_cleaned_at)
     select event_id, $2, kind, original_key, preview_key, thumb_key, width, height, metadata_cleaned_at from photos where id = $1 returning id`,
    [fromId, imageId],
  );
  await db.query(
    `insert into photo_bibs (photo_id, event_id, bib_number, source) select $2, event_id, bib_number, source from photo_bibs where photo_id = $1`,
    [fromId, rows[0].id],
  );
  return rows[0].id;
}
