import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { FACE_DESCRIPTOR_LENGTH } from '@finishline/shared/pure';
import { closeAll, SET_UP_TIMEOUT_MS, startTestApp, TEAR_DOWN_TIMEOUT_MS, type TestApp } from './support/testApp';
import { addEventPhoto, createSelfieEvent } from '../bench/faceScenes';
import type { FaceDetector } from '../src/models/faces/detector';
import type { DetectedFace } from '../src/models/faces/engine';
import { dispatchFaceJobs, startFaceIndexer, type FaceIndexer } from '../src/pipeline/faces';
import { defineFaceQueue, FACE_MAX_ATTEMPTS, FACE_QUEUE } from '../src/queue/queues';
import { faceIndexStatus, queuePhotosForFaces } from '../src/features/faces/faceJobs';
import { acquireJobQueue, type JobQueue } from '../src/queue/jobQueue';

/**
 * A face job done twice changes nothing: the same photo's job delivered several times to two
 * workers at once leaves one set of faces (and is analysed once), and a slow attempt whose claim was
 * taken over (the queue gave its job up, or the photo was queued again) saves nothing over the newer work.
 * Also the head start that photos being read for BIBs get over the backlog.
 * A stand-in detector returns fixed faces, so the test is about the job, not the model.
 */

function facesScored(score: number): DetectedFace[] {
  return [0, 1].map((i) => ({
    box: [10 + i * 100, 10, 80, 80],
    score,
    descriptor: Array.from({ length: FACE_DESCRIPTOR_LENGTH }, (_, k) => ((k + i) % 7) / 10),
    quality: { size: 80, brightness: 0.5, sharpness: 0.01, flatness: 0, yaw: 0, eyeLight: 0.6 },
  }));
}

/** A detector whose calls are counted; `gate` (when set) holds the next call until it is released. */
function standInDetector() {
  const state = { calls: 0, gate: null as null | { started: () => void; release: Promise<void> }, score: 0.8 };
  const detector = {
    async detect(): Promise<DetectedFace[]> {
      state.calls += 1;
      const gate = state.gate;
      if (gate) {
        state.gate = null;
        gate.started();
        await gate.release;
        return facesScored(0.9);
      }
      return facesScored(state.score);
    },
  } as unknown as FaceDetector;
  return { detector, state };
}

async function waitFor(what: string, probe: () => Promise<boolean>, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('face indexing: a job done twice changes nothing', () => {
  let t: TestApp;
  let queue: JobQueue;
  let release: (() => Promise<void>) | undefined;
  let eventId: number;
  let jpeg: Buffer;
  const indexers: FaceIndexer[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    const acquired = await acquireJobQueue(t.ctx.db);
    queue = acquired.queue;
    release = acquired.release;
    // The test sends to the face queue itself (dispatchFaceJobs), before any worker has started: it defines it first.
    await defineFaceQueue(queue);
    eventId = await createSelfieEvent(t.ctx.db, 'Twice Run 2026');
    jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 90, g: 120, b: 160 } } })
      .jpeg()
      .toBuffer();
  }, SET_UP_TIMEOUT_MS);

  afterAll(async () => {
    for (const indexer of indexers) await indexer.stop();
    await release?.();
    await closeAll(t);
  }, TEAR_DOWN_TIMEOUT_MS);

  /** Two workers on the one queue, as two API processes are. */
  function twoWorkers(detector: FaceDetector): void {
    for (let i = 0; i < 2; i++) indexers.push(startFaceIndexer({ db: t.ctx.db, storage: t.ctx.storage, queue, detector, pauseRatio: 0, yieldToUploadsMs: 0 }));
  }

  const facesOf = (photoId: number) => t.ctx.db.query<{ score: number }>('select score from photo_faces where photo_id = $1 order by id', [photoId]);
  const jobOf = async (photoId: number) =>
    (
      await t.ctx.db.query<{ status: string; face_count: number | null; attempts: number }>(
        'select status, face_count, attempts from face_index_jobs where photo_id = $1',
        [photoId],
      )
    )[0];
  const queueEmpty = async () => (await queue.pendingCount(FACE_QUEUE)) === 0;

  async function stopWorkers(): Promise<void> {
    for (const indexer of indexers.splice(0)) await indexer.stop();
  }

  it('the same photo delivered three times to two workers at once: one set of faces, analysed once', async () => {
    const { detector, state } = standInDetector();
    // The photo is queued before the workers start: their sweep would otherwise find it first and a
    // queuing after that would (rightly) have it analysed again.
    const photoId = await addEventPhoto(t.ctx.db, t.ctx.storage, eventId, 'TW-1', jpeg);
    await queuePhotosForFaces(t.ctx.db, [photoId]);
    twoWorkers(detector);
    await dispatchFaceJobs(t.ctx.db, queue);
    // The same job again, twice, as a redelivery would bring it.
    await Promise.all([queue.send(FACE_QUEUE, { photoId }), queue.send(FACE_QUEUE, { photoId })]);
    await waitFor('the job done and the queue empty', async () => (await jobOf(photoId))?.status === 'done' && (await queueEmpty()));

    expect((await facesOf(photoId)).map((f) => Number(f.score.toFixed(2)))).toEqual([0.8, 0.8]);
    expect(await jobOf(photoId)).toMatchObject({ status: 'done', face_count: 2 });
    expect(state.calls).toBe(1);
    const status = await faceIndexStatus(t.ctx.db, eventId);
    expect(status).toMatchObject({ total: 1, done: 1, faces: 2 });
    await stopWorkers();
  }, 60_000);

  for (const takeOver of ['the queue gave its job up', 'the photo was queued again'] as const) {
    it(`a slow attempt whose claim was taken over (${takeOver}) saves nothing over the newer work`, async () => {
      const { detector, state } = standInDetector();
      let started!: () => void;
      const slowStarted = new Promise<void>((resolve) => (started = resolve));
      let letGo!: () => void;
      state.gate = { started, release: new Promise<void>((resolve) => (letGo = resolve)) };
      const photoId = await addEventPhoto(t.ctx.db, t.ctx.storage, eventId, `TW-${takeOver.length}`, jpeg);
      await queuePhotosForFaces(t.ctx.db, [photoId]);
      twoWorkers(detector);
      await dispatchFaceJobs(t.ctx.db, queue);
      await slowStarted;

      // The first attempt is still analysing when another takes the photo over.
      if (takeOver === 'the queue gave its job up') {
        // What the queue's monitor does to a job whose heartbeat stopped (its process seemed dead) and whose retries are spent.
        await t.ctx.db.query(`update ${queue.jobTable} set state = 'failed' where id = (select claim_job from face_index_jobs where photo_id = $1)`, [photoId]);
      } else {
        await queuePhotosForFaces(t.ctx.db, [photoId]);
      }
      await dispatchFaceJobs(t.ctx.db, queue);
      await waitFor('the newer attempt done', async () => (await jobOf(photoId))?.status === 'done');
      expect((await facesOf(photoId)).map((f) => Number(f.score.toFixed(2)))).toEqual([0.8, 0.8]);

      // Now the slow one finishes: the photo keeps the newer faces, one set of them.
      letGo();
      await waitFor('the queue empty', queueEmpty);
      await stopWorkers();
      expect((await facesOf(photoId)).map((f) => Number(f.score.toFixed(2)))).toEqual([0.8, 0.8]);
      expect(await jobOf(photoId)).toMatchObject({ status: 'done', face_count: 2 });
      expect(state.calls).toBe(2);
    }, 60_000);
  }

  it('a photo whose worker died during each of its attempts is failed, not handed out for ever', async () => {
    const photoId = await addEventPhoto(t.ctx.db, t.ctx.storage, eventId, 'TW-DIES', jpeg);
    const gone = '0b6c3f52-8d1e-4f7a-a3c9-5e2d7b1f4c60';
    await t.ctx.db.query(
      `insert into face_index_jobs (photo_id, event_id, status, attempts, claim_job, claim_retry, queued_at) values ($1, $2, 'running', $3, $4, 2, now())`,
      [photoId, eventId, FACE_MAX_ATTEMPTS, gone],
    );
    expect(await dispatchFaceJobs(t.ctx.db, queue)).toBe(0);
    expect(await jobOf(photoId)).toMatchObject({ status: 'failed', attempts: FACE_MAX_ATTEMPTS });

    // One attempt short of the limit: handed out again.
    await t.ctx.db.query(`update face_index_jobs set status = 'running', attempts = $2, claim_job = $3 where photo_id = $1`, [
      photoId,
      FACE_MAX_ATTEMPTS - 1,
      gone,
    ]);
    expect(await dispatchFaceJobs(t.ctx.db, queue)).toBe(1);
    expect(await jobOf(photoId)).toMatchObject({ status: 'pending' });
    await t.ctx.db.query('delete from face_index_jobs where photo_id = $1', [photoId]);
  });

  it('the backlog gives photos being read for BIBs a head start, and goes on once they are read', async () => {
    const { detector, state } = standInDetector();
    const uploadId = await addEventPhoto(t.ctx.db, t.ctx.storage, eventId, 'TW-UPLOAD', jpeg);
    await t.ctx.db.query(`update photos set status = 'processing' where id = $1`, [uploadId]);
    const backlogId = await addEventPhoto(t.ctx.db, t.ctx.storage, eventId, 'TW-BACKLOG', jpeg);
    const worker = startFaceIndexer({ db: t.ctx.db, storage: t.ctx.storage, queue, detector, pauseRatio: 0, yieldToUploadsMs: 60_000 });
    try {
      await waitFor('the backlog photo found by the sweep', async () => (await jobOf(backlogId)) !== undefined);
      await new Promise((resolve) => setTimeout(resolve, 4000));
      expect(state.calls).toBe(0);
      expect(await jobOf(backlogId)).toMatchObject({ status: 'pending' });

      // The upload is read (here: its reading failed, which ends its processing too): the backlog goes on at once.
      await t.ctx.db.query(`update photos set status = 'failed' where id = $1`, [uploadId]);
      const readAt = Date.now();
      await waitFor('the backlog photo indexed', async () => (await jobOf(backlogId))?.status === 'done', 20_000);
      expect(Date.now() - readAt).toBeLessThan(20_000);
      expect(await jobOf(backlogId)).toMatchObject({ status: 'done', face_count: 2 });
    } finally {
      await t.ctx.db.query(`update photos set status = 'failed' where id = $1`, [uploadId]);
      await worker.stop();
    }
  }, 60_000);
});
