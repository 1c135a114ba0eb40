import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { closeAll, SET_UP_TIMEOUT_MS, startTestApp, TEAR_DOWN_TIMEOUT_MS, type TestApp } from './support/testApp';
import { createUser } from '../src/features/accounts';
import { acceptPhotoFile } from '../src/features/supply';
import { definePhotoQueue, PHOTO_HEARTBEAT_SECONDS, PHOTO_QUEUE } from '../src/queue/queues';
import { startSupplyWorker, type SupplyWorker } from '../src/pipeline/photos';
import { acquireJobQueue, jobQueueSchema, type JobQueue } from '../src/queue/jobQueue';
import { cameraPhoto } from '../src/seed/cameraPhoto';

/**
 * Job heartbeats (PGlite, and the PostgreSQL server in the TEST_DATABASE_URL pass): a photo job
 * whose worker died after claiming it is processed by another worker once its heartbeat stopped
 * (20 s), not after the job's expiry (300 s); a live worker keeps a job longer than its heartbeat
 * time by refreshing the heartbeat, so it is never run twice.
 */
const MONITOR_SECONDS = 1;

interface JobRow {
  [column: string]: unknown;
  state: string;
  retry_count: number;
  expire_seconds: number;
  heartbeat_seconds: number | null;
}

describe('job heartbeats: the job of a dead worker is retried within the heartbeat time', () => {
  let t: TestApp;
  let queue: JobQueue;
  let releaseQueue: () => Promise<void>;
  let worker: SupplyWorker | undefined;
  let schema: string;

  const jobRow = async (id: string) =>
    (await t.ctx.db.query<JobRow>(`select state::text as state, retry_count, expire_seconds, heartbeat_seconds from ${schema}.job where id = $1`, [id]))[0]!;

  beforeAll(async () => {
    t = await startTestApp();
    schema = jobQueueSchema(t.ctx.db);
    ({ queue, release: releaseQueue } = await acquireJobQueue(t.ctx.db, undefined, { monitorSeconds: MONITOR_SECONDS }));
  }, SET_UP_TIMEOUT_MS);

  afterAll(async () => {
    await worker?.stop();
    await releaseQueue?.();
    await closeAll(t);
  }, TEAR_DOWN_TIMEOUT_MS);

  it('a photo claimed by a worker that then died is made ready by another worker after the heartbeat time, long before the expiry', async () => {
    const db = t.ctx.db;
    const partnerId = await createUser(db, {
      firstName: 'Kabir',
      lastName: 'Heartbeat',
      email: 'kabir@heartbeat.test',
      password: 'Secret#2026',
      isPartner: true,
    });
    const [event] = await db.query<{ id: number }>(
      `insert into events (name, from_date, to_date, location, issearchable) values ('Heartbeat Run 2026', '2026-10-04', '2026-10-04', 'Pune', true) returning id`,
    );
    await definePhotoQueue(queue, 0);
    const file = await cameraPhoto({ bib: null, seed: 'heartbeat', width: 800, grain: 4, eventCode: 'HB', eventName: 'Heartbeat Run 2026' });
    const receipt = await acceptPhotoFile(t.ctx, async () => queue, { eventId: event!.id, userId: partnerId, filename: 'HB_0001.JPG', file });
    expect(receipt.status).toBe('processing');

    // The dying worker: it claims the job as any worker does, then sends nothing more (its process is gone).
    const [claimed] = await queue.boss.fetch<{ photoId: number }>(PHOTO_QUEUE);
    const claimedAt = Date.now();
    expect(claimed!.data.photoId).toBe(receipt.photoId);
    expect(await jobRow(claimed!.id)).toEqual({ state: 'active', retry_count: 0, expire_seconds: 300, heartbeat_seconds: PHOTO_HEARTBEAT_SECONDS });

    // A live worker in another process (here: the same queue, a worker of its own) is waiting for work.
    worker = await startSupplyWorker(t.ctx, queue, { reader: null, retryDelaySeconds: 0, concurrency: 1 });
    let status = 'processing';
    while (status === 'processing') {
      expect(Date.now() - claimedAt).toBeLessThan(60_000);
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await db.query<{ status: string }>('select status from photos where id = $1', [receipt.photoId]))[0]!.status;
    }
    const waited = (Date.now() - claimedAt) / 1000;
    expect(status).toBe('ready');
    // Not before the heartbeat ran out (the claim was respected), and far inside the 300 s expiry.
    expect(waited).toBeGreaterThanOrEqual(PHOTO_HEARTBEAT_SECONDS - 1);
    expect(waited).toBeLessThan(PHOTO_HEARTBEAT_SECONDS + 30);
    // The same job, its second attempt: the photo was processed once, by the live worker.
    expect(await jobRow(claimed!.id)).toMatchObject({ state: 'completed', retry_count: 1 });
    expect(await db.query('select 1 from photos where id = $1 and status = $2', [receipt.photoId, 'ready'])).toHaveLength(1);
  }, 90_000);

  it('a live worker keeps a job that runs past its heartbeat time: it refreshes the heartbeat, and the job runs once', async () => {
    const name = 'heartbeat-long-job';
    const heartbeatSeconds = 10;
    await queue.define(name, { retryLimit: 2, retryDelaySeconds: 0, expireInSeconds: 300, heartbeatSeconds });
    const runs: number[] = [];
    const beats: number[] = [];
    let id = '';
    await queue.work<{ n: number }>(name, 1, async (data) => {
      runs.push(data.n);
      // Running well past heartbeatSeconds + the monitor's interval; the heartbeat is read as it moves.
      const until = Date.now() + (heartbeatSeconds + 5 * MONITOR_SECONDS + 3) * 1000;
      while (Date.now() < until) {
        const [row] = await t.ctx.db.query<{ beat: string }>(`select heartbeat_on::text as beat from ${schema}.job where id = $1`, [id]);
        if (row && !beats.includes(Date.parse(row.beat))) beats.push(Date.parse(row.beat));
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    });
    id = (await queue.send(name, { n: 1 }))!;
    const deadline = Date.now() + 60_000;
    while ((await jobRow(id)).state !== 'completed') {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await queue.offWork(name);
    expect(runs).toEqual([1]);
    expect(await jobRow(id)).toMatchObject({ state: 'completed', retry_count: 0, heartbeat_seconds: heartbeatSeconds });
    // The claim's own stamp, then at least two refreshes (every heartbeatSeconds / 2).
    expect(beats.length).toBeGreaterThanOrEqual(3);
  }, 90_000);
});
