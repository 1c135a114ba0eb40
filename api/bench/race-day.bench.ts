/**
 * Race-day benchmark (a script that prints figures, not a timed test):
 *
 *   pnpm --filter @finishline/api bench:race-day
 *
 * The race-day deployment as processes: one API (api/src/main.ts, API_WORKS=false: HTTP only) and N
 * worker processes (api/src/worker.ts), on a fresh database of their own on a PostgreSQL server
 * (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test; dropped
 * afterwards) and a moto_server bucket. For each N in BENCH_RACE_WORKERS (default 1,2,3) a new event
 * gets BENCH_RACE_PHOTOS camera photos of about 3 MB with readable BIBs (default 40; drawn by the
 * repository's CLI, api/src/cli/cameraPhotos.ts, BENCH_RACE_SCENES distinct runners, each file made
 * distinct by a JPEG comment), uploaded over tus in 1 MB chunks by BENCH_RACE_PHOTOGRAPHERS
 * photographers at once (default 4, each sending BENCH_RACE_PARALLEL files at a time, default 2),
 * and it prints a table:
 * - photos per second, from the first byte to the last photo found by its BIB;
 * - CPU seconds per photo of the worker processes and their model processes (read from /proc: each
 *   process's own, its live children's and its ended children's), until the last photo is searchable
 *   and, with faces (BENCH_FACES, default true; the event has selfie search), until the faces too
 *   are indexed; and the API's own CPU per photo (receiving the uploads, answering the searches);
 * - p50/p95 from an upload's last chunk to the API's BIB search finding the photo;
 * - each process's peak RSS (sampled every 500 ms from /proc, and the kernel's high-water mark),
 *   the model processes under each worker included.
 * Then the kill case: BENCH_RACE_KILL_WORKERS workers (default 2), one SIGKILLed once a third of the
 * photos are searchable; afterwards SQL and the bucket's listing check that every photo was processed
 * exactly once in effect (ready, one set of BIB tags, face rows and renditions, none lost) and it
 * prints "lost L, processed twice D", computed. Last, rows and bytes per photo in the database and
 * the bucket, for sizing (docs/deploy.md).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { API_ROUTES, type ApiEnvelope, type BibSearchResult, type UploadReceipt } from '@finishline/shared/pure';
import { hasMoto, startMoto } from '../test/support/motoServer';
import { receiptOf } from '../test/support/tus';
import { commandLineOf, descendantsOf, renderCameraPhotos, startWorkerProcess, tusUploadInChunks, type WorkerProcess } from '../test/support/raceDay';
import { openDb, type Db } from '../src/db/db';
import { createSession, createUser } from '../src/features/accounts';
import { load, percentile, procFigures, runBench, startApi, withBenchDatabase, withComment } from './benchSupport';

const SERVER = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PHOTOS = Number(process.env.BENCH_RACE_PHOTOS ?? 40);
const PHOTOGRAPHERS = Number(process.env.BENCH_RACE_PHOTOGRAPHERS ?? 4);
const PARALLEL = Number(process.env.BENCH_RACE_PARALLEL ?? 2);
const SCENES = Math.min(PHOTOS, Number(process.env.BENCH_RACE_SCENES ?? 20));
const WORKER_COUNTS = (process.env.BENCH_RACE_WORKERS ?? '1,2,3').split(',').map(Number);
const KILL_WORKERS = Number(process.env.BENCH_RACE_KILL_WORKERS ?? 2);
const FACES = process.env.BENCH_FACES !== 'false';
const BUCKET = 'finishline-race-day';
/** The benchmark's own database connections, told apart from the deployment's when PostgreSQL's CPU is counted. */
const BENCH_APPLICATION = 'race-day-bench';
/** A case that has not finished in this long is reported as such. */
const CASE_LIMIT_MS = 30 * 60_000;

const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(0);
const sceneBib = (i: number) => `RD${String(1000 + i * 37).padStart(4, '0')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One process seen during a case: its role, peaks and latest CPU. */
interface Seen {
  root: string;
  kind: string;
  peakRss: number;
  hwm: number;
  cpu: number;
}

function kindOf(command: string): string {
  if (command.includes('bibWorker')) return 'BIB reader';
  if (command.includes('faceWorker')) return 'face detector';
  if (command.includes('esbuild')) return 'esbuild (tsx)';
  return 'child';
}

/**
 * The process trees of the API and the workers, sampled from /proc. A tree's CPU is its root's own,
 * what its ended children used (the kernel adds it to the root once it waited for them) and its live
 * children's; a root that died (SIGKILL) keeps the figures of its last sample.
 */
class ProcessTrees {
  readonly seen = new Map<number, Seen>();
  private readonly roots = new Map<string, { pid: number; kind: string; reaped: number; live: number[]; treePeak: number }>();
  /** Processes that are not ours to wait for (PostgreSQL's backends): each counted with its last sample. */
  private readonly groups = new Map<string, () => number[]>();

  add(label: string, pid: number, kind = label.startsWith('worker') ? 'worker' : label): void {
    this.roots.set(label, { pid, kind, reaped: 0, live: [], treePeak: 0 });
  }

  addGroup(label: string, pids: () => number[]): void {
    this.groups.set(label, pids);
  }

  sample(): void {
    for (const [label, root] of this.roots) {
      const own = procFigures(root.pid);
      if (!own) continue;
      let tree = this.note(root.pid, label, root.kind, own);
      root.reaped = own.reapedChildrenCpu;
      root.live = [];
      for (const pid of descendantsOf(root.pid)) {
        const figures = procFigures(pid);
        if (!figures) continue;
        root.live.push(pid);
        // A process just forked may not show its command line yet: its kind is looked at again.
        const known = this.seen.get(pid)?.kind;
        tree += this.note(pid, label, known && known !== 'child' ? known : kindOf(commandLineOf(pid)), figures);
      }
      root.treePeak = Math.max(root.treePeak, tree);
    }
    for (const [label, pids] of this.groups) {
      for (const pid of pids()) {
        const figures = procFigures(pid);
        if (figures) this.note(pid, label, label, figures);
      }
    }
  }

  private note(pid: number, root: string, kind: string, figures: { rss: number; hwm: number; cpu: number }): number {
    const entry = this.seen.get(pid) ?? { root, kind, peakRss: 0, hwm: 0, cpu: 0 };
    entry.peakRss = Math.max(entry.peakRss, figures.rss);
    entry.hwm = Math.max(entry.hwm, figures.hwm);
    entry.cpu = figures.cpu;
    this.seen.set(pid, entry);
    return figures.rss;
  }

  /** CPU seconds of the tree (or group) under label so far. */
  cpu(label: string): number {
    const root = this.roots.get(label);
    if (!root) return [...this.seen.values()].filter((entry) => entry.root === label).reduce((sum, entry) => sum + entry.cpu, 0);
    return (this.seen.get(root.pid)?.cpu ?? 0) + root.reaped + root.live.reduce((sum, pid) => sum + (this.seen.get(pid)?.cpu ?? 0), 0);
  }

  /** CPU seconds so far per kind of process under the roots whose label starts with prefix (ended children of a root counted as its own kind). */
  cpuByKind(prefix: string): Map<string, number> {
    const byKind = new Map<string, number>();
    for (const [, entry] of this.seen) if (entry.root.startsWith(prefix)) byKind.set(entry.kind, (byKind.get(entry.kind) ?? 0) + entry.cpu);
    return byKind;
  }

  treePeak(label: string): number {
    return this.roots.get(label)?.treePeak ?? 0;
  }

  labels(): string[] {
    return [...this.roots.keys()];
  }

  /** CPU seconds of every root and group so far. */
  cpuOfAll(): Map<string, number> {
    return new Map([...this.roots.keys(), ...this.groups.keys()].map((label) => [label, this.cpu(label)]));
  }
}

interface CaseResult {
  label: string;
  workers: number;
  photos: number;
  found: number;
  misread: number;
  failed: number;
  seconds: number;
  cpuToSearchable: number;
  cpuWithFaces: number | null;
  /** CPU seconds over the whole case (until the faces are indexed) of the API, PostgreSQL's backends and moto_server. */
  apiCpu: number;
  databaseCpu: number;
  s3Cpu: number;
  /** Cores the whole stack (API, workers, database, S3) kept busy from the first byte to the last photo found. */
  coresBusy: number;
  loadAtStart: number;
  p50: number;
  p95: number;
  facesSeconds: number | null;
  memory: string[];
  apiPeak: number;
  largestWorkerTree: number;
  exits: string;
  cpuByKind: Map<string, number>;
  extra: string[];
  /** The SQL and bucket check of exactly-once processing. */
  once: string;
}

interface Bench {
  db: Db;
  tmp: string;
  apiUrl: string;
  apiPid: number;
  motoPid: number | null;
  /** PostgreSQL's backends serving the deployment (not the benchmark's own connections), refreshed while a case runs. */
  backends: number[];
  s3: S3Client;
  scenes: Array<{ bib: string; file: string }>;
  organiser: number;
  workerEnv: Record<string, string>;
}

async function search(apiUrl: string, eventId: number, bib: string): Promise<number[]> {
  const res = await fetch(`${apiUrl}${API_ROUTES.searchByBib}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ eventID: eventId, bibNumber: bib }),
  });
  if (res.status !== 200) throw new Error(`BIB search answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as ApiEnvelope<BibSearchResult>).result.photo.map((photo) => photo.id);
}

async function runCase(bench: Bench, label: string, workerCount: number, kill: boolean): Promise<CaseResult> {
  const { db } = bench;
  console.log(
    `\n[${label}] ${workerCount} worker(s)${kill ? ', one SIGKILLed once a third of the photos are searchable' : ''}: ${PHOTOS} photos from ${PHOTOGRAPHERS} photographers (load average ${load()})`,
  );
  const [event] = await db.query<{ id: number }>(
    `insert into events (name, from_date, to_date, issearchable, showunlabeled, organiser_user_id, bib_pattern, selfiesearch) values ($1, '2026-10-04', '2026-10-04', true, true, $2, '^RD[0-9]{4}$', $3) returning id`,
    [`Race Day Marathon 2026 (${label})`, bench.organiser, FACES],
  );
  const eventId = event!.id;
  const tokens: string[] = [];
  for (let p = 0; p < PHOTOGRAPHERS; p++) {
    const partner = await createUser(db, {
      firstName: 'Race',
      lastName: `Photographer ${p}`,
      email: `${label}.${p}@race-day.test`.replace(/[^a-z0-9.@-]/gi, ''),
      password: 'RaceDay#2026',
      isPartner: true,
    });
    await db.query(`insert into event_partners (event_id, user_id, status) values ($1, $2, 'approved')`, [eventId, partner]);
    tokens.push((await createSession(db, partner)).token);
  }

  const workers: WorkerProcess[] = await Promise.all(
    Array.from({ length: workerCount }, (_, i) => startWorkerProcess({ ...bench.workerEnv, DATA_DIR: path.join(bench.tmp, `${label}-worker-${i + 1}`) })),
  );
  const trees = new ProcessTrees();
  trees.add('API', bench.apiPid);
  workers.forEach((worker, i) => trees.add(`worker ${i + 1}`, worker.pid));
  if (bench.motoPid) trees.add('S3', bench.motoPid, 'moto_server');
  trees.addGroup('PostgreSQL', () => bench.backends);
  let casing = true;
  const watchingBackends = (async () => {
    while (casing) {
      bench.backends = (
        await db.query<{ pid: number }>(`select pid from pg_stat_activity where datname = current_database() and application_name <> $1`, [BENCH_APPLICATION])
      ).map((row) => row.pid);
      await sleep(1000);
    }
  })();
  // The model processes start with the workers; their loading is not the photos' work.
  await sleep(3000);
  trees.sample();
  const loadAtStart = os.loadavg()[0]!;
  const workerLabels = workers.map((_, i) => `worker ${i + 1}`);
  const workersCpu = () => workerLabels.reduce((sum, label) => sum + trees.cpu(label), 0);
  const allCpu = () => [...trees.cpuOfAll().values()].reduce((sum, cpu) => sum + cpu, 0);
  const cpuAtStart = { workers: workersCpu(), all: allCpu(), byLabel: trees.cpuOfAll(), byKind: trees.cpuByKind('worker') };
  const sampler = setInterval(() => trees.sample(), 500);

  const finishedAt = new Map<number, number>();
  const bibOf = new Map<number, string>();
  const foundAt = new Map<number, number>();
  const misread = new Set<number>();
  const failed = new Set<number>();
  const started = Date.now();
  let uploading = true;
  let killed: { at: number; worker: WorkerProcess; children: number[] } | null = null;

  const uploads = Promise.all(
    tokens.map(async (token, p) => {
      const mine = Array.from({ length: PHOTOS }, (_, i) => i).filter((i) => i % PHOTOGRAPHERS === p);
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          for (let index = mine.shift(); index !== undefined; index = mine.shift()) {
            const scene = bench.scenes[index % SCENES]!;
            const file = withComment(fs.readFileSync(scene.file), `race day ${label} file ${index}`);
            const answer = await tusUploadInChunks(`${bench.apiUrl}${API_ROUTES.partnerUploads}`, token, file, {
              eventId: String(eventId),
              filename: `IMG_${index}.JPG`,
              filetype: 'image/jpeg',
            });
            const receipt: UploadReceipt = receiptOf(answer);
            if (receipt.duplicate) throw new Error(`file ${index} was taken for a duplicate`);
            finishedAt.set(receipt.photoId, Date.now());
            bibOf.set(receipt.photoId, scene.bib);
          }
        }),
      );
    }),
  ).finally(() => (uploading = false));

  // Found: the API's BIB search answers the photo under its runner's BIB. Polled for every photo
  // that is ready (one query), then one search per BIB of those: the search is what a runner sees.
  const watching = (async () => {
    while ((uploading || foundAt.size + misread.size + failed.size < finishedAt.size) && Date.now() - started < CASE_LIMIT_MS) {
      const pending = [...finishedAt.keys()].filter((id) => !foundAt.has(id) && !misread.has(id) && !failed.has(id));
      const rows =
        pending.length > 0
          ? await db.query<{ id: number; status: string; bibs: string[] }>(
              `select id, status, array(select bib_number from photo_bibs b where b.photo_id = p.id) as bibs from photos p where id = any($1)`,
              [pending],
            )
          : [];
      const ready = rows.filter((row) => row.status === 'ready');
      for (const row of rows) if (row.status === 'failed') failed.add(row.id);
      for (const bib of new Set(ready.map((row) => bibOf.get(row.id)!))) {
        const ids = new Set(await search(bench.apiUrl, eventId, bib));
        const now = Date.now();
        for (const row of ready.filter((r) => bibOf.get(r.id) === bib)) {
          if (ids.has(row.id)) foundAt.set(row.id, now);
          else if (!row.bibs.includes(bib)) misread.add(row.id);
        }
      }
      if (kill && !killed && foundAt.size >= Math.ceil(PHOTOS / 3)) {
        const victim = workers[0]!;
        trees.sample();
        killed = { at: Date.now(), worker: victim, children: descendantsOf(victim.pid) };
        victim.signal('SIGKILL');
        console.log(
          `[${label}] SIGKILL to worker 1 (pid ${victim.pid}) ${((killed.at - started) / 1000).toFixed(1)} s after the first byte, with ${foundAt.size} of ${PHOTOS} photos searchable`,
        );
      }
      await sleep(300);
    }
  })();
  await uploads;
  const uploadSeconds = (Date.now() - started) / 1000;
  await watching;
  const allFound = foundAt.size > 0 ? Math.max(...foundAt.values()) : Date.now();
  trees.sample();
  const cpuToSearchable = workersCpu() - cpuAtStart.workers;
  const seconds = (allFound - started) / 1000;
  const coresBusy = (allCpu() - cpuAtStart.all) / seconds;

  let cpuWithFaces: number | null = null;
  let facesSeconds: number | null = null;
  if (FACES) {
    const deadline = started + CASE_LIMIT_MS;
    for (;;) {
      const [row] = await db.query<{ done: number; all: number }>(
        `select count(*) filter (where status in ('done', 'failed'))::int as done, count(*)::int as all from face_index_jobs where event_id = $1`,
        [eventId],
      );
      if ((row!.all >= foundAt.size && row!.done === row!.all) || Date.now() > deadline) break;
      await sleep(500);
    }
    trees.sample();
    cpuWithFaces = workersCpu() - cpuAtStart.workers;
    facesSeconds = (Date.now() - started) / 1000;
  }
  clearInterval(sampler);
  trees.sample();
  casing = false;
  await watchingBackends;
  const spent = (of: string) => trees.cpu(of) - (cpuAtStart.byLabel.get(of) ?? 0);
  const apiCpu = spent('API');
  const cpuByKind = new Map([...trees.cpuByKind('worker')].map(([kind, cpu]) => [kind, cpu - (cpuAtStart.byKind.get(kind) ?? 0)]));

  const extra: string[] = [];
  const killedNow = killed as { at: number; worker: WorkerProcess; children: number[] } | null;
  if (killedNow) {
    const orphans = killedNow.children.filter((pid) => fs.existsSync(`/proc/${pid}`) && !commandLineOf(pid).includes('esbuild'));
    extra.push(`worker 1 SIGKILLed; its model processes ${orphans.length === 0 ? 'ended by themselves' : `still running: ${orphans.join(', ')}`}`);
  }

  // Stopped as a deployment stops them: SIGTERM, the running jobs finish (there are none left now), exit 0.
  const exits: string[] = [];
  for (const [i, worker] of workers.entries()) {
    if (worker.alive()) worker.signal('SIGTERM');
    const exit = await Promise.race([worker.exited, sleep(90_000).then(() => null)]);
    exits.push(
      killedNow?.worker === worker ? `${i + 1}: SIGKILL` : `${i + 1}: ${exit ? (exit.code === null ? exit.signal : `exit ${exit.code}`) : 'did not stop'}`,
    );
    worker.killGroup();
  }

  const latencies = [...foundAt.entries()].map(([id, at]) => (at - finishedAt.get(id)!) / 1000).sort((a, b) => a - b);
  const memory = trees.labels().map((rootLabel) => {
    const processes = [...trees.seen.entries()].filter(([, entry]) => entry.root === rootLabel && entry.kind !== 'esbuild (tsx)');
    const parts = processes.map(([, entry]) => `${entry.kind} ${mb(entry.peakRss)} MB [${mb(entry.hwm)}]`);
    return `${rootLabel}: ${parts.join(', ')}; the tree at most ${mb(trees.treePeak(rootLabel))} MB at once`;
  });
  const seenApi = [...trees.seen.values()].find((entry) => entry.root === 'API' && entry.kind === 'API');
  const result: CaseResult = {
    label,
    workers: workerCount,
    photos: finishedAt.size,
    found: foundAt.size,
    misread: misread.size,
    failed: failed.size,
    seconds,
    cpuToSearchable,
    cpuWithFaces,
    apiCpu,
    databaseCpu: spent('PostgreSQL'),
    s3Cpu: spent('S3'),
    coresBusy,
    loadAtStart,
    p50: percentile(latencies, 50) ?? NaN,
    p95: percentile(latencies, 95) ?? NaN,
    facesSeconds,
    memory,
    apiPeak: seenApi?.peakRss ?? 0,
    largestWorkerTree: Math.max(...workerLabels.map((l) => trees.treePeak(l))),
    exits: exits.join(', '),
    cpuByKind,
    extra,
    once: await exactlyOnce(bench, eventId, [...finishedAt.keys()]),
  };
  console.log(
    `[${label}] uploaded in ${uploadSeconds.toFixed(1)} s; ${foundAt.size}/${PHOTOS} found by their BIB ${seconds.toFixed(1)} s after the first byte (${(foundAt.size / seconds).toFixed(2)} photos/s), ` +
      `${misread.size} misread, ${failed.size} failed; upload -> found p50 ${result.p50.toFixed(1)} s, p95 ${result.p95.toFixed(1)} s` +
      (facesSeconds !== null ? `; faces of all indexed ${facesSeconds.toFixed(1)} s after the first byte` : ''),
  );
  console.log(
    `[${label}] CPU per photo: workers and their model processes ${(cpuToSearchable / PHOTOS).toFixed(2)} s until searchable${cpuWithFaces !== null ? `, ${(cpuWithFaces / PHOTOS).toFixed(2)} s with the faces` : ''} (${[
      ...cpuByKind,
    ]
      .filter(([, cpu]) => cpu > 0.05)
      .map(([kind, cpu]) => `${kind} ${(cpu / PHOTOS).toFixed(2)}`)
      .join(
        ', ',
      )}); the API ${(apiCpu / PHOTOS).toFixed(2)} s, PostgreSQL ${(result.databaseCpu / PHOTOS).toFixed(2)} s, moto_server ${(result.s3Cpu / PHOTOS).toFixed(2)} s; the whole stack kept ${coresBusy.toFixed(2)} cores busy until the last photo was found`,
  );
  for (const line of [...memory, ...extra, `workers stopped: ${result.exits}`, result.once]) console.log(`[${label}] ${line}`);
  return result;
}

/** Every key in the bucket with its size. */
async function bucketObjects(s3: S3Client): Promise<Map<string, number>> {
  const objects = new Map<string, number>();
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, ContinuationToken: token }));
    for (const object of page.Contents ?? []) objects.set(object.Key!, object.Size ?? 0);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return objects;
}

/**
 * Whether every uploaded photo of the event was processed exactly once in effect, from the database
 * and the bucket: lost = an upload with no ready photo; processed twice = a photo with more than one
 * photo job, a BIB tag or face row stored twice (face rows beyond the count its face job recorded,
 * or more than one face job), or a rendition of it under another key than its own.
 */
async function exactlyOnce(bench: Bench, eventId: number, uploaded: number[]): Promise<string> {
  const rows = await bench.db.query<{
    id: number;
    status: string;
    image_id: string;
    preview_key: string;
    thumb_key: string;
    tags: number;
    distinct_tags: number;
    faces: number;
    face_count: number | null;
    face_jobs: number;
    face_attempts: number;
    photo_jobs: number;
    photo_retries: number;
    face_queue_jobs: number;
    face_queue_retries: number;
  }>(
    `select p.id, p.status, p.image_id, p.preview_key, p.thumb_key,
            (select count(*) from photo_bibs b where b.photo_id = p.id)::int as tags,
            (select count(distinct bib_number) from photo_bibs b where b.photo_id = p.id)::int as distinct_tags,
            (select count(*) from photo_faces f where f.photo_id = p.id)::int as faces,
            (select max(face_count) from face_index_jobs j where j.photo_id = p.id)::int as face_count,
            (select count(*) from face_index_jobs j where j.photo_id = p.id)::int as face_jobs,
            (select coalesce(sum(attempts), 0) from face_index_jobs j where j.photo_id = p.id)::int as face_attempts,
            (select count(*) from pgboss.job j where j.name = 'photo-process' and j.data->>'photoId' = p.id::text)::int as photo_jobs,
            (select coalesce(sum(retry_count), 0) from pgboss.job j where j.name = 'photo-process' and j.data->>'photoId' = p.id::text)::int as photo_retries,
            (select count(*) from pgboss.job j where j.name = 'face-index' and j.data->>'photoId' = p.id::text)::int as face_queue_jobs,
            (select coalesce(sum(retry_count), 0) from pgboss.job j where j.name = 'face-index' and j.data->>'photoId' = p.id::text)::int as face_queue_retries
       from photos p where p.event_id = $1`,
    [eventId],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const lost = uploaded.filter((id) => byId.get(id)?.status !== 'ready').length + rows.filter((row) => !uploaded.includes(row.id)).length;
  const objects = await bucketObjects(bench.s3);
  const renditionsOf = (row: (typeof rows)[number]) => [...objects.keys()].filter((key) => /^(previews|thumbs)\//.test(key) && key.includes(row.image_id));
  const twice = rows.filter((row) => {
    const renditions = renditionsOf(row);
    const ownRenditions = renditions.length === 2 && renditions.includes(row.preview_key) && renditions.includes(row.thumb_key);
    const facesOnce = !FACES || (row.face_jobs === 1 && row.faces === (row.face_count ?? 0));
    return row.photo_jobs !== 1 || row.tags !== row.distinct_tags || !facesOnce || !ownRenditions;
  });
  const staged = [...objects.keys()].filter((key) => !key.includes('/'));
  const sum = (values: number[]) => values.reduce((s, n) => s + n, 0);
  const faces = FACES
    ? `face rows ${sum(rows.map((r) => r.faces))}, recorded by the face jobs ${sum(rows.map((r) => r.face_count ?? 0))}, ` +
      `face attempts ${sum(rows.map((r) => r.face_attempts))} for ${sum(rows.map((r) => r.face_jobs))} photos' face records, ` +
      `${sum(rows.map((r) => r.face_queue_jobs))} face jobs on the queue with ${sum(rows.map((r) => r.face_queue_retries))} attempts retried; `
    : '';
  return (
    `lost ${lost}, processed twice ${twice.length} ` +
    `(${rows.length} photo rows for ${uploaded.length} uploads, ${rows.filter((r) => r.status === 'ready').length} ready; ` +
    `photo job attempts retried: ${sum(rows.map((r) => r.photo_retries))} (each retry took effect once); ` +
    `BIB tags ${sum(rows.map((r) => r.tags))} rows, ${sum(rows.map((r) => r.distinct_tags))} distinct; ` +
    faces +
    `renditions ${sum(rows.map((r) => renditionsOf(r).length))} objects for ${rows.length} photos; ${staged.length} upload objects left staged)`
  );
}

/** Rows and bytes per photo in the database and the bucket, over every photo the benchmark made. */
async function sizing(bench: Bench, databaseBytesBefore: number): Promise<string[]> {
  const { db } = bench;
  const [{ photos } = { photos: 0 }] = await db.query<{ photos: number }>(`select count(*)::int as photos from photos`);
  const tables = ['photos', 'photo_bibs', 'photo_faces', 'face_index_jobs'];
  const lines: string[] = [`Sizing, over the ${photos} photos of every case:`];
  for (const table of tables) {
    const [row] = await db.query<{ n: number; bytes: number; row_bytes: number | null }>(
      `select (select count(*) from ${table})::int as n, pg_total_relation_size('${table}')::bigint as bytes, (select avg(pg_column_size(t.*)) from ${table} t)::float8 as row_bytes`,
    );
    lines.push(
      `  ${table}: ${(row!.n / photos).toFixed(2)} rows per photo of ${Math.round(row!.row_bytes ?? 0)} bytes each on average; the table with its indexes and TOAST ${(Number(row!.bytes) / photos / 1024).toFixed(2)} KB per photo`,
    );
  }
  const jobs = await db.query<{ name: string; n: number; row_bytes: number }>(
    `select name, count(*)::int as n, avg(pg_column_size(j.*))::float8 as row_bytes from pgboss.job j group by name order by name`,
  );
  const [queueBytes] = await db.query<{ bytes: number }>(
    `select coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint as bytes from pg_class c join pg_namespace s on s.oid = c.relnamespace where s.nspname = 'pgboss' and c.relkind in ('r', 'm')`,
  );
  lines.push(
    `  pg-boss's job rows (kept after completion until pg-boss deletes them): ${jobs.map((job) => (['photo-process', 'face-index'].includes(job.name) ? `${job.name} ${(job.n / photos).toFixed(2)} per photo of ${Math.round(job.row_bytes)} bytes` : `${job.name} ${job.n}`)).join(', ')}; its schema ${mb(Number(queueBytes!.bytes))} MB in all`,
  );
  const [size] = await db.query<{ bytes: number }>(`select pg_database_size(current_database())::bigint as bytes`);
  lines.push(
    `  the whole database grew by ${((Number(size!.bytes) - databaseBytesBefore) / photos / 1024).toFixed(1)} KB per photo (${mb(Number(size!.bytes) - databaseBytesBefore)} MB for ${photos} photos; users, events and the queue's schedules included)`,
  );
  const objects = await bucketObjects(bench.s3);
  for (const prefix of ['originals/', 'previews/', 'thumbs/']) {
    const sizes = [...objects].filter(([key]) => key.startsWith(prefix)).map(([, bytes]) => bytes);
    lines.push(
      `  S3 ${prefix}: ${(sizes.length / photos).toFixed(2)} objects and ${(sizes.reduce((s, n) => s + n, 0) / photos / 1024 / 1024).toFixed(2)} MB per photo`,
    );
  }
  return lines;
}

async function main(): Promise<void> {
  if (!hasMoto) throw new Error('moto_server (the S3-compatible server the benchmark runs against) is not installed here.');
  await withBenchDatabase(SERVER, async ({ url: dbUrl, tmp }) => {
    const moto = await startMoto(BUCKET);
    let api: Awaited<ReturnType<typeof startApi>> | null = null;
    let db: Db | null = null;
    try {
      console.log(`Drawing ${SCENES} race photos (one runner each, a readable BIB) with the cameraPhotos CLI...`);
      const bibs = Array.from({ length: SCENES }, (_, i) => sceneBib(i));
      // 4000 x 2668 px with the CLI's sensor grain: about 2.9 MB, a camera JPEG of the partner terms' size.
      const files = renderCameraPhotos(path.join(tmp, 'scenes'), bibs, { width: 4000, eventCode: 'RD26', eventName: 'Race Day Marathon 2026' });
      const scenes = bibs.map((bib, i) => ({ bib, file: files[i]! }));
      const sizes = files.map((file) => fs.statSync(file).size);
      const common = {
        DATABASE_URL: dbUrl,
        S3_BUCKET: BUCKET,
        S3_REGION: 'us-east-1',
        S3_ENDPOINT: moto.endpoint,
        SIGNING_SECRET: crypto.randomBytes(32).toString('base64'),
        PARTNER_DATA_KEY: crypto.randomBytes(32).toString('base64'),
        MALLOC_ARENA_MAX: '2',
        // A photo job held by a killed worker comes back 20 s after its heartbeat stopped, looked for every 2 s.
        JOB_MONITOR_SECONDS: '2',
      };
      api = await startApi({ ...common, API_WORKS: 'false', DATA_DIR: path.join(tmp, 'api') });
      const benchUrl = new URL(dbUrl);
      benchUrl.searchParams.set('application_name', BENCH_APPLICATION);
      db = await openDb({ url: benchUrl.toString(), dataDir: null });
      const [{ bytes: databaseBytesBefore } = { bytes: 0 }] = await db.query<{ bytes: number }>(`select pg_database_size(current_database())::bigint as bytes`);
      const organiser = await createUser(db, {
        firstName: 'Race',
        lastName: 'Organiser',
        email: 'organiser@race-day.test',
        password: 'RaceDay#2026',
        isOrganiser: true,
      });
      const [server] = await db.query<{ version: string }>('select version()');
      const cpus = os.cpus();
      console.log(
        `Machine: ${cpus.length} x ${cpus[0]?.model ?? 'unknown CPU'}, ${mb(os.totalmem())} MB RAM, Node ${process.version}, ${server!.version.split(',')[0]}, moto_server as S3; load average ${load()}\n` +
          `Photos: ${PHOTOS} per case, ${SCENES} distinct runners, ${(Math.min(...sizes) / 1e6).toFixed(1)}-${(Math.max(...sizes) / 1e6).toFixed(1)} MB each; ${PHOTOGRAPHERS} photographers, ${PARALLEL} files at a time each, 1 MB tus chunks over loopback; ` +
          `faces ${FACES ? 'indexed (FACE_INDEX_PAUSE=0)' : 'off'}; each worker with the defaults SUPPLY_CONCURRENCY=${process.env.SUPPLY_CONCURRENCY ?? 2}, BIB_READER_PROCESSES=${process.env.BIB_READER_PROCESSES ?? 'default'}`,
      );
      const bench: Bench = {
        db,
        tmp,
        apiUrl: api.url,
        apiPid: api.child.pid!,
        motoPid: descendantsOf(process.pid).find((pid) => commandLineOf(pid).includes('moto_server')) ?? null,
        backends: [],
        s3: moto.s3,
        scenes,
        organiser,
        workerEnv: { ...common, FACE_INDEXING: String(FACES), FACE_INDEX_PAUSE: '0', WORKER_STOP_SECONDS: '60' },
      };
      const results: CaseResult[] = [];
      for (const n of WORKER_COUNTS) results.push(await runCase(bench, `N=${n}`, n, false));
      results.push(await runCase(bench, `kill, N=${KILL_WORKERS}`, KILL_WORKERS, true));

      console.log(
        `\nRace day: one API (API_WORKS=false) and N workers on ${os.cpus().length} cores, ${PHOTOS} photos per case (load average at the end ${load()})\n`,
      );
      console.log(
        `| workers | load at start | photos found | first byte to last found | photos/s | cores busy | CPU s/photo: workers + models, to searchable | with faces | API | PostgreSQL | moto_server | upload -> found p50 | p95 | peak RSS: API | largest worker with its model processes |`,
      );
      console.log(`|${'---|'.repeat(15)}`);
      for (const r of results) {
        const perPhoto = (cpu: number | null) => (cpu === null ? '-' : (cpu / PHOTOS).toFixed(2));
        console.log(
          `| ${r.label} | ${r.loadAtStart.toFixed(1)} | ${r.found}/${r.photos}${r.misread ? ` (${r.misread} misread)` : ''}${r.failed ? ` (${r.failed} failed)` : ''} | ${r.seconds.toFixed(0)} s | ${(r.found / r.seconds).toFixed(2)} | ${r.coresBusy.toFixed(2)} | ` +
            `${perPhoto(r.cpuToSearchable)} | ${perPhoto(r.cpuWithFaces)} | ${perPhoto(r.apiCpu)} | ${perPhoto(r.databaseCpu)} | ${perPhoto(r.s3Cpu)} | ${r.p50.toFixed(1)} s | ${r.p95.toFixed(1)} s | ${mb(r.apiPeak)} MB | ${mb(r.largestWorkerTree)} MB |`,
        );
      }
      console.log("\nPeak RSS of each process (500 ms samples; in brackets the kernel's high-water mark, for the API since its start):");
      for (const r of results) for (const line of r.memory) console.log(`  ${r.label}, ${line}`);
      console.log('\nExactly once, from SQL and the bucket:');
      for (const r of results) console.log(`  ${r.label}: ${r.once}`);
      for (const line of await sizing(bench, Number(databaseBytesBefore))) console.log(line);
    } finally {
      await db?.close();
      await api?.stop();
      await moto.stop();
    }
  });
}

runBench(main);
