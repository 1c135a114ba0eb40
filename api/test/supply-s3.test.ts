import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { API_ROUTES } from '@finishline/shared/pure';
import { closeAll, SET_UP_TIMEOUT_MS, startTestApp, TEAR_DOWN_TIMEOUT_MS, type TestApp } from './support/testApp';
import { receiptOf, tusCreate, tusOffset, tusPatch, tusUpload } from './support/tus';
import { hasMoto, motoSkipNotice, startMoto, type MotoServer } from './support/motoServer';
import { createSession, createUser } from '../src/features/accounts';
import { startSupplyWorker, type SupplyWorker } from '../src/pipeline/photos';
import { acquireJobQueue } from '../src/queue/jobQueue';
import { cameraPhoto } from '../src/seed/cameraPhoto';

/**
 * The supply line with S3 object storage: the original goes to the bucket privately, the job reads
 * it back from there and writes the renditions beside it. Runs against moto_server, started here on
 * a free loopback port; skipped, saying so, where moto_server is not installed.
 */
motoSkipNotice('supply-s3', 'the S3 path of the supply line');
const describeWithMoto = hasMoto ? describe : describe.skip;

describeWithMoto('photo supply on S3 storage (moto_server)', () => {
  let moto: MotoServer | undefined;
  let t: TestApp;
  let worker: SupplyWorker;
  let release: () => Promise<void>;
  let s3: S3Client;
  const bucket = 'finishline-supply-test';

  beforeAll(async () => {
    moto = await startMoto(bucket);
    s3 = moto.s3;
    t = await startTestApp({ storage: { kind: 's3', bucket, region: 'us-east-1', endpoint: moto.endpoint } });
    const acquired = await acquireJobQueue(t.ctx.db);
    release = acquired.release;
    worker = await startSupplyWorker(t.ctx, acquired.queue, { reader: null, concurrency: 1 });
  }, SET_UP_TIMEOUT_MS);

  afterAll(async () => {
    await worker?.stop();
    await release?.();
    await closeAll(t);
    await moto?.stop();
  }, TEAR_DOWN_TIMEOUT_MS);

  it('keeps the original in the bucket, makes the renditions from it and shows the photo as unlabeled', async () => {
    const db = t.ctx.db;
    const organiser = await createUser(db, { firstName: 'Org', lastName: 'S3', email: 'org@s3.test', password: 'Secret#2026', isOrganiser: true });
    const partner = await createUser(db, { firstName: 'Pat', lastName: 'S3', email: 'pat@s3.test', password: 'Secret#2026', isPartner: true });
    const [event] = await db.query<{ id: number }>(
      `insert into events (name, from_date, to_date, issearchable, showunlabeled, organiser_user_id) values ('S3 Run 2026', '2026-10-04', '2026-10-04', true, true, $1) returning id`,
      [organiser],
    );
    await db.query(`insert into event_partners (event_id, user_id, status) values ($1, $2, 'approved')`, [event!.id, partner]);
    const token = (await createSession(db, partner)).token;

    const file = await cameraPhoto({ bib: null, seed: 's3', width: 1600, grain: 4 });
    const answer = await tusUpload(`${t.url}${API_ROUTES.partnerUploads}`, token, file, {
      eventId: String(event!.id),
      filename: 'IMG_1.jpg',
      filetype: 'image/jpeg',
    });
    expect(answer.status).toBe(204);
    const { photoId } = receiptOf(answer);
    const deadline = Date.now() + 60_000;
    let row: { status: string; original_key: string; preview_key: string; thumb_key: string } | undefined;
    while (Date.now() < deadline) {
      [row] = await db.query<{ status: string; original_key: string; preview_key: string; thumb_key: string }>(
        'select status, original_key, preview_key, thumb_key from photos where id = $1',
        [photoId],
      );
      if (row?.status !== 'processing') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(row?.status).toBe('ready');
    for (const key of [row!.original_key, row!.preview_key, row!.thumb_key]) {
      const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      expect(head.ContentLength).toBeGreaterThan(1000);
    }
    const original = await t.ctx.storage.getBuffer(row!.original_key);
    expect(original.equals(file)).toBe(true);
    expect((await sharp(await t.ctx.storage.getBuffer(row!.thumb_key)).metadata()).width).toBe(400);
  }, 120_000);

  it('stages a half-sent upload in the bucket (any instance can continue it) and removes the staged objects once the photo is made', async () => {
    const db = t.ctx.db;
    const [event] = await db.query<{ id: number }>(`select id from events where name = 'S3 Run 2026'`);
    const [partner] = await db.query<{ id: number }>(`select id from users where email = 'pat@s3.test'`);
    const token = (await createSession(db, partner!.id)).token;
    const file = await cameraPhoto({ bib: null, seed: 's3-staged', width: 1200, grain: 4 });
    const endpoint = `${t.url}${API_ROUTES.partnerUploads}`;
    const created = await tusCreate(endpoint, token, file.length, { eventId: String(event!.id), filename: 'IMG_2.jpg', filetype: 'image/jpeg' });
    expect(created.status).toBe(201);
    const id = created.location!.split('/').pop()!;
    const half = Math.floor(file.length / 2);
    expect((await tusPatch(created.location!, token, 0, file.subarray(0, half))).status).toBe(204);
    const keys = async () =>
      ((await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((o) => o.Key!).filter((key) => key.startsWith(id));
    // Half-way, the upload lives in the bucket, not in this process's data folder.
    expect((await keys()).sort()).toEqual([`${id}.info`, `${id}.part`]);
    expect(await tusOffset(created.location!, token)).toEqual({ status: 200, offset: half });
    const last = await tusPatch(created.location!, token, half, file.subarray(half));
    expect(last.status).toBe(204);
    const { photoId } = receiptOf(last);
    const [row] = await db.query<{ original_key: string }>('select original_key from photos where id = $1', [photoId]);
    expect((await t.ctx.storage.getBuffer(row!.original_key)).equals(file)).toBe(true);
    expect(await keys()).toEqual([]);
  }, 120_000);
});
