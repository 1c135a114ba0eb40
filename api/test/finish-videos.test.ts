import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import {
  API_ROUTES,
  everyoneOutsideMessage,
  shorterThanRaceMessage,
  VIDEO_MESSAGES,
  VIDEO_UPLOAD_MAX_BYTES,
  type BibSearchResult,
  type FinishVideosResult,
  type VideoUploadReceipt,
} from '@finishline/shared/pure';
import { closeAll, SET_UP_TIMEOUT_MS, startTestApp, TEAR_DOWN_TIMEOUT_MS, type TestApp } from './support/testApp';
import { tusCreate, tusOffset, tusPatch, tusPatchCut, tusUpload, type TusAnswer } from './support/tus';
import { download, paidOrderOfPhotos, unzipAll, zipLinkOf } from './support/zipOrders';
import { createSession, createUser } from '../src/features/accounts';
import { createBibReader, type BibReader } from '../src/models/bibs';
import { startVideoWorker, type VideoWorker } from '../src/pipeline/videos';
import { VIDEO_QUEUE } from '../src/queue/queues';
import { reviewReasonOf } from '../src/pipeline/videos';
import { acquireJobQueue, type JobQueue } from '../src/queue/jobQueue';
import { ffmpeg, probeVideo } from '../src/media/ffmpeg';
import { renderFinishLineVideo } from '../src/seed/finishLineVideo';
import { cameraPhoto } from '../src/seed/cameraPhoto';

/**
 * Finish-line videos on the running API: a generated finish line (runners with BIBs crossing at
 * known seconds) uploaded over tus and resumed after a cut, each refusal with its message and nothing
 * stored, the clock set by a known runner's frame, one clip per finisher cut by the real FFmpeg and
 * checked by the real BIB reader (a clip whose frames show another BIB is flagged, not published),
 * watermarked previews and posters, and the full-quality clip delivered after purchase.
 */
describe('finish-line videos: upload, clock, clips, BIB check', () => {
  let t: TestApp;
  let endpoint: string;
  let queue: JobQueue;
  let releaseQueue: () => Promise<void>;
  let worker: VideoWorker;
  let reader: BibReader;
  let eventId: number;
  let longRaceEventId: number;
  let work: string;
  let finishLine: Buffer;
  const tokens: Record<string, string> = {};
  const users: Record<string, number> = {};
  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  const meta = (filename: string, event = eventId, filetype = 'video/mp4') => ({ eventId: String(event), filename, filetype });
  const receiptOf = (answer: TusAnswer): VideoUploadReceipt => {
    const header = answer.headers.get('upload-receipt');
    if (!header) throw new Error(`no receipt: ${answer.status} ${answer.text}`);
    return JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as VideoUploadReceipt;
  };
  const videos = async (event = eventId) => {
    const answer = await t.request<FinishVideosResult>('POST', API_ROUTES.partnerVideos, { eventId: event }, as(tokens.partner!));
    expect({ status: answer.status, message: answer.body.Message }).toEqual({ status: 200, message: 'Success' });
    return answer.body.result;
  };
  /** Objects stored under a prefix (local storage), to see that a refusal stored nothing. */
  const storedCount = async () => {
    let n = 0;
    for await (const _ of t.ctx.storage.list('originals/footage/')) n++;
    return n;
  };
  // The finish line: 20 s at 1280 x 720, 12 frames a second; A101 at the line at 4 s, A202 at 10 s, A303 at 16 s.
  // The official results: the same three, and A404 given A303's time (a timing mix-up: at that moment A303 is at the line).
  const RACE_AT_START = 3600; // the race clock read 1:00:00 as the camera started
  const RESULTS: [string, number][] = [
    ['A101', 3604],
    ['A202', 3610],
    ['A303', 3616],
    ['A404', 3616],
  ];

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'finish-video-test-'));
    t = await startTestApp();
    endpoint = `${t.url}${API_ROUTES.partnerUploads}`;
    const db = t.ctx.db;
    for (const [role, partner] of [
      ['partner', true],
      ['rival', true],
      ['organiser', false],
    ] as const) {
      users[role] = await createUser(db, {
        firstName: role,
        lastName: 'Video',
        email: `${role}@video.test`,
        password: 'Secret#2026',
        isPartner: partner,
        isOrganiser: role === 'organiser',
      });
      tokens[role] = (await createSession(db, users[role]!)).token;
    }
    const event = async (name: string) =>
      (
        await db.query<{ id: number }>(
          `insert into events (name, from_date, to_date, location, issearchable, organiser_user_id, bib_pattern) values ($1, '2026-10-04', '2026-10-04', 'Pune', true, $2, '^[A-Z][0-9]{3}$') returning id`,
          [name, users.organiser],
        )
      )[0]!.id;
    eventId = await event('Video Test Run 2026');
    longRaceEventId = await event('Long Race 2026');
    for (const [bib, seconds] of RESULTS)
      await db.query(`insert into participants (event_id, bib_number, name, finish_time) values ($1, $2, $3, make_interval(secs => $4))`, [
        eventId,
        bib,
        `Runner ${bib}`,
        seconds,
      ]);
    await db.query(`insert into participants (event_id, bib_number, name) values ($1, 'A505', 'Did not finish')`, [eventId]);
    // The long race's finishes span an hour: a 20-second video cannot be its finish line.
    for (const [bib, seconds] of [
      ['B101', 3600],
      ['B202', 7200],
    ] as const)
      await db.query(`insert into participants (event_id, bib_number, name, finish_time) values ($1, $2, $3, make_interval(secs => $4))`, [
        longRaceEventId,
        bib,
        bib,
        seconds,
      ]);
    for (const id of [eventId, longRaceEventId]) {
      for (const role of ['partner', 'rival'])
        await db.query(`insert into event_partners (event_id, user_id, status) values ($1, $2, 'approved')`, [id, users[role]]);
    }
    const file = path.join(work, 'finish.mp4');
    await renderFinishLineVideo({
      out: file,
      width: 1280,
      height: 720,
      fps: 12,
      seconds: 20,
      eventName: 'Video Test Run 2026',
      eventCode: 'VTR',
      recordedAt: new Date('2026-10-04T01:30:00Z'),
      runners: [
        { bib: 'A101', crossAt: 4 },
        { bib: 'A202', crossAt: 10 },
        { bib: 'A303', crossAt: 16 },
      ],
    });
    finishLine = fs.readFileSync(file);
    ({ queue, release: releaseQueue } = await acquireJobQueue(db));
    reader = await createBibReader({ workers: 1 });
    worker = await startVideoWorker(t.ctx, queue, { reader, concurrency: 1, retryDelaySeconds: 0 });
  }, SET_UP_TIMEOUT_MS);

  afterAll(async () => {
    await worker?.stop();
    await reader?.close();
    await releaseQueue?.();
    await closeAll(t);
    fs.rmSync(work, { recursive: true, force: true });
  }, TEAR_DOWN_TIMEOUT_MS);

  it('refuses what is not a usable finish-line video with its reason, and stores nothing', async () => {
    const jpeg = await cameraPhoto({ bib: 'A101', seed: 'not-a-video', width: 1200, grain: 8, eventCode: 'VTR', eventName: 'Video Test Run 2026' });
    const refusals: [string, Buffer, string, number][] = [];
    // A photo named like a video.
    refusals.push(['photo.mp4', jpeg, VIDEO_MESSAGES.notVideo, eventId]);
    // Cut short: the recording's index (moov) is at the front, its last pictures never arrived.
    refusals.push(['cut.mp4', finishLine.subarray(0, Math.floor(finishLine.length * 0.6)), VIDEO_MESSAGES.corrupt, eventId]);
    // Cut short with its index to come at the end: nothing of it can be read.
    const indexAtEnd = path.join(work, 'index-at-end.mp4');
    await ffmpeg(['-y', '-i', path.join(work, 'finish.mp4'), '-c', 'copy', indexAtEnd]);
    refusals.push(['cut-end.mp4', fs.readFileSync(indexAtEnd).subarray(0, 300_000), VIDEO_MESSAGES.corrupt, eventId]);
    // A codec FFmpeg has no decoder for: the picture format's name in the file is one nobody knows.
    const unknownCodec = Buffer.from(finishLine);
    let at = unknownCodec.indexOf('avc1', 0, 'latin1');
    expect(at).toBeGreaterThan(0);
    while (at !== -1) {
      unknownCodec.write('zzzz', at, 'latin1');
      at = unknownCodec.indexOf('avc1', at + 4, 'latin1');
    }
    refusals.push(['odd-codec.mp4', unknownCodec, VIDEO_MESSAGES.codec, eventId]);
    // 20 seconds of video for finishes an hour apart.
    refusals.push(['short.mp4', finishLine, shorterThanRaceMessage(20, 3600), longRaceEventId]);
    for (const [name, file, message, event] of refusals) {
      const answer = await tusUpload(endpoint, tokens.partner!, file, meta(name, event));
      expect({ name, status: answer.status, text: answer.text }).toEqual({ name, status: 422, text: message });
    }
    // Over the size limit, and not a video at all, refused before a byte is sent.
    const tooLarge = await tusCreate(endpoint, tokens.partner!, VIDEO_UPLOAD_MAX_BYTES + 1, meta('huge.mov', eventId, 'video/quicktime'));
    expect({ status: tooLarge.status, text: tooLarge.text }).toEqual({ status: 400, text: VIDEO_MESSAGES.tooLarge });
    expect((await tusCreate(endpoint, tokens.partner!, 5_000_000, meta('clip.avi', eventId, 'video/x-msvideo'))).text).toBe('Only JPG photos can be uploaded.');
    // Nothing half-stored: no video row, no stored original, no staged upload left.
    expect(await t.ctx.db.query('select id from finish_videos')).toEqual([]);
    expect(await storedCount()).toBe(0);
    expect(fs.readdirSync(path.join(t.ctx.config.dataDir, 'uploads')).filter((f) => !f.startsWith('.'))).toEqual([]);
  }, 180_000);

  it('takes a video resumed after a cut, sets the clock by a known runner, cuts one clip per finisher and flags the clip showing another BIB', async () => {
    const created = await tusCreate(endpoint, tokens.partner!, finishLine.length, meta('FINISH_0001.MP4'));
    expect(created.status).toBe(201);
    const url = created.location!;
    const first = Math.floor(finishLine.length * 0.4);
    expect((await tusPatch(url, tokens.partner!, 0, finishLine.subarray(0, first))).status).toBe(204);
    await tusPatchCut(url, tokens.partner!, first, finishLine.subarray(first), Math.floor(finishLine.length * 0.2));
    const { offset } = await tusOffset(url, tokens.partner!);
    expect(offset).toBeGreaterThan(first);
    const last = await tusPatch(url, tokens.partner!, offset, finishLine.subarray(offset));
    expect(last.status).toBe(204);
    const receipt = receiptOf(last);
    expect(receipt).toMatchObject({ duplicate: false, status: 'needs_clock' });
    expect(receipt.durationSeconds).toBeCloseTo(20, 0);
    // Sent again: the same video, not a second one.
    expect(receiptOf(await tusUpload(endpoint, tokens.partner!, finishLine, meta('copy.mp4')))).toMatchObject({ videoId: receipt.videoId, duplicate: true });

    let list = await videos();
    expect(list.videos).toHaveLength(1);
    expect(list.videos[0]).toMatchObject({
      videoId: receipt.videoId,
      status: 'needs_clock',
      width: 1280,
      height: 720,
      recordedAt: '2026-10-04T01:30:00.000Z',
      raceSecondsAtStart: null,
      originalName: 'FINISH_0001.MP4',
    });
    expect(list.finishers.map((f) => f.bibNumber)).toEqual(['A101', 'A202', 'A303', 'A404']);
    // Another partner can neither see nor set it.
    const rival = await t.request('POST', API_ROUTES.partnerVideoClock, { videoId: receipt.videoId, mode: 'start', raceTime: '1:00:00' }, as(tokens.rival!));
    expect(rival.status).toBe(403);

    // The frame picker shows the video at a second.
    const frame = await t.request<{ image: string }>('POST', API_ROUTES.partnerVideoFrame, { videoId: receipt.videoId, atSecond: 10 }, as(tokens.partner!));
    expect(frame.status).toBe(200);
    expect((await sharp(Buffer.from(frame.body.result.image.split(',')[1]!, 'base64')).metadata()).width).toBe(640);

    // A clock that puts every finisher outside the video: refused with its reason, nothing changes.
    const outside = await t.request(
      'POST',
      API_ROUTES.partnerVideoClock,
      { videoId: receipt.videoId, mode: 'start', raceTime: '2:00:00' },
      as(tokens.partner!),
    );
    expect(outside.status).toBe(400);
    expect(outside.body.Message).toBe(everyoneOutsideMessage(7200, 7220, 3604, 3616));
    expect((await videos()).videos[0]).toMatchObject({ status: 'needs_clock', raceSecondsAtStart: null });
    expect(await t.ctx.db.query('select id from photos')).toEqual([]);

    // A202 is at the line 10 s into the video: the race clock read 1:00:00 at its first frame.
    const set = await t.request<FinishVideosResult>(
      'POST',
      API_ROUTES.partnerVideoClock,
      { videoId: receipt.videoId, mode: 'frame', atSecond: 10, bibNumber: 'a202' },
      as(tokens.partner!),
    );
    expect(set.status).toBe(200);
    expect(set.body.Message).toBe('4 clips are being cut.');
    expect(set.body.result.videos[0]!.raceSecondsAtStart).toBeCloseTo(RACE_AT_START, 3);
    const again = await t.request('POST', API_ROUTES.partnerVideoClock, { videoId: receipt.videoId, mode: 'start', raceTime: '1:00:00' }, as(tokens.partner!));
    expect(`${again.status} ${again.body.Message}`).toBe(`400 ${VIDEO_MESSAGES.stillCutting}`);

    const deadline = Date.now() + 240_000;
    for (;;) {
      list = await videos();
      if (list.videos[0]!.status === 'ready') break;
      if (Date.now() > deadline) throw new Error(`still cutting: ${JSON.stringify(list.videos[0]!.clips)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const clips = list.videos[0]!.clipList;
    const byBib = Object.fromEntries(clips.map((c) => [c.bibNumber, c]));
    expect(Object.keys(byBib).sort()).toEqual(['A101', 'A202', 'A303', 'A404']);
    // A404's official time is A303's: its frames at the line show A303 and never A404: flagged, listed first, not published.
    expect(clips[0]).toMatchObject({ bibNumber: 'A404', status: 'review', reviewReason: 'Frames at the line show BIB A303, not A404.' });
    for (const bib of ['A101', 'A202', 'A303']) expect(byBib[bib]).toMatchObject({ status: 'ready', reviewReason: null });
    expect(list.videos[0]!.clips).toEqual({ cut: 4, ready: 3, review: 1, total: 4 });

    // Each finisher finds their clip by BIB; the flagged one is found by nobody.
    const search = (bib: string) => t.request<BibSearchResult>('POST', API_ROUTES.searchByBib, { eventID: eventId, bibNumber: bib });
    for (const bib of ['A101', 'A202', 'A303']) {
      const found = await search(bib);
      expect(found.body.result.video.map((v) => v.id)).toEqual([byBib[bib]!.photoId]);
    }
    expect((await search('A404')).body.result?.video ?? []).toEqual([]);
    const [tag] = await t.ctx.db.query<{ source: string }>('select source from photo_bibs where photo_id = $1', [byBib.A202!.photoId]);
    expect(tag!.source).toBe('timing');

    // The preview: 640 px H.264, no sound, the clip's seconds (4 before, 3 after); the poster frame 400 px.
    const [keys] = await t.ctx.db.query<{ original_key: string; preview_key: string; thumb_key: string }>(
      'select original_key, preview_key, thumb_key from photos where id = $1',
      [byBib.A202!.photoId],
    );
    const stored = async (key: string) => {
      const file = path.join(work, path.basename(key));
      fs.writeFileSync(file, await t.ctx.storage.getBuffer(key));
      return file;
    };
    const preview = await probeVideo(await stored(keys!.preview_key));
    expect(preview).toMatchObject({ codec: 'h264', width: 640, height: 360, hasAudio: false });
    expect(preview!.durationSeconds).toBeCloseTo(7, 0);
    expect((await sharp(await t.ctx.storage.getBuffer(keys!.thumb_key)).metadata()).width).toBe(400);
    // The full clip stays private until bought.
    expect((await fetch(`${t.url}${API_ROUTES.media}/${keys!.original_key}`)).status).toBe(404);

    // The flagged clip, checked by its videographer, is published by hand.
    const published = await t.request<FinishVideosResult>('POST', API_ROUTES.partnerClipPublish, { photoId: byBib.A404!.photoId }, as(tokens.partner!));
    expect(published.status).toBe(200);
    expect((await search('A404')).body.result.video.map((v) => v.id)).toEqual([byBib.A404!.photoId]);
    // The queue is empty: every piece was worked.
    expect(await queue.pendingCount(VIDEO_QUEUE)).toBe(0);
  }, 400_000);

  it('delivers the bought clip at full quality: its seconds, the camera size, no watermark', async () => {
    const [clip] = await t.ctx.db.query<{ id: number; image_id: string }>(`select id, image_id from photos where clip_bib = 'A101'`);
    const { orderRef, preauth } = await paidOrderOfPhotos(t, eventId, 'A101', [clip!.id]);
    const zip = await download(await zipLinkOf(t, orderRef, preauth));
    expect(zip.status).toBe(200);
    const [entry] = await unzipAll(zip.body);
    expect(entry!.name).toBe(`videos/${clip!.image_id}.mp4`);
    const file = path.join(work, 'bought.mp4');
    fs.writeFileSync(file, entry!.data);
    const probe = await probeVideo(file);
    expect(probe).toMatchObject({ codec: 'h264', width: 1280, height: 720 });
    // Nothing of the camera file's metadata: its recording time (and any position) stays behind.
    expect(probe!.recordedAt).toBeNull();
    // A101 crosses 4 s in: the clip runs from 0 (the video's start) to 7 s.
    expect(probe!.durationSeconds).toBeCloseTo(7, 0);
    // The same moment in the clip and in the camera's file: the same picture, no watermark over it.
    const frameOf = async (source: string, at: number) =>
      (await ffmpeg(['-ss', String(at), '-i', source, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'])).stdout;
    const bought = await frameOf(file, 4);
    const camera = await frameOf(path.join(work, 'finish.mp4'), 4);
    const meanDiff = (a: Buffer, b: Buffer) => a.reduce((sum, v, i) => sum + Math.abs(v - b[i]!), 0) / a.length;
    expect(bought.length).toBe(1280 * 720);
    expect(meanDiff(bought, camera)).toBeLessThan(3);
    // The preview of the same moment, scaled up, differs by its watermark and its lower quality.
    const [keys] = await t.ctx.db.query<{ preview_key: string }>('select preview_key from photos where id = $1', [clip!.id]);
    const previewFile = path.join(work, 'preview.mp4');
    fs.writeFileSync(previewFile, await t.ctx.storage.getBuffer(keys!.preview_key));
    const previewFrame = (
      await ffmpeg(['-ss', '4', '-i', previewFile, '-frames:v', '1', '-vf', 'scale=1280:720', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'])
    ).stdout;
    expect(meanDiff(previewFrame, camera)).toBeGreaterThan(6);
  }, 120_000);

  it('sets the clock again: the unsold clips and their files go and are cut anew, the sold clip stays as its buyer has it', async () => {
    const videos = async () => (await t.request<FinishVideosResult>('POST', API_ROUTES.partnerVideos, { eventId }, as(tokens.partner!))).body.result;
    const [video] = (await videos()).videos;
    const before = await t.ctx.db.query<{ id: number; clip_bib: string; original_key: string; preview_key: string; thumb_key: string }>(
      'select id, clip_bib, original_key, preview_key, thumb_key from photos where source_video_id = $1 order by clip_bib',
      [video!.videoId],
    );
    const sold = before.find((c) => c.clip_bib === 'A101')!;
    const unsold = before.filter((c) => c.clip_bib !== 'A101');
    // A clock 6 s late: the video now shows race time 1:00:06 to 1:00:26, so A101 (1:00:04) is outside and
    // A202 "crosses" 4 s in, where the camera shows A101: the BIB check flags it.
    const set = await t.request<FinishVideosResult>(
      'POST',
      API_ROUTES.partnerVideoClock,
      { videoId: video!.videoId, mode: 'start', raceTime: '1:00:06' },
      as(tokens.partner!),
    );
    expect(`${set.status} ${set.body.Message}`).toBe(`200 ${VIDEO_MESSAGES.clipsCut(3, 1)}`);
    expect(set.body.Message).toBe('3 clips are being cut. 1 sold clip stays as it was.');
    // The unsold clips' rows and files are gone; the sold clip and its files are untouched.
    const ids = (await t.ctx.db.query<{ id: number }>('select id from photos where source_video_id = $1', [video!.videoId])).map((r) => r.id);
    for (const clip of unsold) {
      expect(ids).not.toContain(clip.id);
      for (const key of [clip.original_key, clip.preview_key, clip.thumb_key]) expect(await t.ctx.storage.exists(key)).toBe(false);
    }
    expect(ids).toContain(sold.id);
    for (const key of [sold.original_key, sold.preview_key, sold.thumb_key]) expect(await t.ctx.storage.exists(key)).toBe(true);

    const deadline = Date.now() + 240_000;
    let list = await videos();
    while (list.videos[0]!.status !== 'ready') {
      if (Date.now() > deadline) throw new Error(`still cutting: ${JSON.stringify(list.videos[0]!.clips)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      list = await videos();
    }
    expect(list.videos[0]!.raceSecondsAtStart).toBe(3606);
    const byBib = Object.fromEntries(list.videos[0]!.clipList.map((c) => [c.bibNumber, c]));
    expect(Object.keys(byBib).sort()).toEqual(['A101', 'A202', 'A303', 'A404']);
    expect(byBib.A101).toMatchObject({ photoId: sold.id, sold: true, status: 'ready' });
    expect(byBib.A202).toMatchObject({ status: 'review', reviewReason: 'Frames at the line show BIB A101, not A202.' });
    const [recut] = await t.ctx.db.query<{ clip_crossing_seconds: number }>('select clip_crossing_seconds from photos where id = $1', [byBib.A202!.photoId]);
    expect(Number(recut!.clip_crossing_seconds)).toBeCloseTo(4, 3);
    // The sold clip is still its buyer's download.
    const soldFile = path.join(work, 'sold-again.mp4');
    fs.writeFileSync(soldFile, await t.ctx.storage.getBuffer(sold.original_key));
    expect((await probeVideo(soldFile))!.durationSeconds).toBeCloseTo(7, 0);
  }, 400_000);

  it('flags a clip only when its frames show another participant and never its own BIB', () => {
    expect(reviewReasonOf('A404', [['A303'], ['A303'], []])).toBe('Frames at the line show BIB A303, not A404.');
    expect(reviewReasonOf('A303', [['A303', 'A404'], ['A404']])).toBeNull();
    expect(reviewReasonOf('A303', [[], []])).toBeNull();
  });
});
