import type { FastifyInstance } from 'fastify';
import {
  API_ROUTES,
  clipLengthsSchema,
  parseRaceTime,
  photoIdSchema,
  setVideoClockSchema,
  supplyEventSchema,
  VIDEO_MESSAGES,
  videoFrameSchema,
  type ClipStatus,
  type FinishClip,
  type FinishVideo,
  type FinishVideosResult,
} from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { badRequest, forbidden, sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { frameAt } from '../../media/ffmpeg';
import type { JobQueue } from '../../queue/jobQueue';
import { PHOTO_SALES_CTE } from '../../rules/photoSales';
import { requireApprovedPartner, requireUser } from '../accounts';
import { deleteStoredPhoto, type StoredPhotoKeys } from './storedFiles';
import { finishersOf } from './videoFiles';
import { setVideoClock, type ClockResult, type VideoRow } from './videoClips';

/** Signed links in the videographer's list live this long. */
const LINK_MS = 3600_000;
const FRAME_WIDTH = 640;

interface ClipRow extends StoredPhotoKeys {
  id: number;
  image_id: string;
  clip_bib: string;
  status: ClipStatus;
  review_reason: string | null;
  clip_crossing_seconds: number;
  source_video_id: number;
  sold: boolean;
}

/** The caller's own video (403 for anyone else's or one that does not exist). */
async function ownVideo(
  ctx: AppContext,
  userId: number,
  videoId: number,
): Promise<VideoRow & { original_name: string | null; recorded_at: Date | null; failure_reason: string | null; created_at: Date }> {
  const [video] = await ctx.db.query<VideoRow & { original_name: string | null; recorded_at: Date | null; failure_reason: string | null; created_at: Date }>(
    'select * from finish_videos where id = $1 and partner_user_id = $2',
    [videoId, userId],
  );
  if (!video) throw forbidden(VIDEO_MESSAGES.notYourVideo);
  return video;
}

/** A clip with whether it was sold (a sold clip cannot be removed). */
const CLIP_SELECT = `with ${PHOTO_SALES_CTE}
  select p.id, p.event_id, p.image_id, p.clip_bib, p.status, p.review_reason, p.clip_crossing_seconds, p.source_video_id, p.original_key, p.preview_key, p.thumb_key,
         exists (select 1 from photo_sales s where s.photo_id = p.id) as sold
    from photos p`;

async function ownClip(ctx: AppContext, userId: number, photoId: number): Promise<ClipRow & { event_id: number }> {
  const [clip] = await ctx.db.query<ClipRow & { event_id: number }>(
    `${CLIP_SELECT} where p.id = $1 and p.partner_user_id = $2 and p.source_video_id is not null`,
    [photoId, userId],
  );
  if (!clip) throw forbidden(VIDEO_MESSAGES.notYourVideo);
  return clip;
}

/** The videographer's videos of an event with their clips, flagged clips first. */
export async function videosOf(ctx: AppContext, userId: number, eventId: number): Promise<FinishVideosResult> {
  const videos = await ctx.db.query<
    VideoRow & { original_name: string | null; recorded_at: Date | string | null; failure_reason: string | null; created_at: Date | string }
  >('select * from finish_videos where partner_user_id = $1 and event_id = $2 order by created_at desc, id desc', [userId, eventId]);
  const clips = await ctx.db.query<ClipRow>(
    `${CLIP_SELECT} where p.source_video_id = any($1::int[]) order by (p.status = 'review') desc, p.clip_crossing_seconds`,
    [videos.map((v) => v.id)],
  );
  const [event] = await ctx.db.query<{ clip_before_seconds: number; clip_after_seconds: number }>(
    'select clip_before_seconds, clip_after_seconds from events where id = $1',
    [eventId],
  );
  const expiresAt = new Date(Date.now() + LINK_MS);
  const shown = async (c: ClipRow): Promise<FinishClip> => {
    const cut = c.status === 'ready' || c.status === 'review';
    return {
      photoId: c.id,
      imageId: c.image_id,
      bibNumber: c.clip_bib,
      status: c.status,
      reviewReason: c.review_reason,
      thumbUrl: cut ? await ctx.storage.signedUrl(c.thumb_key, expiresAt) : null,
      previewUrl: cut ? await ctx.storage.signedUrl(c.preview_key, expiresAt) : null,
      crossingSecond: Number(c.clip_crossing_seconds),
      sold: c.sold,
    };
  };
  const list: FinishVideo[] = [];
  for (const v of videos) {
    const own = clips.filter((c) => c.source_video_id === v.id);
    list.push({
      videoId: v.id,
      originalName: v.original_name,
      status: v.status as FinishVideo['status'],
      failureReason: v.failure_reason,
      durationSeconds: Number(v.duration_seconds),
      width: v.width,
      height: v.height,
      recordedAt: v.recorded_at ? new Date(v.recorded_at).toISOString() : null,
      raceSecondsAtStart: v.race_seconds_at_start === null ? null : Number(v.race_seconds_at_start),
      clips: {
        cut: own.filter((c) => c.status !== 'processing').length,
        ready: own.filter((c) => c.status === 'ready').length,
        review: own.filter((c) => c.status === 'review').length,
        total: own.length,
      },
      clipList: await Promise.all(own.map(shown)),
      uploadedAt: new Date(v.created_at).toISOString(),
    });
  }
  return {
    videos: list,
    clipBeforeSeconds: event?.clip_before_seconds ?? 4,
    clipAfterSeconds: event?.clip_after_seconds ?? 3,
    finishers: await finishersOf(ctx, eventId),
  };
}

/** The videographer's routes: their videos, the clock, a frame for the picker, clip lengths, the review of flagged clips. */
export function registerVideoRoutes(app: FastifyInstance, ctx: AppContext, jobQueue: () => Promise<JobQueue>): void {
  app.post(API_ROUTES.partnerVideos, async (request, reply) => {
    const input = await validate(supplyEventSchema, request.body);
    const { user } = await requireApprovedPartner(ctx, request, input.eventId);
    return sendOk(reply, await videosOf(ctx, user.id, input.eventId));
  });

  app.post(API_ROUTES.partnerVideoFrame, async (request, reply) => {
    const input = await validate(videoFrameSchema, request.body);
    const { user } = await requireUser(ctx, request);
    const video = await ownVideo(ctx, user.id, input.videoId);
    await requireApprovedPartner(ctx, request, video.event_id);
    if (input.atSecond > Number(video.duration_seconds)) throw badRequest(VIDEO_MESSAGES.frameOutside);
    const source = await ctx.storage.readLocation(video.original_key, new Date(Date.now() + 600_000));
    const jpeg = await frameAt(source, input.atSecond, FRAME_WIDTH);
    return sendOk(reply, { atSecond: input.atSecond, image: `data:image/jpeg;base64,${jpeg.toString('base64')}` });
  });

  app.post(API_ROUTES.partnerVideoClock, async (request, reply) => {
    const input = await validate(setVideoClockSchema, request.body);
    const { user } = await requireUser(ctx, request);
    const video = await ownVideo(ctx, user.id, input.videoId);
    await requireApprovedPartner(ctx, request, video.event_id);
    if (video.status === 'cutting') throw badRequest(VIDEO_MESSAGES.stillCutting);
    let raceSecondsAtStart: number;
    if (input.mode === 'start') {
      raceSecondsAtStart = parseRaceTime(input.raceTime ?? '');
    } else {
      const at = Number(input.atSecond);
      if (at > Number(video.duration_seconds)) throw badRequest(VIDEO_MESSAGES.frameOutside);
      const finisher = (await finishersOf(ctx, video.event_id)).find((f) => f.bibNumber.toUpperCase() === String(input.bibNumber).toUpperCase());
      if (!finisher) throw badRequest(VIDEO_MESSAGES.unknownBib);
      // The runner is at the line at this second of the video: the race clock read their finish time then.
      raceSecondsAtStart = finisher.finishSeconds - at;
    }
    let set: ClockResult;
    try {
      set = await setVideoClock(ctx, await jobQueue(), video, raceSecondsAtStart, (message) => app.log.warn(message));
    } catch (error) {
      throw badRequest(error instanceof Error ? error.message : String(error));
    }
    return sendOk(reply, await videosOf(ctx, user.id, video.event_id), VIDEO_MESSAGES.clipsCut(set.clips, set.kept));
  });

  app.post(API_ROUTES.partnerClipLengths, async (request, reply) => {
    const input = await validate(clipLengthsSchema, request.body);
    const { user } = await requireApprovedPartner(ctx, request, input.eventId);
    await ctx.db.query('update events set clip_before_seconds = $2, clip_after_seconds = $3 where id = $1', [
      input.eventId,
      input.beforeSeconds,
      input.afterSeconds,
    ]);
    return sendOk(
      reply,
      await videosOf(ctx, user.id, input.eventId),
      `Clips cut from now on run ${input.beforeSeconds} s before and ${input.afterSeconds} s after the crossing.`,
    );
  });

  app.post(API_ROUTES.partnerClipPublish, async (request, reply) => {
    const input = await validate(photoIdSchema, request.body);
    const { user } = await requireUser(ctx, request);
    const clip = await ownClip(ctx, user.id, input.photoId);
    await requireApprovedPartner(ctx, request, clip.event_id);
    if (clip.status !== 'review') throw badRequest(VIDEO_MESSAGES.notFlagged);
    await ctx.db.query(`update photos set status = 'ready' where id = $1 and status = 'review'`, [clip.id]);
    return sendOk(reply, await videosOf(ctx, user.id, clip.event_id), `Clip ${clip.image_id} is on BIB ${clip.clip_bib}'s page.`);
  });

  app.post(API_ROUTES.partnerClipRemove, async (request, reply) => {
    const input = await validate(photoIdSchema, request.body);
    const { user } = await requireUser(ctx, request);
    const clip = await ownClip(ctx, user.id, input.photoId);
    await requireApprovedPartner(ctx, request, clip.event_id);
    if (clip.sold) throw badRequest(VIDEO_MESSAGES.sold);
    const [gone] = await ctx.db.query<StoredPhotoKeys>(
      `delete from photos where id = $1 and partner_user_id = $2 and status <> 'processing' returning original_key, preview_key, thumb_key`,
      [clip.id, user.id],
    );
    if (gone) await deleteStoredPhoto(ctx, gone, (message) => app.log.warn(message));
    return sendOk(reply, await videosOf(ctx, user.id, clip.event_id), `Clip ${clip.image_id} is removed.`);
  });
}
