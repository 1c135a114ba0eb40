import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { AppContext } from '../context';
import type { JobAttempt, JobQueue } from '../queue/jobQueue';
import { defineVideoQueue, VIDEO_QUEUE } from '../queue/queues';
import { ffmpeg, frameAt } from '../media/ffmpeg';
import { watermarkPng, THUMB_WIDTH } from '../media/renditions';
import { normaliseBib } from '../rules/privacy';
import { bibRulesFor, type BibReader } from '../models/bibs';
import type { ClipPiece, VideoRow } from '../features/supply';

/**
 * Cutting a finish-line video's clips (docs/videos.md), as jobs of the video queue: a piece's job cuts
 * each clip from the stored original at full quality, makes its watermarked low-resolution preview
 * (H.264) and poster frame, and reads the BIBs on frames at the crossing: a clip whose frames show
 * another participant's BIB and not its own is flagged for the videographer's review, not published.
 * The clock and the clip rows are the supply feature's (features/supply/videoClips.ts).
 */

/** How often an idle video worker asks for the next piece. */
const VIDEO_POLL_SECONDS = 1;
/** Width of the watermarked preview a runner watches before buying (it streams at once). */
export const CLIP_PREVIEW_WIDTH = 640;
/** Seconds around the crossing at which the BIB check reads a frame. */
const CHECK_OFFSETS = [-0.4, 0, 0.4];
/** Until which the original's read location (a signed URL with S3) is valid for one piece. */
const READ_LINK_MS = 2 * 3600_000;

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
export async function cutClip(
  source: string,
  window: { start: number; length: number },
  outFull: string,
  outPreview: string,
  width: number,
  height: number,
): Promise<void> {
  const previewHeight = Math.round((height * CLIP_PREVIEW_WIDTH) / width / 2) * 2;
  const mark = path.join(path.dirname(outPreview), `mark-${CLIP_PREVIEW_WIDTH}x${previewHeight}.png`);
  if (!fs.existsSync(mark)) await fs.promises.writeFile(mark, await watermarkPng(CLIP_PREVIEW_WIDTH, previewHeight));
  /** The options both outputs share, around their own quality (CRF) and audio ones. */
  const h264Output = (crf: number, audio: string[]) => [
    // No metadata of the camera's file (its GPS position, device, owner) is copied into a clip.
    '-map_metadata',
    '-1',
    '-map_chapters',
    '-1',
    '-t',
    window.length.toFixed(3),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    String(crf),
    '-pix_fmt',
    'yuv420p',
    ...audio,
    '-movflags',
    '+faststart',
    '-threads',
    '2',
  ];
  await ffmpeg(
    [
      '-y',
      '-ss',
      window.start.toFixed(3),
      '-i',
      source,
      '-i',
      mark,
      '-t',
      window.length.toFixed(3),
      '-filter_complex',
      `[0:v]split=2[full][small];[small]scale=${CLIP_PREVIEW_WIDTH}:${previewHeight}[scaled];[scaled][1:v]overlay=0:0[marked]`,
      '-map',
      '[full]',
      '-map',
      '0:a?',
      ...h264Output(18, ['-c:a', 'aac', '-b:a', '128k']),
      outFull,
      '-map',
      '[marked]',
      '-an',
      ...h264Output(30, []),
      outPreview,
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
  const rules = bibRulesFor(
    video.bib_pattern,
    participants.map((p) => p.bib_number),
  );
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
      const poster = await sharp(await frameAt(preview, Math.min(atCrossing, window.length - 0.05)))
        .resize(THUMB_WIDTH)
        .jpeg({ quality: 72 })
        .toBuffer();
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
      await ctx.db.query(`update photos set status = $2, review_reason = $3, failure_reason = null where id = $1 and status = 'processing'`, [
        clip.id,
        reason ? 'review' : 'ready',
        reason,
      ]);
      await fs.promises.rm(full, { force: true });
      await fs.promises.rm(preview, { force: true });
    }
  } catch (error) {
    if (attempt.lastAttempt) {
      const reason = `We could not cut this clip: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500);
      await ctx.db.query(
        `update photos set status = 'failed', failure_reason = $3 where source_video_id = $1 and clip_bib = any($2::text[]) and status = 'processing'`,
        [video.id, data.bibs, reason],
      );
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
export async function startVideoWorker(
  ctx: AppContext,
  queue: JobQueue,
  options: { reader: BibReader | null; concurrency?: number; retryDelaySeconds?: number },
): Promise<VideoWorker> {
  await defineVideoQueue(queue, options.retryDelaySeconds);
  await queue.work<ClipPiece>(VIDEO_QUEUE, options.concurrency ?? 1, (data, attempt) => cutClips({ ctx, reader: options.reader }, data, attempt), {
    pollSeconds: VIDEO_POLL_SECONDS,
  });
  return { stop: () => queue.offWork(VIDEO_QUEUE) };
}
