import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { VIDEO_MESSAGES } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import type { JobAttempt, JobQueue } from '../../queue/jobQueue';
import { ffmpeg, frameAt } from '../../media/ffmpeg';
import { watermarkPng, THUMB_WIDTH } from '../../media/renditions';
import { PHOTO_SALES_CTE } from '../../rules/photoSales';
import { normaliseBib } from '../../rules/privacy';
import { bibRulesFor, type BibReader } from '../bibs';
import { deleteStoredPhoto, type StoredPhotoKeys } from './storedFiles';
import { checkClock, finishersOf } from './videoFiles';

/**
 * Cutting a finish-line video into one clip per finisher (docs/videos.md). Setting the clock records
 * one `photos` row of kind 'video' per runner whose official finish falls inside the video (status
 * processing, tagged with their BIB by timing) and queues the cutting in pieces of CLIPS_PER_JOB
 * clips, so the workers of every API process cut one long video in parallel. A piece's job cuts
 * each clip from the stored original at full quality, makes its watermarked low-resolution preview
 * (H.264) and poster frame, and reads the BIBs on frames at the crossing: a clip whose frames show
 * another participant's BIB and not its own is flagged for the videographer's review, not published.
 */

export const VIDEO_QUEUE = 'video-cut';
/** Clips a job cuts: small enough that a long video spreads over every worker, large enough to pay for a job's start. */
export const CLIPS_PER_JOB = 6;
/** How often an idle video worker asks for the next piece. */
const VIDEO_POLL_SECONDS = 1;
/** A worker refreshes a running piece's heartbeat; a piece whose heartbeat stops (its process died) is retried by another process. */
export const VIDEO_HEARTBEAT_SECONDS = 30;
const VIDEO_EXPIRE_SECONDS = 1800;
const RETRY_LIMIT = 2;
/** Width of the watermarked preview a runner watches before buying (it streams at once). */
export const CLIP_PREVIEW_WIDTH = 640;
/** Seconds around the crossing at which the BIB check reads a frame. */
const CHECK_OFFSETS = [-0.4, 0, 0.4];
/** Until which the original's read location (a signed URL with S3) is valid for one piece. */
const READ_LINK_MS = 2 * 3600_000;

export async function defineVideoQueue(queue: JobQueue, retryDelaySeconds = 5): Promise<void> {
  await queue.define(VIDEO_QUEUE, { retryLimit: RETRY_LIMIT, retryDelaySeconds, expireInSeconds: VIDEO_EXPIRE_SECONDS, heartbeatSeconds: VIDEO_HEARTBEAT_SECONDS });
}

export interface VideoRow {
  [column: string]: unknown;
  id: number;
  event_id: number;
  partner_user_id: number | null;
  original_key: string;
  duration_seconds: number;
  width: number;
  height: number;
  status: string;
  race_seconds_at_start: number | null;
}

/** What setting a clock did: clips queued for cutting, and sold clips of an earlier clock kept as they were. */
export interface ClockResult {
  clips: number;
  kept: number;
}

/** A video's clock can be set when it waits for one, and set again once its clips are cut (or failed). */
const CLOCK_SETTABLE = ['needs_clock', 'ready', 'failed'];

/**
 * Sets the clock of a video and queues its clips; throws the message for a clock that puts every
 * finisher outside the video (nothing changes then). Set again (a wrong clock, clips flagged by the
 * BIB check), the video's unsold clips and their files go and are cut anew with the new clock; a sold
 * clip stays exactly as its buyer has it (its runner gets no second clip from this video).
 */
export async function setVideoClock(
  ctx: AppContext,
  queue: JobQueue,
  video: VideoRow,
  raceSecondsAtStart: number,
  warn: (message: string) => void,
): Promise<ClockResult> {
  const { clips, kept, pieces } = await planClips(ctx, video, raceSecondsAtStart, warn);
  if (pieces.length > 0) await queue.sendMany(VIDEO_QUEUE, pieces);
  return { clips, kept };
}

/** One job's worth of a video's clips: the BIBs whose clips it cuts. */
export interface ClipPiece {
  videoId: number;
  bibs: string[];
}

/**
 * The clock's records without the queue: the clip rows written (and an earlier clock's unsold clips
 * gone), and the pieces to cut. `setVideoClock` queues them; the demo seed cuts them itself.
 */
export async function planClips(
  ctx: AppContext,
  video: VideoRow,
  raceSecondsAtStart: number,
  warn: (message: string) => void,
  // The demo seed names its clips after their BIBs so that every machine gets the same rows; a clip
  // cut again after a new clock must not reuse the keys whose files are being deleted, hence random.
  imageIdOf: (bib: string) => string = () => `VC${video.event_id}-${crypto.randomBytes(6).toString('hex').toUpperCase()}`,
): Promise<ClockResult & { pieces: ClipPiece[] }> {
  const finishers = await finishersOf(ctx, video.event_id);
  const inside = checkClock(finishers, raceSecondsAtStart, Number(video.duration_seconds));
  const outcome = await ctx.db.transaction(async (tx) => {
    const [current] = await tx.query<{ status: string }>(`select status from finish_videos where id = $1 for update`, [video.id]);
    if (!current || !CLOCK_SETTABLE.includes(current.status)) return null;
    let removed: StoredPhotoKeys[] = [];
    let kept = 0;
    if (current.status !== 'needs_clock') {
      removed = await tx.query<StoredPhotoKeys>(
        `with ${PHOTO_SALES_CTE}
         delete from photos p where p.source_video_id = $1 and not exists (select 1 from photo_sales s where s.photo_id = p.id)
         returning original_key, preview_key, thumb_key`,
        [video.id],
      );
      kept = (await tx.query<{ n: number }>('select count(*)::int as n from photos where source_video_id = $1', [video.id]))[0]!.n;
    }
    await tx.query(`update finish_videos set race_seconds_at_start = $2, status = 'cutting', failure_reason = null where id = $1`, [video.id, raceSecondsAtStart]);
    const bibs: string[] = [];
    for (const crossing of inside) {
      const imageId = imageIdOf(crossing.bibNumber);
      const folder = `clips/${video.event_id}`;
      // A runner whose clip of this video was sold keeps that clip: the unique index skips them.
      const rows = await tx.query<{ id: number }>(
        `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, seq, status, partner_user_id, source_video_id, clip_bib, clip_crossing_seconds, metadata_cleaned_at)
         values ($1, $2, 'video', $3, $4, $5, $6, $7, (select coalesce(max(seq), 0) + 1 from photos where event_id = $1), 'processing', $8, $9, $10, $11, now())
         on conflict (source_video_id, clip_bib) where source_video_id is not null do nothing returning id`,
        [video.event_id, imageId, `originals/${folder}/${imageId}.mp4`, `previews/${folder}/${imageId}.mp4`, `thumbs/${folder}/${imageId}.jpg`, video.width, video.height, video.partner_user_id, video.id, crossing.bibNumber, crossing.crossingSecond],
      );
      if (!rows[0]) continue;
      await tx.query(`insert into photo_bibs (photo_id, event_id, bib_number, source) values ($1, $2, $3, 'timing') on conflict do nothing`, [rows[0].id, video.event_id, normaliseBib(crossing.bibNumber)]);
      bibs.push(crossing.bibNumber);
    }
    // Nothing to cut (every runner inside has a sold clip): the video is done at once.
    if (bibs.length === 0) await tx.query(`update finish_videos set status = 'ready' where id = $1`, [video.id]);
    return { bibs, kept, removed };
  });
  if (outcome === null) throw new Error(VIDEO_MESSAGES.stillCutting);
  // The rows are gone with the transaction; their files follow (one that fails is only logged: no row names it).
  for (const keys of outcome.removed) await deleteStoredPhoto(ctx, keys, warn);
  const pieces: ClipPiece[] = [];
  for (let i = 0; i < outcome.bibs.length; i += CLIPS_PER_JOB) pieces.push({ videoId: video.id, bibs: outcome.bibs.slice(i, i + CLIPS_PER_JOB) });
  return { clips: outcome.bibs.length, kept: outcome.kept, pieces };
}

interface ClipRow {
  [column: string]: unknown;
  id: number;
  image_id: string;
  clip_bib: string;
  clip_crossing_seconds: number;
  original_key: string;
  preview_key: string;
  thumb_key: string;
}

/** The seconds of the video a clip covers: the event's lengths around the crossing, inside the video. */
export function clipWindow(crossing: number, duration: number, before: number, after: number): { start: number; length: number } {
  const start = Math.max(0, crossing - before);
  const end = Math.min(duration, crossing + after);
  return { start, length: Math.max(0.1, end - start) };
}

/**
 * Cuts one clip: the full-quality clip (H.264 at the video's own size, CRF 18, audio kept) and the
 * watermarked preview (640 px, CRF 30, no audio) from one decode of its seconds of the original,
 * neither with any of the camera file's metadata.
 */
export async function cutClip(source: string, window: { start: number; length: number }, outFull: string, outPreview: string, width: number, height: number): Promise<void> {
  const previewHeight = Math.round((height * CLIP_PREVIEW_WIDTH) / width / 2) * 2;
  const mark = path.join(path.dirname(outPreview), `mark-${CLIP_PREVIEW_WIDTH}x${previewHeight}.png`);
  if (!fs.existsSync(mark)) await fs.promises.writeFile(mark, await watermarkPng(CLIP_PREVIEW_WIDTH, previewHeight));
  await ffmpeg(
    [
      '-y',
      '-ss', window.start.toFixed(3),
      '-i', source,
      '-i', mark,
      '-t', window.length.toFixed(3),
      '-filter_complex', `[0:v]split=2[full][small];[small]scale=${CLIP_PREVIEW_WIDTH}:${previewHeight}[scaled];[scaled][1:v]overlay=0:0[marked]`,
      // No metadata of the camera's file (its GPS position, device, owner) is copied into a clip.
      '-map_metadata', '-1', '-map_chapters', '-1',
      '-map', '[full]', '-map', '0:a?', '-t', window.length.toFixed(3), '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', '-threads', '2', outFull,
      '-map', '[marked]', '-an', '-map_metadata', '-1', '-map_chapters', '-1', '-t', window.length.toFixed(3), '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '30', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', '-threads', '2', outPreview,
    ],
    { timeoutMs: 600_000 },
  );
}

/**
 * The BIB check of one clip: the BIBs read on frames at its crossing. A clip is flagged when those
 * frames show another participant's BIB and never its own (the camera's clock, or the official time,
 * points at someone else); a frame nobody's BIB can be read on flags nothing.
 */
export function reviewReasonOf(ownBib: string, readings: string[][]): string | null {
  const own = normaliseBib(ownBib);
  const seen = new Set(readings.flat().map(normaliseBib));
  if (seen.has(own)) return null;
  const others = [...seen].filter((bib) => bib !== own);
  if (others.length === 0) return null;
  return `Frames at the line show BIB ${others.join(', ')}, not ${own}.`;
}

export interface VideoPipelineDeps {
  ctx: AppContext;
  reader: BibReader | null;
}

async function markVideoDone(ctx: AppContext, videoId: number): Promise<void> {
  await ctx.db.query(
    `update finish_videos set status = 'ready' where id = $1 and status = 'cutting'
        and not exists (select 1 from photos where source_video_id = $1 and status = 'processing')`,
    [videoId],
  );
}

/** Cuts one piece of a video's clips; throws to have the queue retry it. */
export async function cutClips(deps: VideoPipelineDeps, data: ClipPiece, attempt: JobAttempt): Promise<void> {
  const { ctx } = deps;
  const [video] = await ctx.db.query<VideoRow & { bib_pattern: string | null; clip_before_seconds: number; clip_after_seconds: number }>(
    `select v.*, e.bib_pattern, e.clip_before_seconds, e.clip_after_seconds from finish_videos v join events e on e.id = v.event_id where v.id = $1`,
    [data.videoId],
  );
  if (!video) return;
  const clips = await ctx.db.query<ClipRow>(
    `select id, image_id, clip_bib, clip_crossing_seconds, original_key, preview_key, thumb_key from photos
      where source_video_id = $1 and clip_bib = any($2::text[]) and status = 'processing' order by clip_crossing_seconds`,
    [video.id, data.bibs],
  );
  if (clips.length === 0) return markVideoDone(ctx, video.id);
  const participants = await ctx.db.query<{ bib_number: string }>('select bib_number from participants where event_id = $1', [video.event_id]);
  const rules = bibRulesFor(video.bib_pattern, participants.map((p) => p.bib_number));
  const source = await ctx.storage.readLocation(video.original_key, new Date(Date.now() + READ_LINK_MS));
  const work = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'finish-clips-'));
  try {
    for (const clip of clips) {
      const crossing = Number(clip.clip_crossing_seconds);
      const window = clipWindow(crossing, Number(video.duration_seconds), video.clip_before_seconds, video.clip_after_seconds);
      const full = path.join(work, `${clip.image_id}.mp4`);
      const preview = path.join(work, `${clip.image_id}-preview.mp4`);
      await cutClip(source, window, full, preview, video.width, video.height);
      const atCrossing = crossing - window.start;
      const poster = await sharp(await frameAt(preview, Math.min(atCrossing, window.length - 0.05))).resize(THUMB_WIDTH).jpeg({ quality: 72 }).toBuffer();
      const readings: string[][] = [];
      if (deps.reader) {
        for (const offset of CHECK_OFFSETS) {
          const at = atCrossing + offset;
          if (at < 0 || at > window.length - 0.05) continue;
          readings.push((await deps.reader.read(await frameAt(full, at), rules)).map((r) => r.bib));
        }
      }
      const reason = reviewReasonOf(clip.clip_bib, readings);
      await Promise.all([
        ctx.storage.putFile(clip.original_key, full, 'video/mp4'),
        ctx.storage.putFile(clip.preview_key, preview, 'video/mp4'),
        ctx.storage.put(clip.thumb_key, poster, 'image/jpeg'),
      ]);
      await ctx.db.query(`update photos set status = $2, review_reason = $3, failure_reason = null where id = $1 and status = 'processing'`, [clip.id, reason ? 'review' : 'ready', reason]);
      await fs.promises.rm(full, { force: true });
      await fs.promises.rm(preview, { force: true });
    }
  } catch (error) {
    if (attempt.lastAttempt) {
      const reason = `We could not cut this clip: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500);
      await ctx.db.query(`update photos set status = 'failed', failure_reason = $3 where source_video_id = $1 and clip_bib = any($2::text[]) and status = 'processing'`, [video.id, data.bibs, reason]);
      await markVideoDone(ctx, video.id);
    }
    throw error;
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
  await markVideoDone(ctx, video.id);
}

export interface VideoWorker {
  stop(): Promise<void>;
}

/** Works the video queue in this process (VIDEO_WORKER=false leaves it to other processes). */
export async function startVideoWorker(ctx: AppContext, queue: JobQueue, options: { reader: BibReader | null; concurrency?: number; retryDelaySeconds?: number }): Promise<VideoWorker> {
  await defineVideoQueue(queue, options.retryDelaySeconds);
  await queue.work<ClipPiece>(VIDEO_QUEUE, options.concurrency ?? 1, (data, attempt) => cutClips({ ctx, reader: options.reader }, data, attempt), { pollSeconds: VIDEO_POLL_SECONDS });
  return { stop: () => queue.offWork(VIDEO_QUEUE) };
}
