import crypto from 'node:crypto';
import { VIDEO_MESSAGES } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import type { JobQueue } from '../../queue/jobQueue';
import { VIDEO_QUEUE } from '../../queue/queues';
import { PHOTO_SALES_CTE } from '../../rules/photoSales';
import { normaliseBib } from '../../rules/privacy';
import { deleteStoredPhoto, type StoredPhotoKeys } from './storedFiles';
import { checkClock, finishersOf } from './videoFiles';

/**
 * Setting a finish-line video's clock (docs/videos.md) records one `photos` row of kind 'video' per
 * runner whose official finish falls inside the video (status processing, tagged with their BIB by
 * timing) and queues the cutting in pieces of CLIPS_PER_JOB clips, so the workers cut one long video
 * in parallel. The cutting itself is the pipeline's (api/src/pipeline/videos.ts).
 */

/** Clips a job cuts: small enough that a long video spreads over every worker, large enough to pay for a job's start. */
export const CLIPS_PER_JOB = 6;

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
    await tx.query(`update finish_videos set race_seconds_at_start = $2, status = 'cutting', failure_reason = null where id = $1`, [
      video.id,
      raceSecondsAtStart,
    ]);
    const bibs: string[] = [];
    for (const crossing of inside) {
      const imageId = imageIdOf(crossing.bibNumber);
      const folder = `clips/${video.event_id}`;
      // A runner whose clip of this video was sold keeps that clip: the unique index skips them.
      const rows = await tx.query<{ id: number }>(
        `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, seq, status, partner_user_id, source_video_id, clip_bib, clip_crossing_seconds, metadata_cleaned_at)
         values ($1, $2, 'video', $3, $4, $5, $6, $7, (select coalesce(max(seq), 0) + 1 from photos where event_id = $1), 'processing', $8, $9, $10, $11, now())
         on conflict (source_video_id, clip_bib) where source_video_id is not null do nothing returning id`,
        [
          video.event_id,
          imageId,
          `originals/${folder}/${imageId}.mp4`,
          `previews/${folder}/${imageId}.mp4`,
          `thumbs/${folder}/${imageId}.jpg`,
          video.width,
          video.height,
          video.partner_user_id,
          video.id,
          crossing.bibNumber,
          crossing.crossingSecond,
        ],
      );
      if (!rows[0]) continue;
      await tx.query(`insert into photo_bibs (photo_id, event_id, bib_number, source) values ($1, $2, $3, 'timing') on conflict do nothing`, [
        rows[0].id,
        video.event_id,
        normaliseBib(crossing.bibNumber),
      ]);
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
