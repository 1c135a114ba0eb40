import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { Server as TusServer } from '@tus/server';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import { DeleteObjectsCommand, S3Client } from '@aws-sdk/client-s3';
type Upload = Awaited<ReturnType<FileStore['getUpload']>>;
import { ValidationError } from 'yup';
import os from 'node:os';
import {
  API_ROUTES,
  isVideoFile,
  SUPPLY_MESSAGES,
  uploadFileSchema,
  uploadVideoSchema,
  type UploadReceipt,
  type VideoUploadReceipt,
} from '@finishline/shared/pure';
import type { AppConfig } from '../../config/config';
import type { AppContext } from '../../context';
import type { JobQueue } from '../../queue/jobQueue';
import { cleanOriginal } from '../../media/jpegMetadata';
import { PHOTO_QUEUE } from '../../queue/queues';
import { supplyStatusOf } from './photoStatus';
import { acceptVideoFile } from './videoFiles';
import { displayFileName } from './fileNames';
import { pipeline } from 'node:stream/promises';

/**
 * Resumable uploads (tus 1.0). A file is staged as it arrives, chunk by chunk, so a dropped
 * connection or a reloaded page resumes at the last byte stored (HEAD says where): in the bucket when
 * storage is S3, so any API instance behind the load balancer continues any upload, else in the
 * data folder (one process). When
 * the last byte is in, the file is checked (a readable JPEG), recognised by its SHA-256 if it was sent
 * before to the same event, stored without personal metadata in private object storage (the SHA-256
 * is of the file as sent, so sending it again is still recognised) and queued for processing; its reply
 * names the photo. Who may create and continue an upload is checked by the route (routes.ts).
 */

/** The user the route checked, by the Node request it hands to tus (the hooks see a wrapper of it). */
export const checkedUploaders = new WeakMap<object, number>();
const uploaderOfRequest = (req: unknown): number | undefined => {
  const raw = (req as { runtime?: { node?: { req?: object } } }).runtime?.node?.req;
  return raw ? checkedUploaders.get(raw) : undefined;
};
/** The last PATCH of a file answers with its UploadReceipt, as base64 JSON in this header. */
export const RECEIPT_HEADER = 'Upload-Receipt';
/** Unfinished uploads are forgotten after this long. */
const UPLOAD_EXPIRY_MS = 24 * 3600_000;

/** A tus hook refuses with this shape; the body is what the photographer reads for that file. */
const refuse = (status: number, reason: string) => ({ status_code: status, body: reason });

/** Parses the Upload-Metadata header (key base64value, ...). */
export function parseUploadMetadata(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(',')) {
    const [key, value] = part.trim().split(' ');
    if (key) out[key] = value ? Buffer.from(value, 'base64').toString('utf8') : '';
  }
  return out;
}

/** Throws the reason a finished file is not a usable photo. */
async function checkJpeg(file: Buffer): Promise<{ width: number; height: number }> {
  if (file.length < 3 || file[0] !== 0xff || file[1] !== 0xd8 || file[2] !== 0xff) throw refuse(422, SUPPLY_MESSAGES.notJpeg);
  try {
    const meta = await sharp(file).metadata();
    if (meta.format !== 'jpeg') throw new Error('not jpeg');
    // Decoding at 1/8 scale reads every byte of the image data: a cut-off or damaged file fails here.
    await sharp(file, { failOn: 'truncated' }).resize(64).toBuffer();
    return { width: meta.width ?? 0, height: meta.height ?? 0 };
  } catch {
    throw refuse(422, SUPPLY_MESSAGES.corrupt);
  }
}

/** The receipt of a file already sent to this event: the earlier photo, in the state it is in now. */
async function earlierCopy(ctx: AppContext, eventId: number, sha256: string): Promise<UploadReceipt | null> {
  const rows = await ctx.db.query<{ id: number; image_id: string; status: string; tagged: boolean }>(
    `select p.id, p.image_id, p.status, exists (select 1 from photo_bibs b where b.photo_id = p.id) as tagged
       from photos p where p.event_id = $1 and p.content_sha256 = $2`,
    [eventId, sha256],
  );
  const photo = rows[0];
  if (!photo) return null;
  return { photoId: photo.id, imageId: photo.image_id, duplicate: true, status: supplyStatusOf(photo.status, photo.tagged) };
}

/**
 * Takes a finished file in: a readable JPEG, not sent to this event before (SHA-256), stored as the
 * private original and queued for processing. The tus finish and the demo seed both come here.
 */
export async function acceptPhotoFile(
  ctx: AppContext,
  queue: () => Promise<JobQueue>,
  input: { eventId: number; userId: number; filename: string; file: Buffer },
): Promise<UploadReceipt> {
  const { eventId, userId, file } = input;
  const { width, height } = await checkJpeg(file);
  const sha256 = crypto.createHash('sha256').update(file).digest('hex');
  const known = await earlierCopy(ctx, eventId, sha256);
  if (known) return known;

  const imageId = `UP${eventId}-${crypto.randomBytes(6).toString('hex').toUpperCase()}`;
  const folder = `uploads/${eventId}`;
  const keys = { original: `originals/${folder}/${imageId}.jpg`, preview: `previews/${folder}/${imageId}.jpg`, thumb: `thumbs/${folder}/${imageId}.jpg` };
  // Stored without the camera's personal metadata (GPS position, serial numbers, names, XMP, IPTC,
  // thumbnails): only its orientation, applied by the pipeline, and the capture time stay.
  await ctx.storage.put(keys.original, await cleanOriginal(file), 'image/jpeg');
  const inserted = await ctx.db.query<{ id: number }>(
    `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, seq, status, partner_user_id, content_sha256, original_name, metadata_cleaned_at)
     values ($1, $2, 'image', $3, $4, $5, $6, $7, (select coalesce(max(seq), 0) + 1 from photos where event_id = $1), 'processing', $8, $9, $10, now())
     on conflict (event_id, content_sha256) where content_sha256 is not null do nothing
     returning id`,
    [eventId, imageId, keys.original, keys.preview, keys.thumb, width, height, userId, sha256, displayFileName(input.filename)],
  );
  if (!inserted[0]) {
    // The same file finished a moment ago in a parallel upload: that photo is the one.
    const other = await earlierCopy(ctx, eventId, sha256);
    if (!other) throw new Error('The same file was stored by a parallel upload that cannot be found.');
    return other;
  }
  await (await queue()).send(PHOTO_QUEUE, { photoId: inserted[0].id });
  return { photoId: inserted[0].id, imageId, duplicate: false, status: 'processing' };
}

/** Where uploads are staged while they arrive: tus's own store, and a count of what its expiry sweep removed. */
export interface StagedUploads {
  store: FileStore | S3Store;
  /** Deletes what an upload left staged, finished or not. */
  remove(id: string): Promise<void>;
  /** Deletes the staged bytes of unfinished uploads older than their expiry; returns how many went. */
  sweep(): Promise<number>;
}

/** The whole staged file of a finished upload. */
async function readStaged(store: FileStore | S3Store, id: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await store.read(id)) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * The staged file of a finished upload on this machine's disk, for FFmpeg: the file store's own file,
 * or a copy streamed from the bucket into the temporary folder (deleted by done()).
 */
async function stagedOnDisk(staged: StagedUploads, id: string): Promise<{ file: string; done: () => Promise<void> }> {
  const { store } = staged;
  if (store instanceof FileStore) return { file: path.join(store.directory, id), done: async () => undefined };
  const file = path.join(await fs.promises.mkdtemp(path.join(os.tmpdir(), 'finish-video-')), 'staged');
  await pipeline(await store.read(id), fs.createWriteStream(file));
  return { file, done: () => fs.promises.rm(path.dirname(file), { recursive: true, force: true }) };
}

/** A finished tus upload: its staged file is accepted (or refused) and then deleted. */
async function acceptUpload(
  ctx: AppContext,
  queue: () => Promise<JobQueue>,
  staged: StagedUploads,
  upload: Upload,
): Promise<UploadReceipt | VideoUploadReceipt> {
  const meta = upload.metadata ?? {};
  try {
    if (meta.kind === 'video') {
      const onDisk = await stagedOnDisk(staged, upload.id);
      try {
        return await acceptVideoFile(ctx, {
          eventId: Number(meta.eventId),
          userId: Number(meta.uploader),
          filename: String(meta.filename ?? ''),
          file: onDisk.file,
        });
      } finally {
        await onDisk.done();
      }
    }
    const file = await readStaged(staged.store, upload.id);
    return await acceptPhotoFile(ctx, queue, { eventId: Number(meta.eventId), userId: Number(meta.uploader), filename: String(meta.filename ?? ''), file });
  } finally {
    await staged.remove(upload.id).catch(() => undefined);
  }
}

/** Where files are staged in the data folder: `<data folder>/uploads`, a data file and an info file per upload. */
export function stagedUploadStore(dataDir: string): FileStore {
  return new FileStore({ directory: path.join(dataDir, 'uploads'), expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });
}

/** How often a process clears the staged files of uploads left unfinished past their expiry. */
export const STAGED_SWEEP_MS = 3600_000;

/** Deletes the staged files of unfinished uploads older than their expiry; returns how many went. */
export async function sweepStagedUploads(store: FileStore): Promise<number> {
  const before = (await fs.promises.readdir(store.directory).catch(() => [])).length;
  await store.deleteExpired();
  const after = (await fs.promises.readdir(store.directory).catch(() => [])).length;
  // Each upload is a data file and its .json info file.
  return Math.max(0, Math.round((before - after) / 2));
}

/**
 * Where files are staged while they arrive. With S3 storage: the bucket (tus's S3 store: a multipart
 * upload per file, an `<id>.info` object, the tail under 5 MB as an `<id>.part` object), shared by
 * every instance. Otherwise `<data folder>/uploads`, a data file and an info file per upload.
 */
export function stagedUploads(config: Pick<AppConfig, 'dataDir' | 'storage'>): StagedUploads {
  const storage = config.storage;
  if (storage.kind === 's3') {
    const clientConfig = {
      region: storage.region,
      ...(storage.endpoint ? { endpoint: storage.endpoint, forcePathStyle: true } : {}),
      // S3-compatible servers differ in the checksums they accept; S3 itself needs none here.
      requestChecksumCalculation: 'WHEN_REQUIRED' as const,
      responseChecksumValidation: 'WHEN_REQUIRED' as const,
    };
    const store = new S3Store({
      partSize: 8 * 1024 * 1024,
      expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS,
      s3ClientConfig: { bucket: storage.bucket, ...clientConfig },
    });
    const client = new S3Client(clientConfig);
    return {
      store,
      async remove(id) {
        // tus's remove aborts the multipart upload first and stops when it is already complete
        // (a finished file), leaving the object behind: the objects are deleted here either way.
        await store.remove(id).catch(() => undefined);
        await client.send(
          new DeleteObjectsCommand({ Bucket: storage.bucket, Delete: { Objects: [{ Key: id }, { Key: `${id}.info` }, { Key: `${id}.part` }] } }),
        );
      },
      sweep: () => store.deleteExpired(),
    };
  }
  const store = stagedUploadStore(config.dataDir);
  return { store, remove: (id) => store.remove(id), sweep: () => sweepStagedUploads(store) };
}

export function createTusServer(ctx: AppContext, queue: () => Promise<JobQueue>): { server: TusServer; staged: StagedUploads } {
  const staged = stagedUploads(ctx.config);
  const { store } = staged;
  const server = new TusServer({
    path: API_ROUTES.partnerUploads,
    datastore: store,
    relativeLocation: true,
    respectForwardedHeaders: ctx.config.trustProxy !== false,
    allowedOrigins: ctx.config.corsOrigins,
    allowedCredentials: true,
    allowedHeaders: ['Authorization'],
    exposedHeaders: [RECEIPT_HEADER],
    // Forget (DELETE) is for unfinished uploads; a finished file is a photo, removed through the review.
    disableTerminationForFinishedUploads: true,
    async onUploadCreate(req, upload) {
      const uploader = uploaderOfRequest(req);
      if (uploader === undefined) throw refuse(401, 'Please sign in to continue.');
      const meta = upload.metadata ?? {};
      // A finish-line video (MP4 or MOV) takes the same path, with its own limits (docs/videos.md).
      const isVideo = isVideoFile(String(meta.filename ?? ''), String(meta.filetype ?? ''));
      // The upload's declared file against the rules of its kind; a broken rule refuses it with its message.
      try {
        await (isVideo ? uploadVideoSchema : uploadFileSchema).validate({
          eventId: meta.eventId,
          filename: meta.filename ?? '',
          filetype: meta.filetype ?? '',
          size: upload.sizeIsDeferred ? undefined : upload.size,
        });
      } catch (error) {
        if (error instanceof ValidationError) throw refuse(400, error.errors[0] ?? SUPPLY_MESSAGES.notJpeg);
        throw error;
      }
      return { metadata: { ...meta, ...(isVideo ? { kind: 'video' } : {}), uploader: String(uploader) } };
    },
    async onUploadFinish(_req, upload) {
      const receipt = await acceptUpload(ctx, queue, staged, upload);
      return { headers: { [RECEIPT_HEADER]: Buffer.from(JSON.stringify(receipt)).toString('base64') } };
    },
  });
  return { server, staged };
}
