import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppContext } from '../context';
import { acceptVideoFile, finishersOf, planClips, type ClipPiece, type VideoRow } from '../features/supply';
import { cutClips } from '../pipeline/videos';
import { EVENTS } from './demoData';
import { renderFinishLineVideo } from './finishLineVideo';

/** The demo camera: 640 x 360 at 12 frames a second while a runner is near the line, one frame every 10 s between. */
const CAMERA = { width: 640, height: 360, fps: 12, idleFrameSeconds: 10 };
/** The camera runs from this long before the first finisher to this long after the last. */
const LEAD_SECONDS = 10;
/** The race clock's zero: the gun, at 05:30 in Mumbai. */
const GUN = 'T05:30:00+05:30';

/**
 * The demo's finish-line videos come the way a videographer's do: the seed films the line of each
 * event that has a finish camera (every finisher crossing at their official time), hands the file
 * to the upload's own acceptance (FFmpeg's checks, the stored original, the finish_videos row), sets
 * its clock and cuts one clip per finisher with the worker's own cutter. The seed cuts them itself,
 * before the shop answers, so the demo orders can include clips. The BIB check of the cut needs the
 * reader processes the photo worker starts later; the seed's clips are tagged by timing only.
 * Runs again only where a run stopped half way (a video not ready yet). Returns the clips on sale.
 */
export async function seedFinishLineVideos(ctx: AppContext, log: (message: string) => void = () => undefined): Promise<number> {
  let clips = 0;
  for (const demo of EVENTS.filter((e) => e.finishCamera)) {
    const filename = demo.finishCamera!;
    const [event] = await ctx.db.query<{ id: number; from_date: string; clip_before_seconds: number; clip_after_seconds: number }>(
      `select id, to_char(from_date, 'YYYY-MM-DD') as from_date, clip_before_seconds, clip_after_seconds from events where name = $1`,
      [demo.name],
    );
    if (!event) continue;
    const ownVideo = async () =>
      (
        await ctx.db.query<VideoRow>('select * from finish_videos where event_id = $1 and partner_user_id is null and original_name = $2', [event.id, filename])
      )[0];
    let video = await ownVideo();
    if (video?.status === 'ready') continue;
    const finishers = await finishersOf(ctx, event.id);
    if (finishers.length === 0) continue;
    const raceAtStart = finishers[0]!.finishSeconds - LEAD_SECONDS;
    const started = Date.now();
    if (!video) {
      const work = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'finish-camera-'));
      try {
        const file = path.join(work, filename);
        await renderFinishLineVideo({
          out: file,
          ...CAMERA,
          seconds: finishers[finishers.length - 1]!.finishSeconds - raceAtStart + LEAD_SECONDS,
          runners: finishers.map((f) => ({ bib: f.bibNumber, crossAt: f.finishSeconds - raceAtStart })),
          // Every clip is drawn at the full rate from before its start to after its end.
          fullRateSeconds: Math.max(event.clip_before_seconds, event.clip_after_seconds) + 1,
          keyframeSeconds: 30,
          eventName: demo.name,
          eventCode: demo.code,
          colour: demo.colour,
          scene: demo.scene,
          seed: `finish-line:${demo.code}`,
          recordedAt: new Date(Date.parse(`${event.from_date}${GUN}`) + raceAtStart * 1000),
        });
        // The race's own camera: no partner films it, so no partner's share is owed on its clips.
        await acceptVideoFile(ctx, { eventId: event.id, userId: null, filename, file });
      } finally {
        await fs.promises.rm(work, { recursive: true, force: true });
      }
      video = (await ownVideo())!;
      log(`seed: ${filename} filmed and accepted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    let pieces: ClipPiece[];
    if (video.status === 'needs_clock') {
      pieces = (await planClips(ctx, video, raceAtStart, log, (bib) => `${demo.code}-V-${bib}`)).pieces;
    } else {
      // A run that stopped while cutting: the clips still waiting (none left marks the video done).
      const waiting = await ctx.db.query<{ clip_bib: string }>(`select clip_bib from photos where source_video_id = $1 and status = 'processing'`, [video.id]);
      pieces = [{ videoId: video.id, bibs: waiting.map((w) => w.clip_bib) }];
    }
    // Side by side, as two workers would take them from the queue.
    await Promise.all(pieces.map((piece) => cutClips({ ctx, reader: null }, piece, { id: 'demo-seed', retryCount: 0, lastAttempt: true })));
    const [ready] = await ctx.db.query<{ n: number }>(`select count(*)::int as n from photos where source_video_id = $1 and status = 'ready'`, [video.id]);
    clips += ready!.n;
    log(`seed: ${filename} cut into ${ready!.n} finishers' clips, ${((Date.now() - started) / 1000).toFixed(1)} s in all`);
  }
  return clips;
}
