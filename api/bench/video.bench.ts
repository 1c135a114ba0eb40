/**
 * bench:video — a finish line filmed at 1920 x 1080, 25 frames a second (BENCH_VIDEO_MINUTES, default
 * 10; a runner at the line every BENCH_VIDEO_GAP seconds, default 10), uploaded over tus to the
 * running API on loopback, its clock set, and cut into one clip per finisher by the video workers
 * (BENCH_VIDEO_WORKERS, default 2) with the real BIB check. Prints the CPU seconds of the upload's
 * checks per minute of video, of the cutting per clip and per minute of video, and the wall time from
 * the upload's end to the last clip findable by its BIB. CPU is this process's own plus its children's
 * (FFmpeg, ffprobe and the BIB reader's processes, counted as they exit), from /proc.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_ROUTES, type VideoUploadReceipt } from '@finishline/shared/pure';
import { createSession, createUser } from '../src/features/accounts';
import { createBibReader } from '../src/models/bibs';
import { startVideoWorker } from '../src/pipeline/videos';
import { renderFinishLineVideo } from '../src/seed/finishLineVideo';
import { load, runBench } from './benchSupport';
import { startBenchApp } from './benchApp';

const MINUTES = Number(process.env.BENCH_VIDEO_MINUTES ?? 10);
const GAP = Number(process.env.BENCH_VIDEO_GAP ?? 10);
const WORKERS = Number(process.env.BENCH_VIDEO_WORKERS ?? 2);
const CHUNK = 8 * 1024 * 1024;

/** CPU seconds of this process and of its children that have ended (utime, stime, cutime, cstime). */
function cpuSeconds(): { own: number; children: number } {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  const tick = 100;
  return { own: (Number(stat[11]) + Number(stat[12])) / tick, children: (Number(stat[13]) + Number(stat[14])) / tick };
}
const total = (c: { own: number; children: number }) => c.own + c.children;

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-video-bench-'));
  const seconds = MINUTES * 60;
  const runners = Array.from({ length: Math.floor((seconds - GAP / 2) / GAP) }, (_, i) => ({ bib: `V${String(1000 + i)}`, crossAt: GAP / 2 + i * GAP }));
  const file = path.join(tmp, 'finish-line.mp4');
  let started = Date.now();
  // The camera's file: x264 at its camera-like quality, drawn by the demo's scenes (not measured).
  await renderFinishLineVideo({
    out: file,
    width: 1920,
    height: 1080,
    fps: 25,
    seconds,
    runners,
    eventName: 'Bench Finish 2026',
    eventCode: 'BF26',
    preset: 'ultrafast',
    crf: 20,
  });
  const size = fs.statSync(file).size;
  console.log(
    `bench:video: drew ${MINUTES} min of 1080p25 with ${runners.length} finishers in ${((Date.now() - started) / 1000).toFixed(0)} s (${(size / 1024 ** 2).toFixed(0)} MB)`,
  );

  const { db, ctx, app, url, queue, release } = await startBenchApp(tmp);
  const reader = await createBibReader({ workers: 1 });
  const worker = await startVideoWorker(ctx, queue, { reader, concurrency: WORKERS });
  const partner = await createUser(db, { firstName: 'Bench', lastName: 'Videographer', email: 'video@bench.test', password: 'Bench#2026', isPartner: true });
  const token = (await createSession(db, partner)).token;
  const [event] = await db.query<{ id: number }>(
    `insert into events (name, from_date, to_date, issearchable, bib_pattern) values ('Bench Finish 2026', '2026-10-04', '2026-10-04', true, '^V[0-9]{4}$') returning id`,
  );
  await db.query(`insert into event_partners (event_id, user_id, status) values ($1, $2, 'approved')`, [event!.id, partner]);
  for (const r of runners)
    await db.query(`insert into participants (event_id, bib_number, name, finish_time) values ($1, $2, $2, make_interval(secs => $3))`, [
      event!.id,
      r.bib,
      r.crossAt,
    ]);

  // Upload over tus in 8 MB chunks.
  const headers = { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` };
  const meta = Object.entries({ eventId: String(event!.id), filename: 'finish-line.mp4', filetype: 'video/mp4' })
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
  started = Date.now();
  const created = await fetch(`${url}${API_ROUTES.partnerUploads}`, {
    method: 'POST',
    headers: { ...headers, 'upload-length': String(size), 'upload-metadata': meta },
  });
  const location = new URL(created.headers.get('location')!, url).href;
  const handle = await fs.promises.open(file, 'r');
  let receipt: VideoUploadReceipt | null = null;
  let checkCpu = 0;
  for (let offset = 0; offset < size; offset += CHUNK) {
    const body = Buffer.alloc(Math.min(CHUNK, size - offset));
    await handle.read(body, 0, body.length, offset);
    const last = offset + body.length >= size;
    const before = cpuSeconds();
    const answer = await fetch(location, {
      method: 'PATCH',
      headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(body),
    });
    if (answer.status !== 204) throw new Error(`upload refused: ${answer.status} ${await answer.text()}`);
    if (last) {
      checkCpu = total(cpuSeconds()) - total(before);
      receipt = JSON.parse(Buffer.from(answer.headers.get('upload-receipt')!, 'base64').toString('utf8')) as VideoUploadReceipt;
    }
  }
  await handle.close();
  const uploadEnd = Date.now();
  console.log(
    `bench:video: uploaded in ${((uploadEnd - started) / 1000).toFixed(1)} s; the last chunk's checks (SHA-256, boxes, probe, decode of both ends, storing) ${checkCpu.toFixed(1)} s CPU`,
  );

  const beforeCut = cpuSeconds();
  const clock = await fetch(`${url}${API_ROUTES.partnerVideoClock}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ videoId: receipt!.videoId, mode: 'start', raceTime: '0:00:00' }),
  });
  if (clock.status !== 200) throw new Error(`clock: ${clock.status} ${await clock.text()}`);
  let lastReady: number;
  for (;;) {
    const [row] = await db.query<{ status: string; ready: number; review: number; failed: number }>(
      `select v.status, count(*) filter (where p.status = 'ready')::int as ready, count(*) filter (where p.status = 'review')::int as review, count(*) filter (where p.status = 'failed')::int as failed
         from finish_videos v left join photos p on p.source_video_id = v.id where v.id = $1 group by v.status`,
      [receipt!.videoId],
    );
    if (row!.status === 'ready') {
      lastReady = Date.now();
      console.log(`bench:video: ${row!.ready} clips published, ${row!.review} flagged for review, ${row!.failed} failed`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await worker.stop();
  await reader.close(); // its processes end and their CPU is counted as this process's children's
  await new Promise((resolve) => setTimeout(resolve, 500));
  const cutCpu = total(cpuSeconds()) - total(beforeCut);
  const clips = runners.length;
  console.log(`bench:video: ${MINUTES} min of 1080p25, ${clips} clips, ${WORKERS} video workers, load ${load()}`);
  console.log(`  upload checks: ${(checkCpu / MINUTES).toFixed(2)} s CPU per minute of video`);
  console.log(
    `  cutting (clip, preview, poster, BIB check): ${cutCpu.toFixed(0)} s CPU = ${(cutCpu / clips).toFixed(2)} s per clip = ${(cutCpu / MINUTES).toFixed(1)} s per minute of video at one finisher every ${GAP} s`,
  );
  console.log(`  upload end to last clip findable: ${((lastReady - uploadEnd) / 1000).toFixed(0)} s (clock set at once)`);
  await release();
  await app.close();
  await db.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}

runBench(main);
