import crypto from 'node:crypto';
import fs from 'node:fs';
import { everyoneOutsideMessage, shorterThanRaceMessage, VIDEO_MESSAGES, type VideoUploadReceipt } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { boxesComplete, decodeErrors, probeVideo, type VideoProbe } from '../../media/ffmpeg';
import { displayFileName } from './fileNames';

/**
 * A finished finish-line video upload: checked with FFmpeg (a video it can read to its end, MP4 or
 * MOV, a codec it decodes, long enough for the race's finishes), recognised by its SHA-256 if it was
 * sent to the event before, stored as the private original and recorded, waiting for its clock. A
 * refused file leaves nothing behind: the check runs on the staged file, before anything is stored.
 */

/** A tus hook refuses with this shape; the body is what the videographer reads for that file. */
export const refuseVideo = (reason: string) => ({ status_code: 422, body: reason });

/** The event's official finish times, in seconds of race time, earliest first. */
export async function finishersOf(ctx: AppContext, eventId: number): Promise<{ bibNumber: string; finishSeconds: number }[]> {
  const rows = await ctx.db.query<{ bib_number: string; seconds: number }>(
    `select bib_number, extract(epoch from finish_time)::float8 as seconds from participants where event_id = $1 and finish_time is not null order by finish_time, bib_number`,
    [eventId],
  );
  return rows.map((r) => ({ bibNumber: r.bib_number, finishSeconds: Number(r.seconds) }));
}

/** The crossings a clock puts inside a video: who, and at which second of the video. */
export function crossingsInside(
  finishers: { bibNumber: string; finishSeconds: number }[],
  raceSecondsAtStart: number,
  durationSeconds: number,
): { bibNumber: string; crossingSecond: number }[] {
  return finishers
    .map((f) => ({ bibNumber: f.bibNumber, crossingSecond: f.finishSeconds - raceSecondsAtStart }))
    .filter((c) => c.crossingSecond >= 0 && c.crossingSecond <= durationSeconds);
}

/** Throws the message for a clock that puts every finisher outside the video. */
export function checkClock(
  finishers: { bibNumber: string; finishSeconds: number }[],
  raceSecondsAtStart: number,
  durationSeconds: number,
): { bibNumber: string; crossingSecond: number }[] {
  if (finishers.length === 0) throw new Error(VIDEO_MESSAGES.noFinishers);
  const inside = crossingsInside(finishers, raceSecondsAtStart, durationSeconds);
  if (inside.length === 0) {
    throw new Error(
      everyoneOutsideMessage(
        raceSecondsAtStart,
        raceSecondsAtStart + durationSeconds,
        finishers[0]!.finishSeconds,
        finishers[finishers.length - 1]!.finishSeconds,
      ),
    );
  }
  return inside;
}

/** Reads the first bytes: an ISO media file (MP4, MOV) has an `ftyp` (or, in old QuickTime, `moov`/`mdat`/`wide`) box first. */
function looksLikeIsoMedia(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(12);
    fs.readSync(fd, head, 0, 12, 0);
    return ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip'].includes(head.toString('latin1', 4, 8));
  } finally {
    fs.closeSync(fd);
  }
}

/** Throws the reason a staged file is not a usable finish-line video; returns what FFmpeg read of it. */
export async function checkVideoFile(ctx: AppContext, eventId: number, file: string): Promise<VideoProbe> {
  const isoMedia = looksLikeIsoMedia(file);
  if (!isoMedia) throw refuseVideo(VIDEO_MESSAGES.notVideo);
  // Every box must end inside the file: a recording cut short ends in the middle of one.
  if (!(await boxesComplete(file))) throw refuseVideo(VIDEO_MESSAGES.corrupt);
  const probe = await probeVideo(file);
  // An MP4 whose index (moov) was to come at the end and never arrived: a cut-short recording.
  if (!probe) throw refuseVideo(VIDEO_MESSAGES.corrupt);
  if (!/mov|mp4/.test(probe.formatName)) throw refuseVideo(VIDEO_MESSAGES.notVideo);
  if (!probe.codec || probe.width <= 0 || probe.height <= 0) throw refuseVideo(VIDEO_MESSAGES.codec);
  const start = await decodeErrors(file, 0, 1);
  if (start !== null) throw refuseVideo(/decoder|codec|Invalid data found/i.test(start) ? VIDEO_MESSAGES.codec : VIDEO_MESSAGES.corrupt);
  if (!(probe.durationSeconds > 0)) throw refuseVideo(VIDEO_MESSAGES.corrupt);
  // The last seconds must decode: a file cut short (its index at the start, its pictures missing at the end) fails here.
  const end = await decodeErrors(file, Math.max(0, probe.durationSeconds - 2), 2);
  if (end !== null) throw refuseVideo(VIDEO_MESSAGES.corrupt);
  const finishers = await finishersOf(ctx, eventId);
  if (finishers.length > 1) {
    const span = finishers[finishers.length - 1]!.finishSeconds - finishers[0]!.finishSeconds;
    if (probe.durationSeconds < span) throw refuseVideo(shorterThanRaceMessage(probe.durationSeconds, span));
  }
  return probe;
}

/** SHA-256 of a file, read as a stream. */
async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 4 * 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Takes a finished video in (see the module's comment); `userId` null: the race's own camera (the demo seed's). */
export async function acceptVideoFile(
  ctx: AppContext,
  input: { eventId: number; userId: number | null; filename: string; file: string },
): Promise<VideoUploadReceipt> {
  const { eventId, userId, file } = input;
  const probe = await checkVideoFile(ctx, eventId, file);
  const sha256 = await sha256Of(file);
  const earlier = await ctx.db.query<{ id: number; status: VideoUploadReceipt['status']; duration_seconds: number }>(
    'select id, status, duration_seconds from finish_videos where event_id = $1 and content_sha256 = $2',
    [eventId, sha256],
  );
  if (earlier[0]) return { videoId: earlier[0].id, duplicate: true, status: earlier[0].status, durationSeconds: Number(earlier[0].duration_seconds) };
  const ext = /mov|qt/.test(probe.formatName) && /\.mov$/i.test(input.filename) ? 'mov' : 'mp4';
  const key = `originals/footage/${eventId}/${crypto.randomBytes(8).toString('hex')}.${ext}`;
  await ctx.storage.putFile(key, file, ext === 'mov' ? 'video/quicktime' : 'video/mp4');
  try {
    const [row] = await ctx.db.query<{ id: number }>(
      `insert into finish_videos (event_id, partner_user_id, original_key, original_name, content_sha256, size_bytes, duration_seconds, width, height, frame_rate, recorded_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning id`,
      [
        eventId,
        userId,
        key,
        displayFileName(input.filename),
        sha256,
        fs.statSync(file).size,
        probe.durationSeconds,
        probe.width,
        probe.height,
        probe.frameRate,
        probe.recordedAt,
      ],
    );
    return { videoId: row!.id, duplicate: false, status: 'needs_clock', durationSeconds: probe.durationSeconds };
  } catch (error) {
    // Nothing half-stored: the original goes again when its row could not be written (a parallel upload of the same file included).
    await ctx.storage.delete(key).catch(() => undefined);
    const again = await ctx.db.query<{ id: number; status: VideoUploadReceipt['status'] }>(
      'select id, status from finish_videos where event_id = $1 and content_sha256 = $2',
      [eventId, sha256],
    );
    if (again[0]) return { videoId: again[0].id, duplicate: true, status: again[0].status, durationSeconds: probe.durationSeconds };
    throw error;
  }
}
