import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { API_ROUTES, type ApiEnvelope, type BibSearchResult, type UploadReceipt } from '@finishline/shared/pure';
import { SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { freePort, hasMoto, startMoto, type MotoServer } from './support/motoServer';
import { startApiInstance, type ApiInstance } from './support/cluster';
import { databaseOn, onPgServer } from './support/pgServer';
import { receiptOf } from './support/tus';
import { commandLineOf, descendantsOf, renderCameraPhotos, startWorkerProcess, tusUploadInChunks, type WorkerProcess } from './support/raceDay';
import { withComment } from '../bench/benchSupport';
import { openDb, type Db } from '../src/db/db';
import { createSession, createUser } from '../src/features/accounts';

/**
 * The race-day split: one API process with API_WORKS=false (HTTP only) and one worker process
 * (api/src/worker.ts), both real entry points, on one fresh PostgreSQL database and one S3 bucket
 * (moto_server). A photographer uploads over tus through the API; the worker makes the photos ready
 * (renditions in the bucket, the BIB read by the real reader), so a runner's BIB search through the
 * API finds them. That the API did none of the work is shown three ways: a photo uploaded while no
 * worker runs stays processing and its job untaken (before the worker starts and after it stopped),
 * and the API never has a child process (the BIB reader runs in a child of whoever reads), while
 * the worker does. Then SIGTERM in the middle of a photo: the worker finishes it and exits 0 within
 * WORKER_STOP_SECONDS.
 *
 * Runs in the PostgreSQL pass (FINISHLINE_TEST_DB=postgres with TEST_DATABASE_URL) where moto_server
 * is installed; skipped, saying so, otherwise.
 */
const serverUrl = process.env.FINISHLINE_TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
if (!serverUrl) {
  process.stdout.write(
    'worker-role: skipped: the API-plus-worker processes test runs in the pass with FINISHLINE_TEST_DB=postgres and TEST_DATABASE_URL set.\n',
  );
} else if (!hasMoto) {
  process.stdout.write('worker-role: skipped: moto_server (the S3-compatible server it runs against) is not installed here.\n');
}
const describeOnServer = serverUrl && hasMoto ? describe : describe.skip;

const BUCKET = 'finishline-worker-role';
/** The worker's grace on SIGTERM (WORKER_STOP_SECONDS): far above a photo's processing time. */
const STOP_GRACE_SECONDS = 30;
/** How long a photo is given to be taken up by a process that works the queue (it polls every 0.5 s, and is woken by NOTIFY). */
const UNTAKEN_FOR_MS = 4000;
const BIBS = ['WR1041', 'WR2752', 'WR3318', 'WR4480'];

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, limitMs: number, everyMs = 250): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${limitMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

describeOnServer('the worker role: an API with API_WORKS=false and a worker process on one database and one bucket', () => {
  const name = `worker_role_${crypto.randomBytes(5).toString('hex')}`;
  // Made in beforeAll: a skipped suite's body still runs, and would leave the folder behind.
  let tmp = '';
  let db: Db | undefined;
  let moto: MotoServer | undefined;
  let api: ApiInstance | undefined;
  let worker: WorkerProcess | undefined;
  let env: Record<string, string>;
  let eventId: number;
  let token: string;
  let files: Buffer[];
  /** Every Node process seen below the API and below the worker (the model processes), sampled from /proc while the test runs. */
  const seenBelow = { api: new Map<number, string>(), worker: new Map<number, string>() };
  let sampler: NodeJS.Timeout | undefined;

  const jobOf = async (photoId: number) =>
    (
      await db!.query<{ state: string; started_on: Date | null }>(
        `select state, started_on from pgboss.job where name = 'photo-process' and data->>'photoId' = $1`,
        [String(photoId)],
      )
    )[0];
  const statusOf = async (photoId: number) => (await db!.query<{ status: string }>('select status from photos where id = $1', [photoId]))[0]?.status;

  async function upload(file: Buffer, filename: string): Promise<UploadReceipt> {
    const answer = await tusUploadInChunks(`${api!.url}${API_ROUTES.partnerUploads}`, token, file, {
      eventId: String(eventId),
      filename,
      filetype: 'image/jpeg',
    });
    return receiptOf(answer);
  }

  async function search(bib: string): Promise<number[]> {
    const res = await fetch(`${api!.url}${API_ROUTES.searchByBib}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ eventID: eventId, bibNumber: bib }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as ApiEnvelope<BibSearchResult>).result.photo.map((photo) => photo.id);
  }

  /** A photo sent while no process works the queue but the API: after UNTAKEN_FOR_MS it is still processing and its job still waits, never started. */
  async function expectUntaken(receipt: UploadReceipt): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, UNTAKEN_FOR_MS));
    expect(await statusOf(receipt.photoId)).toBe('processing');
    expect(await jobOf(receipt.photoId)).toEqual({ state: 'created', started_on: null });
  }

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-worker-role-'));
    await onPgServer(serverUrl!, `create database ${name}`);
    const dbUrl = databaseOn(serverUrl!, name);
    moto = await startMoto(BUCKET);
    const port = await freePort();
    env = {
      DATABASE_URL: dbUrl,
      DB_POOL_SIZE: '4',
      S3_BUCKET: BUCKET,
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: moto.endpoint,
      PUBLIC_API_URL: `http://127.0.0.1:${port}`,
      // One deployment: both processes hold the same secrets.
      SIGNING_SECRET: crypto.randomBytes(32).toString('base64'),
      PARTNER_DATA_KEY: crypto.randomBytes(32).toString('base64'),
      SEED_ON_START: 'false',
      LOG_LEVEL: 'warn',
      MALLOC_ARENA_MAX: '2',
    };
    api = await startApiInstance('api', port, { ...env, API_WORKS: 'false', DATA_DIR: path.join(tmp, 'api') });
    sampler = setInterval(() => {
      for (const [role, pid] of [
        ['api', api?.pid],
        ['worker', worker?.alive() ? worker.pid : undefined],
      ] as const) {
        if (!pid) continue;
        // Node processes only: tsx's esbuild service runs below both, compiling the sources.
        for (const child of descendantsOf(pid)) {
          const command = seenBelow[role].get(child) || commandLineOf(child);
          if (command.startsWith(process.execPath)) seenBelow[role].set(child, command);
        }
      }
    }, 200);
    db = await openDb({ url: dbUrl, dataDir: null });
    const organiser = await createUser(db, { firstName: 'Org', lastName: 'Role', email: 'org@worker-role.test', password: 'Secret#2026', isOrganiser: true });
    const partner = await createUser(db, { firstName: 'Pat', lastName: 'Role', email: 'pat@worker-role.test', password: 'Secret#2026', isPartner: true });
    const [event] = await db.query<{ id: number }>(
      `insert into events (name, from_date, to_date, issearchable, showunlabeled, organiser_user_id, bib_pattern) values ('Worker Role Run 2026', '2026-10-04', '2026-10-04', true, true, $1, '^WR[0-9]{4}$') returning id`,
      [organiser],
    );
    eventId = event!.id;
    await db.query(`insert into event_partners (event_id, user_id, status) values ($1, $2, 'approved')`, [eventId, partner]);
    token = (await createSession(db, partner)).token;
    // Four photos at 2000 px, and one of camera size (3200 px, 3-4 MB: long enough to stop the worker in the middle of it).
    const small = renderCameraPhotos(path.join(tmp, 'photos'), BIBS, { width: 2000, eventCode: 'WR26', eventName: 'Worker Role Run 2026' });
    const [large] = renderCameraPhotos(path.join(tmp, 'large'), ['WR5126'], { eventCode: 'WR26', eventName: 'Worker Role Run 2026' });
    files = [...small, large!].map((file) => fs.readFileSync(file));
  }, SET_UP_TIMEOUT_MS);

  afterAll(async () => {
    clearInterval(sampler);
    worker?.killGroup();
    api?.kill();
    await Promise.all([worker?.exited, api?.exited]);
    await db?.close();
    await moto?.stop();
    await onPgServer(serverUrl!, `drop database if exists ${name} with (force)`);
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }, TEAR_DOWN_TIMEOUT_MS);

  const receipts: UploadReceipt[] = [];

  it('with the API alone, an uploaded photo stays processing and its job is never taken', async () => {
    receipts.push(await upload(files[0]!, 'IMG_0.jpg'));
    expect(receipts[0]).toMatchObject({ duplicate: false, status: 'processing' });
    await expectUntaken(receipts[0]!);
  }, 60_000);

  it('the worker makes every photo ready: found by its BIB through the API, its renditions in the bucket; the API has no model process', async () => {
    worker = await startWorkerProcess({
      ...env,
      DATA_DIR: path.join(tmp, 'worker'),
      FACE_INDEXING: 'false',
      SUPPLY_CONCURRENCY: '1',
      BIB_READER_PROCESSES: '1',
      WORKER_STOP_SECONDS: String(STOP_GRACE_SECONDS),
    });
    expect(worker.output()).toMatch(new RegExp(`worker ${worker.pid}: working photos`));
    for (const [i, file] of files.slice(1, BIBS.length).entries()) receipts.push(await upload(file, `IMG_${i + 1}.jpg`));

    for (const receipt of receipts) await waitFor(`photo ${receipt.photoId} ready`, async () => (await statusOf(receipt.photoId)) === 'ready', 120_000);
    for (const [i, receipt] of receipts.entries()) {
      // The BIB the worker's reader read is the runner's, and the API's BIB search finds the photo by it.
      const tags = await db!.query<{ bib_number: string; source: string }>('select bib_number, source from photo_bibs where photo_id = $1', [receipt.photoId]);
      expect({ photo: i, tags }).toEqual({ photo: i, tags: [{ bib_number: BIBS[i], source: 'ocr' }] });
      expect(await search(BIBS[i]!)).toEqual([receipt.photoId]);
      const [row] = await db!.query<{ original_key: string; preview_key: string; thumb_key: string }>(
        'select original_key, preview_key, thumb_key from photos where id = $1',
        [receipt.photoId],
      );
      for (const key of [row!.original_key, row!.preview_key, row!.thumb_key]) {
        const head = await moto!.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
        expect(head.ContentLength).toBeGreaterThan(1000);
      }
      expect(await jobOf(receipt.photoId)).toMatchObject({ state: 'completed' });
    }
    // BIBs are read in a child process of the process that works the photo: the worker has had one, the API never any.
    expect([...seenBelow.worker.values()].length).toBeGreaterThan(0);
    expect([...seenBelow.api.entries()]).toEqual([]);
  }, 240_000);

  it('on SIGTERM in the middle of a photo the worker finishes it and exits 0 within WORKER_STOP_SECONDS; then the API still takes no job', async () => {
    const receipt = await upload(files[BIBS.length]!, 'IMG_large.jpg');
    await waitFor(`photo ${receipt.photoId} being worked`, async () => (await jobOf(receipt.photoId))?.state === 'active', 60_000, 20);
    const signalled = Date.now();
    worker!.signal('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      worker!.exited,
      new Promise<'still running'>((resolve) => (timer = setTimeout(() => resolve('still running'), STOP_GRACE_SECONDS * 1000))),
    ]);
    clearTimeout(timer);
    const seconds = (Date.now() - signalled) / 1000;
    expect({ exit, output: exit === 'still running' || exit.code !== 0 ? worker!.output() : '' }).toEqual({ exit: { code: 0, signal: null }, output: '' });
    expect(seconds).toBeLessThan(STOP_GRACE_SECONDS);
    // It finished the photo (no job was handed back), and nothing else could have: the API works no queue.
    expect(worker!.output()).toContain(`worker ${worker!.pid}: stopped`);
    expect(await statusOf(receipt.photoId)).toBe('ready');
    expect(await jobOf(receipt.photoId)).toMatchObject({ state: 'completed' });
    expect(await search('WR5126')).toEqual([receipt.photoId]);
    // Its reader process went with it.
    await waitFor("the worker's model processes gone", async () => [...seenBelow.worker.keys()].every((pid) => !fs.existsSync(`/proc/${pid}`)), 10_000);

    const after = await upload(files[0]!, 'IMG_again.jpg');
    // The same file again is the earlier photo (by its SHA-256); a new one is needed to see the queue.
    expect(after.duplicate).toBe(true);
    const fresh = await upload(withComment(files[1]!, 'sent again'), 'IMG_fresh.jpg');
    expect(fresh.duplicate).toBe(false);
    await expectUntaken(fresh);
    expect([...seenBelow.api.entries()]).toEqual([]);
    process.stdout.write(
      `worker-role: SIGTERM in the middle of photo ${receipt.photoId}: it was finished and the worker exited 0 after ${seconds.toFixed(1)} s (grace ${STOP_GRACE_SECONDS} s); the worker's model process(es): ${[...seenBelow.worker.values()].join('; ')}\n`,
    );
  }, 180_000);
});
