/**
 * Upload benchmark (a script that prints figures, not a timed test):
 *
 *   pnpm --filter @finishline/api bench:upload          (BENCH_PHOTOS=200, BENCH_PARALLEL=4, SUPPLY_CONCURRENCY=2, BIB_READER_PROCESSES=2, BENCH_FACES=true)
 *
 * Starts the API in this process on a fresh embedded database (or TEST_DATABASE_URL) with the photo
 * worker and the real BIB reader, then uploads BENCH_PHOTOS camera-like JPEGs of 3-4 MB over tus
 * (1 MB chunks, BENCH_PARALLEL files at a time, as the browser does) to an event whose photographer
 * is approved. Every file is distinct (its own bytes, so none is a duplicate). It prints:
 * - upload throughput (photos and MB per second while uploading);
 * - for each photo the time from its upload finishing to it being searchable by its BIB (p50, p95,
 *   max), with the whole batch queued at once;
 * - the process's memory (RSS and heap) sampled every 500 ms during the batch: the API and its photo
 *   worker live in this process (the scenes are drawn in a child process and read from disk one file
 *   at a time, so the client adds little); the BIB reader and the face detector run in model child
 *   processes, whose RSS (samples) and high-water mark are printed apart, with the sum;
 * - CPU seconds per photo of this process and of the model processes;
 * With BENCH_FACES (the default) the event has selfie search, so the face worker indexes the batch after the BIBs;
 *   then the time from each upload finishing to its faces being indexed (findable by a selfie, and by
 *   face under its runner's BIB) is printed too (p50, p95, max);
 * - the photographer's photo list during the batch, polled every 3 s as the pages do: the upload
 *   page's counts (perPage 0) and the review page's first page, p50 and p95 through HTTP;
 * BENCH_UPLINK_MBIT paces the uploads to a photographer's uplink (say 20): photos then arrive as over a
 * real connection instead of the whole batch at once.
 * - how many photos were found under the right BIB.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_ROUTES } from '@finishline/shared/pure';
import { createSession, createUser } from '../src/features/accounts';
import { startSupplyWorker } from '../src/pipeline/photos';
import { defaultReaderProcesses } from '../src/models/bibs';
import { FACE_YIELD_TO_UPLOADS_MS, startFaceIndexer } from '../src/pipeline/faces';
import { cameraPhoto } from '../src/seed/cameraPhoto';
import { modelProcessStats } from '../src/models/workers/serialWorker';
import { procFigures, runBench, withComment } from './benchSupport';
import { startBenchApp } from './benchApp';

const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 200);
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 4);
const WORKERS = Number(process.env.SUPPLY_CONCURRENCY ?? 2);
const FACES = process.env.BENCH_FACES !== 'false';
const OCR_WORKERS = Number(process.env.BIB_OCR_WORKERS ?? 2);
const READER_PROCESSES = Number(process.env.BIB_READER_PROCESSES ?? defaultReaderProcesses());
/** Distinct scenes rendered; each is sent as several files that differ in a JPEG comment. */
const SCENES = Math.min(PHOTOS, Number(process.env.BENCH_SCENES ?? 20));
const CHUNK = 1024 * 1024;
/** The photographer's uplink in Mbit/s (BENCH_UPLINK_MBIT), shared by the parallel uploads; 0: as fast as loopback goes (the whole batch queued at once). */
const UPLINK_MBIT = Number(process.env.BENCH_UPLINK_MBIT ?? 0);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

const sceneBib = (i: number) => `BM${String(1000 + i * 37).padStart(4, '0')}`;

/** Draws the camera scenes into `dir` (run as a child process: drawing leaves hundreds of MB behind). */
async function renderScenes(dir: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < SCENES; i++) {
    const jpeg = await cameraPhoto({
      bib: sceneBib(i),
      seed: `bench/${i}`,
      width: 4000,
      grain: 14,
      quality: 95,
      eventCode: 'BM26',
      eventName: 'Bench City Marathon 2026',
    });
    fs.writeFileSync(path.join(dir, `${i}.jpg`), jpeg);
  }
}

function renderScenesElsewhere(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = fork(process.argv[1]!, [], { env: { ...process.env, BENCH_RENDER_SCENES_TO: dir }, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`rendering the scenes failed (exit ${code})`))));
  });
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-upload-bench-'));
  const { schema, db, ctx, app, url, queue, release } = await startBenchApp(tmp);
  const worker = await startSupplyWorker(ctx, queue, { concurrency: WORKERS, ocrWorkers: OCR_WORKERS, readerProcesses: READER_PROCESSES });
  // The face worker runs beside it as in the API (half a core, uploads first), unless BENCH_FACES=false.
  const faces = FACES ? startFaceIndexer({ db, storage: ctx.storage, queue, pauseRatio: 1, yieldToUploadsMs: FACE_YIELD_TO_UPLOADS_MS }) : null;

  const organiser = await createUser(db, { firstName: 'Bench', lastName: 'Organiser', email: 'org@bench.test', password: 'Bench#2026', isOrganiser: true });
  const partner = await createUser(db, { firstName: 'Bench', lastName: 'Partner', email: 'partner@bench.test', password: 'Bench#2026', isPartner: true });
  const [event] = await db.query<{ id: number }>(
    `insert into events (name, from_date, to_date, issearchable, showunlabeled, organiser_user_id, bib_pattern, selfiesearch) values ('Bench City Marathon 2026', '2026-10-04', '2026-10-04', true, true, $1, '^BM[0-9]{4}$', $2) returning id`,
    // Selfie search on with the face worker: otherwise it finds no photo to index and its process never starts.
    [organiser, FACES],
  );
  const eventId = event!.id;
  await db.query(`insert into event_partners (event_id, user_id, status) values ($1, $2, 'approved')`, [eventId, partner]);
  const token = (await createSession(db, partner)).token;

  console.log(`Rendering ${SCENES} scenes in a child process (each sent as ${Math.ceil(PHOTOS / SCENES)} distinct files)...`);
  const sceneDir = path.join(tmp, 'scenes');
  await renderScenesElsewhere(sceneDir);
  const scenes = Array.from({ length: SCENES }, (_, i) => ({ bib: sceneBib(i), file: path.join(sceneDir, `${i}.jpg`) }));
  // Each file is read from disk when it is sent and dropped after, and the scenes were drawn in
  // another process: the memory figures are the server's, not the client's.
  const fileOf = (i: number) => ({ bib: scenes[i % SCENES]!.bib, data: withComment(fs.readFileSync(scenes[i % SCENES]!.file), `bench file ${i}`) });
  const sizes = Array.from({ length: PHOTOS }, (_, i) => fs.statSync(scenes[i % SCENES]!.file).size + `bench file ${i}`.length + 4);
  const totalBytes = sizes.reduce((s, n) => s + n, 0);
  console.log(`Files: ${PHOTOS}, ${mb(totalBytes)} MB in all, ${mb(Math.min(...sizes))}-${mb(Math.max(...sizes))} MB each`);

  console.log(`Peak RSS of the API process before the batch (start, migrations): ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  const memory: Array<{ rss: number; heap: number; children: number }> = [];
  // Model processes by name: their RSS samples, highest high-water mark, and CPU by pid (a restart is a new pid).
  const models = new Map<string, { rss: number[]; hwm: number; cpu: Map<number, number> }>();
  const cpuBefore = process.cpuUsage();
  const sampleModels = (): number => {
    let sum = 0;
    for (const stats of modelProcessStats()) {
      if (stats.pid === null) continue;
      const figures = procFigures(stats.pid);
      if (!figures) continue;
      const entry = models.get(stats.name) ?? { rss: [], hwm: 0, cpu: new Map<number, number>() };
      models.set(stats.name, entry);
      entry.rss.push(figures.rss);
      entry.hwm = Math.max(entry.hwm, figures.hwm, stats.peakRss);
      entry.cpu.set(stats.pid, figures.cpu);
      sum += figures.rss;
    }
    return sum;
  };
  const cpuOfModelsAtStart = new Map<number, number>();
  sampleModels();
  for (const entry of models.values()) for (const [pid, cpu] of entry.cpu) cpuOfModelsAtStart.set(pid, cpu);
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    memory.push({ rss: m.rss, heap: m.heapUsed, children: sampleModels() });
  }, 500);

  const endpoint = `${url}${API_ROUTES.partnerUploads}`;
  const finishedAt = new Map<number, number>();
  const bibOf = new Map<number, string>();
  const started = Date.now();
  let next = 0;
  // A chunk leaves once the uplink has had time to carry every byte sent before it.
  let bytesLeft = 0;
  const uplink = async (bytes: number) => {
    if (UPLINK_MBIT <= 0) return;
    const leaveAt = started + (bytesLeft * 8) / (UPLINK_MBIT * 1000);
    bytesLeft += bytes;
    const wait = leaveAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  };
  async function uploadOne(file: { bib: string; data: Buffer }, index: number): Promise<void> {
    const meta = [
      `eventId ${Buffer.from(String(eventId)).toString('base64')}`,
      `filename ${Buffer.from(`IMG_${index}.JPG`).toString('base64')}`,
      `filetype ${Buffer.from('image/jpeg').toString('base64')}`,
    ].join(',');
    const created = await fetch(endpoint, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}`, 'upload-length': String(file.data.length), 'upload-metadata': meta },
    });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
    const location = new URL(created.headers.get('location')!, url).href;
    let offset = 0;
    let last: Response | null = null;
    while (offset < file.data.length) {
      const chunk = file.data.subarray(offset, offset + CHUNK);
      await uplink(chunk.length);
      last = await fetch(location, {
        method: 'PATCH',
        headers: {
          'tus-resumable': '1.0.0',
          authorization: `Bearer ${token}`,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body: new Uint8Array(chunk),
      });
      if (last.status !== 204) throw new Error(`patch: ${last.status} ${await last.text()}`);
      offset = Number(last.headers.get('upload-offset'));
    }
    const receipt = JSON.parse(Buffer.from(last!.headers.get('upload-receipt')!, 'base64').toString('utf8')) as { photoId: number };
    finishedAt.set(receipt.photoId, Date.now());
    bibOf.set(receipt.photoId, file.bib);
  }
  const readyAt = new Map<number, number>();
  /** When each photo's faces were indexed (its face job done): findable by a selfie, and by face under its runner's BIB. */
  const faceReadyAt = new Map<number, number>();
  let uploading = true;
  const watching = (async () => {
    const deadline = Date.now() + 30 * 60_000;
    while ((uploading || readyAt.size < finishedAt.size) && Date.now() < deadline) {
      const rows = await db.query<{ id: number; status: string }>(`select id, status from photos where event_id = $1 and status <> 'processing'`, [eventId]);
      for (const row of rows) if (!readyAt.has(row.id)) readyAt.set(row.id, Date.now());
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const watchingFaces = (async () => {
    const deadline = Date.now() + 30 * 60_000;
    while (FACES && (uploading || faceReadyAt.size < finishedAt.size) && Date.now() < deadline) {
      const rows = await db.query<{ photo_id: number }>(`select photo_id from face_index_jobs where event_id = $1 and status in ('done', 'failed')`, [eventId]);
      for (const row of rows) if (!faceReadyAt.has(row.photo_id)) faceReadyAt.set(row.photo_id, Date.now());
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  // The photographer's screens poll during the batch as the pages do (every 3 s): the upload page's
  // counts (perPage 0) and the review page's first page; each call timed through HTTP.
  const listTimes: { counts: number[]; page: number[] } = { counts: [], page: [] };
  const polling = (async () => {
    while (uploading || readyAt.size < finishedAt.size) {
      for (const [kind, perPage] of [
        ['counts', 0],
        ['page', 48],
      ] as const) {
        const at = performance.now();
        const res = await fetch(`${url}${API_ROUTES.partnerPhotos}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ eventId, perPage }),
        });
        await res.arrayBuffer();
        if (res.status === 200) listTimes[kind].push(performance.now() - at);
      }
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
  })();
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < PHOTOS) {
        const index = next++;
        await uploadOne(fileOf(index), index);
      }
    }),
  );
  uploading = false;
  const uploadSeconds = (Date.now() - started) / 1000;
  console.log(
    `Uploaded ${PHOTOS} photos in ${uploadSeconds.toFixed(1)} s: ${(PHOTOS / uploadSeconds).toFixed(2)} photos/s, ${(totalBytes / (1024 * 1024) / uploadSeconds).toFixed(1)} MB/s${UPLINK_MBIT > 0 ? ` (paced to a ${UPLINK_MBIT} Mbit/s uplink)` : ''}`,
  );

  // Searchable: ready (a ready photo is found by its BIBs at once), polled in one query for the batch
  // from the first byte on, so a photo processed while others still upload is timed when it is ready.
  await watching;
  await polling;
  const allSeconds = (Date.now() - started) / 1000;
  const latencies = [...finishedAt.entries()].filter(([id]) => readyAt.has(id)).map(([id, at]) => (readyAt.get(id)! - at) / 1000);
  const outcome = await db.query<{ status: string; n: number }>(`select status, count(*)::int as n from photos where event_id = $1 group by status`, [eventId]);
  const tags = await db.query<{ photo_id: number; bib_number: string }>(`select photo_id, bib_number from photo_bibs where event_id = $1`, [eventId]);
  const right = [...bibOf.entries()].filter(([id, bib]) => tags.some((t) => t.photo_id === id && t.bib_number === bib)).length;
  const wrong = tags.filter((t) => bibOf.get(t.photo_id) !== t.bib_number).length;

  console.log(
    `All ${PHOTOS} processed ${allSeconds.toFixed(1)} s after the first byte: ${(PHOTOS / allSeconds).toFixed(2)} photos/s end to end (${WORKERS} photo workers, ${READER_PROCESSES} BIB reader process(es))`,
  );
  console.log(
    `Upload finished -> searchable: p50 ${percentile(latencies, 50).toFixed(1)} s, p95 ${percentile(latencies, 95).toFixed(1)} s, max ${Math.max(...latencies).toFixed(1)} s (goal p95 < 60 s)`,
  );
  for (const [kind, times] of Object.entries(listTimes)) {
    console.log(
      `Photo list during the batch (${kind === 'counts' ? 'upload page: counts only' : 'review page: first page of 48'}): ${times.length} calls, p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms (goal p95 < 200 ms)`,
    );
  }
  console.log(`Statuses: ${outcome.map((o) => `${o.status} ${o.n}`).join(', ')}; found under the right BIB: ${right}/${PHOTOS}; wrong tags: ${wrong}`);
  const modelCpuOf = () => [...models.values()].map((entry) => [...entry.cpu].reduce((sum, [pid, cpu]) => sum + cpu - (cpuOfModelsAtStart.get(pid) ?? 0), 0));
  const apiCpu = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6;
  sampleModels();
  const names = [...models.keys()];
  console.log(
    `CPU until searchable, per photo: API process ${(apiCpu(process.cpuUsage(cpuBefore)) / PHOTOS).toFixed(2)} s (uploads, renditions, database), ` +
      names.map((name, i) => `${name} process ${(modelCpuOf()[i]! / PHOTOS).toFixed(2)} s`).join(', '),
  );
  if (faces) {
    await faces.whenIdle();
    await watchingFaces;
    console.log(`Face indexing of the batch done ${((Date.now() - started) / 1000).toFixed(1)} s after the first byte (it lets BIB reading go first)`);
    const faceLatencies = [...finishedAt.entries()].filter(([id]) => faceReadyAt.has(id)).map(([id, at]) => (faceReadyAt.get(id)! - at) / 1000);
    console.log(
      `Upload finished -> findable by face (faces indexed): p50 ${percentile(faceLatencies, 50).toFixed(1)} s, p95 ${percentile(faceLatencies, 95).toFixed(1)} s, max ${Math.max(...faceLatencies).toFixed(1)} s (goal p95 < 60 s)`,
    );
  }
  const rss = memory.map((m) => m.rss);
  const heap = memory.map((m) => m.heap);
  console.log(
    `Memory during the batch: RSS ${mb(Math.min(...rss))}-${mb(Math.max(...rss))} MB (first ${mb(rss[0]!)}, last ${mb(rss.at(-1)!)}); heap ${mb(Math.min(...heap))}-${mb(Math.max(...heap))} MB (goal flat, < 500 MB)`,
  );
  // The samples can miss a short peak (one detection's activations): the kernel's high-water mark cannot.
  console.log(
    `Peak RSS of the API process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  sampleModels();
  for (const [name, entry] of models) {
    const stats = modelProcessStats().find((s) => s.name === name);
    console.log(
      `${name} process: RSS ${mb(Math.min(...entry.rss))}-${mb(Math.max(...entry.rss))} MB (last ${mb(entry.rss.at(-1)!)}), high-water mark ${mb(entry.hwm)} MB, restarts ${stats?.restarts ?? 0}, CPU ${(modelCpuOf()[names.indexOf(name)]! / PHOTOS).toFixed(2)} s per photo (with face indexing)`,
    );
  }
  const total = memory.map((m) => m.rss + m.children);
  console.log(`API + model processes together (samples): ${mb(Math.min(...total))}-${mb(Math.max(...total))} MB`);

  clearInterval(sampler);
  await faces?.stop();
  await worker.stop();
  await release();
  await app.close();
  // The job queue keeps its tables in a schema of its own beside the database's (jobQueue.ts): drop both.
  if (schema) {
    for (const name of [`${schema}_pgboss`, schema]) await db.query(`drop schema if exists ${name} cascade`).catch(() => undefined);
  }
  await db.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}

/** The API runs with MALLOC_ARENA_MAX=2 (scripts/start.mjs, docs/configuration.md): so does the benchmark's process. */
function inApiMemorySetting(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = fork(process.argv[1]!, process.argv.slice(2), { env: { ...process.env, MALLOC_ARENA_MAX: '2' }, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the benchmark failed (exit ${code})`))));
  });
}

runBench(() =>
  process.env.BENCH_RENDER_SCENES_TO ? renderScenes(process.env.BENCH_RENDER_SCENES_TO) : process.env.MALLOC_ARENA_MAX ? main() : inApiMemorySetting(),
);
