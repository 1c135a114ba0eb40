import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { API_ROUTES, FACE_CONSENT_VERSION, SELFIE_MESSAGES, type BibSearchResult, type FaceIndexStatus } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { addEventPhoto, createSelfieEvent, loadFaceSet, renderScene, renderSelfie, seededRandom } from '../bench/faceScenes';
import { closeFaceDetector } from '../src/models/faces/detector';
import { startFaceIndexer } from '../src/pipeline/faces';
import { NO_FACE_MESSAGE, TOO_LARGE_MESSAGE, WRONG_TYPE_MESSAGE } from '../src/features/faces/selfieSearch';

/** Selfie search through real HTTP, and the indexing job's progress, retries and resume. */
const faceSet = loadFaceSet();

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}

describe('selfie search API and face indexing', () => {
  let t: TestApp;
  let eventId: number;
  /** Scenes with the first four people of the face set; the fifth person is in none. */
  const scenePhotoIds: number[] = [];
  let faceFreePhotoId: number;
  let ipCounter = 0;
  /** Each test speaks from its own address, so the per-address rate limit stays out of the way. */
  const from = () => ({ 'x-forwarded-for': `10.9.0.${++ipCounter}` });

  beforeAll(async () => {
    // As behind a proxy on this machine (TRUST_PROXY=127.0.0.1), so each test can name its client's address.
    t = await startTestApp({ trustProxy: ['127.0.0.1'] });
    eventId = await createSelfieEvent(t.ctx.db, 'Selfie API Run 2026');
    const random = seededRandom(7);
    faceFreePhotoId = await addEventPhoto(t.ctx.db, t.ctx.storage, eventId, 'SA-00001', await renderScene([], random));
    if (faceSet) {
      const people = [...new Set(faceSet.map((f) => f.person))].slice(0, 4);
      for (let j = 0; j < 5; j += 1) {
        const faces = people.map((person) => faceSet.filter((f) => f.person === person)[j]!.image);
        scenePhotoIds.push(await addEventPhoto(t.ctx.db, t.ctx.storage, eventId, `SA-S${j}`, await renderScene(faces, random)));
      }
    }
  }, SET_UP_TIMEOUT_MS);

  afterAll(() => closeAll({ close: closeFaceDetector }, t), TEAR_DOWN_TIMEOUT_MS);

  it('indexes queued photos in the background and reports progress', async () => {
    const before = await t.request<FaceIndexStatus>('GET', `${API_ROUTES.faceIndexStatus}?eventId=${eventId}`);
    expect(before.status).toBe(200);
    expect(before.body.result.done).toBe(0);

    const indexer = startFaceIndexer({ db: t.ctx.db, storage: t.ctx.storage });
    await indexer.whenIdle();
    await indexer.stop();

    const after = await t.request<FaceIndexStatus>('GET', `${API_ROUTES.faceIndexStatus}?eventId=${eventId}`);
    const photos = 1 + scenePhotoIds.length;
    expect(after.body.result).toMatchObject({ eventId, total: photos, done: photos, pending: 0, failed: 0, percent: 100 });
    const faces = await t.ctx.db.query<{ photo_id: number; n: number }>(
      'select photo_id, count(*)::int as n from photo_faces where event_id = $1 group by photo_id',
      [eventId],
    );
    expect(faces.find((f) => f.photo_id === faceFreePhotoId)).toBeUndefined();
    for (const id of scenePhotoIds) expect(faces.find((f) => f.photo_id === id)?.n).toBe(4);
  }, 300_000);

  it('resumes a job left running by a stopped process and gives up on a photo that cannot be read', async () => {
    const random = seededRandom(11);
    const interrupted = await addEventPhoto(t.ctx.db, t.ctx.storage, eventId, 'SA-00003', await renderScene([], random));
    // As if another process claimed it and died, and the queue has since given its job up: running, held by a job that is gone.
    await t.ctx.db.query(
      `insert into face_index_jobs (photo_id, event_id, status, attempts, claim_job, claim_retry) values ($1, $2, 'running', 1, '6d1f7e0c-3b9a-4c52-9a41-2f0d8c1e5b77', 0)`,
      [interrupted, eventId],
    );
    const broken = await addEventPhoto(t.ctx.db, t.ctx.storage, eventId, 'SA-00004', await renderScene([], random));
    await t.ctx.db.query(`update photos set original_key = 'originals/missing/nothing.jpg' where id = $1`, [broken]);

    const indexer = startFaceIndexer({ db: t.ctx.db, storage: t.ctx.storage });
    await indexer.whenIdle();
    await indexer.stop();

    const jobs = await t.ctx.db.query<{ photo_id: number; status: string; attempts: number; error: string | null }>(
      'select photo_id, status, attempts, error from face_index_jobs where photo_id = any($1::int[]) order by photo_id',
      [[interrupted, broken]],
    );
    expect(jobs[0]).toMatchObject({ photo_id: interrupted, status: 'done', attempts: 2 });
    expect(jobs[1]).toMatchObject({ photo_id: broken, status: 'failed', attempts: 3 });
    expect(jobs[1]!.error).toBeTruthy();
  }, 300_000);

  it('refuses what is not a JPG or PNG selfie of at most 2 MB', async () => {
    const missing = await t.request('POST', API_ROUTES.searchBySelfie, { consentVersion: FACE_CONSENT_VERSION, eventID: eventId }, from());
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ StatusCode: 400, HasError: true, Message: 'Please capture or upload a selfie.' });

    const gif = Buffer.from('GIF89a....not a selfie').toString('base64');
    const wrongType = await t.request('POST', API_ROUTES.searchBySelfie, { consentVersion: FACE_CONSENT_VERSION, eventID: eventId, selfieimg: gif }, from());
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.Message).toBe(WRONG_TYPE_MESSAGE);

    // A real JPEG just over 2 MB (noise does not compress).
    const noise = Buffer.alloc(1400 * 1400 * 3);
    for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 2654435761) >>> 24;
    const big = await sharp(noise, { raw: { width: 1400, height: 1400, channels: 3 } })
      .jpeg({ quality: 100 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(2 * 1024 * 1024);
    const tooLarge = await t.request(
      'POST',
      API_ROUTES.searchBySelfie,
      { consentVersion: FACE_CONSENT_VERSION, eventID: eventId, selfieimg: `data:image/jpeg;base64,${big.toString('base64')}` },
      from(),
    );
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.Message).toBe(TOO_LARGE_MESSAGE);
  });

  it('refuses events without selfie search', async () => {
    const rows = await t.ctx.db.query<{ id: number }>(
      `insert into events (name, from_date, to_date, issearchable, selfiesearch) values ('No Selfie Run', date '2026-01-01', date '2026-01-01', true, false) returning id`,
    );
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    const res = await t.request(
      'POST',
      API_ROUTES.searchBySelfie,
      { consentVersion: FACE_CONSENT_VERSION, eventID: rows[0]!.id, selfieimg: png.toString('base64') },
      from(),
    );
    expect(res.status).toBe(400);
    expect(res.body.Message).toBe('Search by selfie is not available for No Selfie Run.');
  });

  it('warns when the selfie shows no face, and stores nothing of it', async () => {
    const objectsDir = path.join(t.ctx.config.dataDir, 'objects');
    const filesBefore = filesUnder(objectsDir).length;
    const noFace = await sharp(await renderScene([], seededRandom(3)))
      .png()
      .toBuffer();
    const res = await t.request<null>(
      'POST',
      API_ROUTES.searchBySelfie,
      { consentVersion: FACE_CONSENT_VERSION, eventID: eventId, selfieimg: `data:image/png;base64,${noFace.toString('base64')}` },
      from(),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ HasError: true, Message: NO_FACE_MESSAGE, result: null });
    expect(filesUnder(objectsDir).length).toBe(filesBefore);
  }, 60_000);

  (faceSet ? it : it.skip)(
    'finds the photo of the person in the selfie, with the search expiry',
    async () => {
      const person = faceSet!.filter((f) => f.person === faceSet![0]!.person);
      const selfie = await renderSelfie(person[0]!.image, 'png');
      const res = await t.request<BibSearchResult>(
        'POST',
        API_ROUTES.searchBySelfie,
        { consentVersion: FACE_CONSENT_VERSION, eventID: eventId, selfieimg: selfie.toString('base64') },
        from(),
      );
      expect(res.status).toBe(200);
      const body = res.body as typeof res.body & { awsImageExpary: string };
      expect(body.result.bibNumber).toBe('selfie');
      const found = body.result.photo.map((p) => p.id);
      // The person is in every scene; the scene built from this very photo comes first.
      expect(found[0]).toBe(scenePhotoIds[0]);
      expect(found.length).toBeGreaterThanOrEqual(4);
      expect(found.every((id) => scenePhotoIds.includes(id))).toBe(true);
      expect(body.result.photo[0]!.s3).toContain('sig=');
      expect(body.awsImageExpary).toBe(body.result.awsImageExpary);
      expect(new Date(body.awsImageExpary).getTime()).toBeGreaterThan(Date.now());

      // Someone else's face finds nothing: a warning, not someone else's photos.
      const absent = [...new Set(faceSet!.map((f) => f.person))][4]!;
      const other = faceSet!.find((f) => f.person === absent)!;
      const miss = await t.request(
        'POST',
        API_ROUTES.searchBySelfie,
        { consentVersion: FACE_CONSENT_VERSION, eventID: eventId, selfieimg: (await renderSelfie(other.image)).toString('base64') },
        from(),
      );
      expect(miss.status).toBe(404);
      expect(miss.body.Message).toBe('No photos of you were found in Selfie API Run 2026. Try another selfie, or search by your BIB number.');
    },
    60_000,
  );

  (faceSet ? it : it.skip)(
    'keeps nothing of the selfie after a successful search, in storage or in the database',
    async () => {
      const objectsDir = path.join(t.ctx.config.dataDir, 'objects');
      /** Row counts of every table but the request counters, which count the search itself. */
      // The funnel marks that a visitor's search found photos (a search session or an address hash, nothing of the image).
      const rowCounts = async () => {
        const tables = await t.ctx.db.query<{ table_name: string }>(
          `select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'
            and table_name not in ('rate_limit_hits', 'event_funnel_marks', 'event_funnel_counts') order by table_name`,
        );
        const counts: Record<string, number> = {};
        for (const { table_name } of tables) counts[table_name] = (await t.ctx.db.query<{ n: number }>(`select count(*)::int as n from "${table_name}"`))[0]!.n;
        return counts;
      };
      const filesBefore = filesUnder(objectsDir).sort();
      const rowsBefore = await rowCounts();
      const selfie = await renderSelfie(faceSet![0]!.image, 'png');
      const res = await t.request<BibSearchResult>(
        'POST',
        API_ROUTES.searchBySelfie,
        { consentVersion: FACE_CONSENT_VERSION, eventID: eventId, selfieimg: selfie.toString('base64') },
        from(),
      );
      expect(res.status).toBe(200);
      expect(filesUnder(objectsDir).sort()).toEqual(filesBefore);
      expect(await rowCounts()).toEqual(rowsBefore);
    },
    60_000,
  );

  (faceSet ? it : it.skip)(
    'leaves out photos of a privacy-checked BIB the session has not verified by OTP',
    async () => {
      await t.ctx.db.query(`insert into photo_bibs (photo_id, event_id, bib_number) select id, event_id, 'SA1' from photos where id = any($1::int[])`, [
        scenePhotoIds,
      ]);
      await t.ctx.db.query('update events set privacy_check = true where id = $1', [eventId]);
      try {
        const selfie = await renderSelfie(faceSet![0]!.image, 'png');
        const res = await t.request(
          'POST',
          API_ROUTES.searchBySelfie,
          { consentVersion: FACE_CONSENT_VERSION, eventID: eventId, selfieimg: selfie.toString('base64') },
          from(),
        );
        expect(res.status).toBe(403);
        expect(res.body.Message).toBe('Please verify the OTP sent to the participant to see these photos.');
      } finally {
        await t.ctx.db.query('update events set privacy_check = false where id = $1', [eventId]);
        await t.ctx.db.query('delete from photo_bibs where photo_id = any($1::int[])', [scenePhotoIds]);
      }
    },
    60_000,
  );

  it('adds a photo through the development route and indexes its faces before answering, with no worker running', async () => {
    const scene = await renderScene(faceSet ? [faceSet[0]!.image] : [], seededRandom(5));
    const res = await t.request<{ photoId: number; imageId: string; faces: number }>('POST', API_ROUTES.devEventPhoto, {
      eventID: eventId,
      image: scene.toString('base64'),
    });
    expect(res.status).toBe(200);
    expect(res.body.result.faces).toBe(faceSet ? 1 : 0);
    const job = await t.ctx.db.query<{ status: string; priority: number }>('select status, priority from face_index_jobs where photo_id = $1', [
      res.body.result.photoId,
    ]);
    expect(job).toEqual([{ status: 'done', priority: 1 }]);
    const stored = await t.ctx.db.query<{ n: number }>('select count(*)::int as n from photo_faces where photo_id = $1', [res.body.result.photoId]);
    expect(stored[0]!.n).toBe(res.body.result.faces);

    // An event without search by selfie indexes no faces: the route says so and adds nothing.
    const plainEventId = await createSelfieEvent(t.ctx.db, 'No Selfie Run 2026');
    await t.ctx.db.query('update events set selfiesearch = false where id = $1', [plainEventId]);
    const refused = await t.request<unknown>('POST', API_ROUTES.devEventPhoto, { eventID: plainEventId, image: scene.toString('base64') });
    expect({ status: refused.status, message: refused.body.Message }).toEqual({
      status: 400,
      message: 'This event does not offer search by selfie: its photos are not face-indexed.',
    });
    expect((await t.ctx.db.query('select 1 from photos where event_id = $1', [plainEventId])).length).toBe(0);
  }, 300_000);

  it('counts a selfie search against the device only once its input is good (finding 1)', async () => {
    // No session token: the address stands in for the device (faces-consent-limits.test.ts has the sessions).
    const { selfieSearchesPerSession: limit } = t.ctx.config.security;
    const headers = { 'x-forwarded-for': '10.9.9.9' };
    // Bad requests, more than the allowance: each answered for what it is, none counted.
    for (let i = 0; i < limit + 2; i += 1) {
      const missing = await t.request('POST', API_ROUTES.searchBySelfie, { consentVersion: FACE_CONSENT_VERSION, eventID: eventId }, headers);
      expect({ status: missing.status, message: missing.body.Message }).toEqual({ status: 400, message: 'Please capture or upload a selfie.' });
    }
    const gif = Buffer.from('GIF89a....not a selfie').toString('base64');
    const wrongType = await t.request('POST', API_ROUTES.searchBySelfie, { consentVersion: FACE_CONSENT_VERSION, eventID: eventId, selfieimg: gif }, headers);
    expect(wrongType.status).toBe(400);
    // Good input is counted (a faceless image still costs a detection): the allowance, then a captcha.
    const blank = (
      await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } })
        .png()
        .toBuffer()
    ).toString('base64');
    for (let i = 0; i < limit; i += 1) {
      const res = await t.request('POST', API_ROUTES.searchBySelfie, { consentVersion: FACE_CONSENT_VERSION, eventID: eventId, selfieimg: blank }, headers);
      expect({ status: res.status, message: res.body.Message }).toEqual({ status: 400, message: NO_FACE_MESSAGE });
    }
    const refused = await t.request('POST', API_ROUTES.searchBySelfie, { consentVersion: FACE_CONSENT_VERSION, eventID: eventId, selfieimg: blank }, headers);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ Message: SELFIE_MESSAGES.captchaNeeded, result: { captcha: 'standard' } });
    // Another address still searches.
    const other = await t.request(
      'POST',
      API_ROUTES.searchBySelfie,
      { consentVersion: FACE_CONSENT_VERSION, eventID: eventId, selfieimg: blank },
      { 'x-forwarded-for': '10.9.9.10' },
    );
    expect(other.status).toBe(400);
  }, 300_000);
});
