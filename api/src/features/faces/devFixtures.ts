import crypto from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import type { AppContext } from '../../context';
import { AppError } from '../../http/envelope';
import { findEvent } from '../events';
import { queuePhotosForFaces } from './faceJobs';

/**
 * Development and end-to-end support: adds a photo to an event as photographers' uploads would
 * (original, watermark-free preview and thumbnail, an unlabeled photos row), queues it first for
 * face indexing and waits until it is indexed. Lets a browser journey search by selfie for a face
 * that the demo seed does not contain. Registered only with the development pages.
 */
export async function addIndexedEventPhoto(
  ctx: AppContext,
  eventId: number,
  image: Buffer,
  timeoutMs = 120_000,
): Promise<{ photoId: number; imageId: string; faces: number }> {
  const event = await findEvent(ctx.db, eventId);
  if (!event) throw new AppError(400, 'We could not find this event.');
  let jpeg: Buffer;
  let meta: Metadata;
  try {
    jpeg = await sharp(image).rotate().jpeg({ quality: 90 }).toBuffer();
    meta = await sharp(jpeg).metadata();
  } catch {
    throw new AppError(400, 'Please send a JPG or PNG image.');
  }
  const imageId = `DEV-${crypto.randomBytes(4).toString('hex').toUpperCase()}`;
  const folder = `dev/${eventId}`;
  const keys = { original: `originals/${folder}/${imageId}.jpg`, preview: `previews/${folder}/${imageId}.jpg`, thumb: `thumbs/${folder}/${imageId}.jpg` };
  await ctx.storage.put(keys.original, jpeg, 'image/jpeg');
  await ctx.storage.put(keys.preview, await sharp(jpeg).resize({ width: 1024, withoutEnlargement: true }).jpeg().toBuffer(), 'image/jpeg');
  await ctx.storage.put(keys.thumb, await sharp(jpeg).resize({ width: 320, withoutEnlargement: true }).jpeg().toBuffer(), 'image/jpeg');
  const rows = await ctx.db.query<{ id: number }>(
    // Re-encoded by sharp above, which writes no metadata: clean as stored.
    `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, metadata_cleaned_at)
     values ($1, $2, 'image', $3, $4, $5, $6, $7, now()) returning id`,
    [eventId, imageId, keys.original, keys.preview, keys.thumb, meta.width ?? 0, meta.height ?? 0],
  );
  const photoId = rows[0]!.id;
  await queuePhotosForFaces(ctx.db, [photoId]);

  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const jobs = await ctx.db.query<{ status: string; face_count: number | null; error: string | null }>(
      'select status, face_count, error from face_index_jobs where photo_id = $1',
      [photoId],
    );
    const job = jobs[0];
    if (job?.status === 'done') return { photoId, imageId, faces: job.face_count ?? 0 };
    if (job?.status === 'failed') throw new AppError(500, `Indexing failed: ${job.error ?? 'unknown error'}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new AppError(504, 'The photo was not indexed in time; is the face indexer running (FACE_INDEXING)?');
}
