import crypto from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import type { AppContext } from '../../context';
import { AppError } from '../../http/envelope';
import { findEvent } from '../events';
import { faceDetector } from '../../models/faces/detector';
import type { DetectedFace } from '../../models/faces/engine';
import { saveFacesOfPhoto } from './embeddingStore';

/**
 * Development and end-to-end support: adds a photo to an event as photographers' uploads would
 * (original, watermark-free preview and thumbnail, an unlabeled photos row) and indexes its faces at
 * once, with the detector and the store the background worker uses, before it answers. Lets a
 * browser journey search by selfie for a face that the demo seed does not contain. Not through the
 * worker's queue: its pace and its head start for uploads are for a backlog, and under a busy
 * machine they kept a journey waiting past its time. Registered only with the development pages.
 */
export async function addIndexedEventPhoto(ctx: AppContext, eventId: number, image: Buffer): Promise<{ photoId: number; imageId: string; faces: number }> {
  const event = await findEvent(ctx.db, eventId);
  if (!event) throw new AppError(400, 'We could not find this event.');
  if (!event.selfiesearch) throw new AppError(400, 'This event does not offer search by selfie: its photos are not face-indexed.');
  let jpeg: Buffer;
  let meta: Metadata;
  try {
    jpeg = await sharp(image).rotate().jpeg({ quality: 90 }).toBuffer();
    meta = await sharp(jpeg).metadata();
  } catch {
    throw new AppError(400, 'Please send a JPG or PNG image.');
  }
  let faces: DetectedFace[];
  try {
    faces = await faceDetector().detect(jpeg, 'index');
  } catch (error) {
    throw new AppError(500, `Indexing failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const imageId = `DEV-${crypto.randomBytes(4).toString('hex').toUpperCase()}`;
  const folder = `dev/${eventId}`;
  const keys = { original: `originals/${folder}/${imageId}.jpg`, preview: `previews/${folder}/${imageId}.jpg`, thumb: `thumbs/${folder}/${imageId}.jpg` };
  await ctx.storage.put(keys.original, jpeg, 'image/jpeg');
  await ctx.storage.put(keys.preview, await sharp(jpeg).resize({ width: 1024, withoutEnlargement: true }).jpeg().toBuffer(), 'image/jpeg');
  await ctx.storage.put(keys.thumb, await sharp(jpeg).resize({ width: 320, withoutEnlargement: true }).jpeg().toBuffer(), 'image/jpeg');
  // The photo, its faces and its finished job in one transaction: the sweep never sees it unindexed.
  const photoId = await ctx.db.transaction(async (tx) => {
    const rows = await tx.query<{ id: number }>(
      // Re-encoded by sharp above, which writes no metadata: clean as stored.
      `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, metadata_cleaned_at)
       values ($1, $2, 'image', $3, $4, $5, $6, $7, now()) returning id`,
      [eventId, imageId, keys.original, keys.preview, keys.thumb, meta.width ?? 0, meta.height ?? 0],
    );
    const id = rows[0]!.id;
    await saveFacesOfPhoto(tx, id, eventId, faces);
    await tx.query(
      `insert into face_index_jobs (photo_id, event_id, priority, status, attempts, face_count, finished_at) values ($1, $2, 1, 'done', 1, $3, now())`,
      [id, eventId, faces.length],
    );
    return id;
  });
  return { photoId, imageId, faces: faces.length };
}
