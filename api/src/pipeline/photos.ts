import sharp from 'sharp';
import type { AppContext } from '../context';
import type { JobAttempt, JobQueue } from '../queue/jobQueue';
import { definePhotoQueue, PHOTO_QUEUE } from '../queue/queues';
import { uprightCleanOriginal } from '../media/jpegMetadata';
import { renditionsOfEncoded } from '../media/renditions';
import { normaliseBib } from '../rules/privacy';
import { bibRulesFor, createBibReader, type BibReader } from '../models/bibs';
import { queuePhotosForFaces } from '../features/faces';
import { deleteStoredPhoto, mailPreordersOfBibs } from '../features/supply';

/**
 * Processing of one uploaded photo, as a job of the photo queue: EXIF orientation applied to the
 * private original (which keeps no personal metadata), watermarked preview and thumbnail, BIBs read,
 * then the photo is ready (searchable by each BIB found, or one of the event's unlabeled photos) and
 * queued for face indexing. A job that keeps failing leaves the photo failed with its reason.
 */

/** How often an idle photo worker asks for the next photo (see startSupplyWorker). */
export const PHOTO_QUEUE_POLL_SECONDS = 0.5;

interface ProcessingRow {
  [column: string]: unknown;
  id: number;
  event_id: number;
  original_key: string;
  preview_key: string;
  thumb_key: string;
  bib_pattern: string | null;
}

export interface PipelineDeps {
  ctx: AppContext;
  /** Reads BIBs; null: photos become unlabeled until tagged by hand (BIB_READING=false). */
  reader: BibReader | null;
}

/** The message a photographer sees for a photo that could not be processed. */
function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return `We could not process this photo: ${text}`.slice(0, 500);
}

async function participantBibs(ctx: AppContext, eventId: number): Promise<string[] | null> {
  const rows = await ctx.db.query<{ bib_number: string }>('select bib_number from participants where event_id = $1', [eventId]);
  return rows.length > 0 ? rows.map((r) => r.bib_number) : null;
}

/** Processes one photo; throws to have the queue retry it. */
export async function processPhoto(deps: PipelineDeps, photoId: number, attempt: JobAttempt): Promise<void> {
  const { ctx } = deps;
  const rows = await ctx.db.query<ProcessingRow>(
    `select p.id, p.event_id, p.original_key, p.preview_key, p.thumb_key, e.bib_pattern
       from photos p join events e on e.id = p.event_id where p.id = $1 and p.status = 'processing'`,
    [photoId],
  );
  const photo = rows[0];
  if (!photo) return; // removed by its photographer, or done by an earlier attempt
  try {
    const stored = await ctx.storage.getBuffer(photo.original_key);
    // A camera held upright writes the pixels sideways and an EXIF orientation: turn the pixels once,
    // so the original a buyer downloads, the preview and the BIB reader all see the photo upright.
    // The turned original keeps no metadata but the capture time (media/jpegMetadata.ts), and one
    // stored before originals were cleaned on arrival is cleaned here too.
    const upright = await uprightCleanOriginal(stored);
    if (upright !== stored) await ctx.storage.put(photo.original_key, upright, 'image/jpeg');
    const size = await sharp(upright).metadata();
    const width = size.width ?? 0;
    const height = size.height ?? 0;
    // Both are needed before the photo is searchable: the BIBs are read in the reader's process while
    // the renditions are made here, so a photo waits for the longer of the two, not their sum.
    const rules = deps.reader ? bibRulesFor(photo.bib_pattern, await participantBibs(ctx, photo.event_id)) : null;
    const [readings, { preview, thumb }] = await Promise.all([
      deps.reader && rules ? deps.reader.read(upright, rules) : [],
      renditionsOfEncoded(upright, width, height),
    ]);
    await Promise.all([ctx.storage.put(photo.preview_key, preview, 'image/jpeg'), ctx.storage.put(photo.thumb_key, thumb, 'image/jpeg')]);
    let removedMeanwhile = false;
    const foundBibs = await ctx.db.transaction(async (tx) => {
      // Still processing (the photographer may have removed it meanwhile): only then does it become ready.
      const still = await tx.query(`select 1 from photos where id = $1 and status = 'processing' for update`, [photo.id]);
      if (still.length === 0) {
        removedMeanwhile = true;
        return [];
      }
      const bibs = [...new Map(readings.map((r) => [normaliseBib(r.bib), r.confidence])).entries()];
      for (const [bib, confidence] of bibs) {
        await tx.query(
          `insert into photo_bibs (photo_id, event_id, bib_number, source, confidence) values ($1, $2, $3, 'ocr', $4) on conflict (photo_id, bib_number) do nothing`,
          [photo.id, photo.event_id, bib, confidence],
        );
      }
      await tx.query(
        `update photos set status = 'ready', failure_reason = null, width = $2, height = $3, metadata_cleaned_at = coalesce(metadata_cleaned_at, now()) where id = $1`,
        [photo.id, width, height],
      );
      return bibs.map(([bib]) => bib);
    });
    if (removedMeanwhile) {
      // Its photographer removed it while it was processed: the renditions just stored go too.
      const [exists] = await ctx.db.query('select 1 from photos where id = $1', [photo.id]);
      if (!exists) await deleteStoredPhoto(ctx, photo, (message) => console.warn(message));
      return;
    }
    await queuePhotosForFaces(ctx.db, [photo.id]);
    // A pre-order is mailed once (the first ready photo of its BIB after it was paid and mapped).
    await mailPreordersOfBibs(ctx, photo.event_id, foundBibs);
  } catch (error) {
    if (attempt.lastAttempt) {
      await ctx.db.query(`update photos set status = 'failed', failure_reason = $2 where id = $1 and status = 'processing'`, [photo.id, reasonOf(error)]);
    }
    throw error;
  }
}

export interface SupplyWorker {
  /** The BIB reader this worker reads with (the video worker's BIB check shares it); null with BIB_READING=false. */
  readonly reader: BibReader | null;
  stop(): Promise<void>;
}

/**
 * Works the photo queue in this process. The BIB reader is made once per process (its OCR workers
 * take a few seconds to start); tests hand in their own.
 */
export async function startSupplyWorker(
  ctx: AppContext,
  queue: JobQueue,
  options: {
    concurrency?: number;
    reader?: BibReader | null;
    retryDelaySeconds?: number;
    ocrWorkers?: number;
    legacyCheck?: boolean;
    bibEngine?: 'model' | 'tesseract';
    readerProcesses?: number;
  } = {},
): Promise<SupplyWorker> {
  const reader =
    options.reader !== undefined
      ? options.reader
      : await createBibReader({
          workers: options.ocrWorkers ?? 1,
          legacyCheck: options.legacyCheck,
          engine: options.bibEngine,
          processes: options.readerProcesses,
        });
  const ownsReader = options.reader === undefined && reader !== null;
  await definePhotoQueue(queue, options.retryDelaySeconds);
  // pg-boss rests a worker for the poll interval less the job's own time before its next fetch, even
  // with photos waiting: at 2 s a photo of 1-1.5 s was followed by up to a second of rest and a batch
  // kept the two cores about 70 % busy. At 0.5 s the next photo is fetched at once; an idle worker
  // asks twice a second (one indexed query).
  await queue.work<{ photoId: number }>(PHOTO_QUEUE, options.concurrency ?? 2, (data, attempt) => processPhoto({ ctx, reader }, data.photoId, attempt), {
    pollSeconds: PHOTO_QUEUE_POLL_SECONDS,
  });
  return {
    reader,
    async stop() {
      await queue.offWork(PHOTO_QUEUE);
      if (ownsReader) await reader?.close();
    },
  };
}
