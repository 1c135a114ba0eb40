import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, FALLBACK_PHOTOS_PER_MINUTE, findableInSeconds, findableWaitMessage, type SupplyPhotosResult } from '@finishline/shared/pure';
import { closeAll, SET_UP_TIMEOUT_MS, startTestApp, TEAR_DOWN_TIMEOUT_MS, type TestApp } from './support/testApp';
import { receiptOf, tusUpload } from './support/tus';
import { createSession, createUser } from '../src/features/accounts';
import { cameraPhoto } from '../src/seed/cameraPhoto';

/**
 * Back-pressure on race day: with more photos waiting than the line clears in its promised minute
 * (and here no worker running at all), an upload still succeeds and the photographer's photo list
 * says how long until their photos are findable, from the photos waiting ahead on the whole queue
 * and the line's recent rate (docs/supply-line.md, "When many photos arrive").
 */
describe('the supply line under load: uploads go on, the wait is told', () => {
  let t: TestApp;
  let eventId: number;
  let otherEventId: number;
  let partnerId: number;
  let rivalId: number;
  let token: string;
  const list = (body: Record<string, unknown> = {}) =>
    t.request<SupplyPhotosResult>('POST', API_ROUTES.partnerPhotos, { eventId, ...body }, { authorization: `Bearer ${token}` });
  /** Photos waiting to be processed, as uploads leave them (no job is sent: no worker runs here anyway). */
  const fillQueue = (event: number, partner: number | null, count: number, prefix: string) =>
    t.ctx.db.query(
      `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, status, partner_user_id)
       select $1, $3 || n, 'image', 'o/' || $3 || n, 'p', 't', 960, 600, 'processing', $2 from generate_series(1, $4::int) n`,
      [event, partner, prefix, count],
    );
  /** Waiting photos, first in first: `count` of them finish (the database stamps when). */
  const finishFirst = (count: number) =>
    t.ctx.db.query(`update photos set status = 'ready' where id in (select id from photos where status = 'processing' order by id limit $1)`, [count]);

  beforeAll(async () => {
    t = await startTestApp();
    const db = t.ctx.db;
    partnerId = await createUser(db, { firstName: 'Busy', lastName: 'Partner', email: 'busy@supply.test', password: 'Secret#2026', isPartner: true });
    rivalId = await createUser(db, { firstName: 'Early', lastName: 'Partner', email: 'early@supply.test', password: 'Secret#2026', isPartner: true });
    token = (await createSession(db, partnerId)).token;
    const event = async (name: string) =>
      (
        await db.query<{ id: number }>(
          `insert into events (name, from_date, to_date, issearchable) values ($1, '2026-10-04', '2026-10-04', true) returning id`,
          [name],
        )
      )[0]!.id;
    eventId = await event('Race Day Run 2026');
    otherEventId = await event('Other Race 2026');
    for (const user of [partnerId, rivalId])
      await db.query(`insert into event_partners (event_id, user_id, status) values ($1, $2, 'approved')`, [eventId, user]);
    // 150 photos already wait on the queue before the partner's: 100 of another photographer's at
    // this event, 50 of another event's (the queue is one for every event).
    await fillQueue(eventId, rivalId, 100, 'EARLY-');
    await fillQueue(otherEventId, null, 50, 'OTHER-');
  }, SET_UP_TIMEOUT_MS);

  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('takes the upload while 150 photos wait and no worker runs, and says how long until it is findable', async () => {
    const file = await cameraPhoto({ bib: 'R1234', seed: 'race-day', width: 1200, grain: 8, eventCode: 'RD', eventName: 'Race Day Run 2026' });
    const upload = await tusUpload(`${t.url}${API_ROUTES.partnerUploads}`, token, file, {
      eventId: String(eventId),
      filename: 'DSC_1000.JPG',
      filetype: 'image/jpeg',
    });
    expect(upload.status).toBe(204);
    expect(receiptOf(upload)).toMatchObject({ duplicate: false, status: 'processing' });

    // The upload page's poll (the counts only) and the review's page both carry the estimate. No photo
    // finished lately: the fallback rate, 151 photos at 60 a minute.
    const poll = await list({ perPage: 0 });
    expect(poll.status).toBe(200);
    expect(poll.body.result.counts).toMatchObject({ uploaded: 1, processing: 1 });
    const expected = Math.ceil((151 * 60) / FALLBACK_PHOTOS_PER_MINUTE);
    expect(poll.body.result.findable).toEqual({ waitingAhead: 151, photosPerMinute: null, estimateSeconds: expected });
    expect(findableWaitMessage(poll.body.result.findable!.estimateSeconds)).toBe(
      'Many photos are arriving right now: your photos will be findable in about 3 minutes. You can keep uploading.',
    );
    expect((await list()).body.result.findable).toEqual(poll.body.result.findable);

    // Photos arriving after the partner's are behind theirs: the wait does not grow.
    await fillQueue(otherEventId, null, 40, 'LATER-');
    expect((await list({ perPage: 0 })).body.result.findable?.waitingAhead).toBe(151);
  }, 120_000);

  it('uses the rate the workers reached over the last minutes', async () => {
    const db = t.ctx.db;
    await finishFirst(100);
    // The database stamped each finished photo; a photo still waiting has no stamp.
    const [stamps] = await db.query<{ stamped: number; waiting_stamped: number }>(
      `select count(*) filter (where status = 'ready' and processed_at > now() - interval '1 minute')::int as stamped,
              count(*) filter (where status = 'processing' and processed_at is not null)::int as waiting_stamped from photos`,
    );
    expect(stamps).toEqual({ stamped: 100, waiting_stamped: 0 });
    // Spread them over the last 290 seconds: about 20.7 photos a minute.
    await db.query(
      `update photos p set processed_at = now() - make_interval(secs => 290 * (1 - (f.k - 1) / 100.0))
         from (select id, row_number() over (order by id) as k from photos where processed_at is not null) f where f.id = p.id`,
    );
    const { findable } = (await list({ perPage: 0 })).body.result;
    expect(findable?.waitingAhead).toBe(51);
    expect(findable?.photosPerMinute).toBeCloseTo(20.7, 0);
    // 51 photos at about 20.7 a minute: about 148 s.
    expect(findable?.estimateSeconds).toBeGreaterThanOrEqual(findableInSeconds(51, 21)!);
    expect(findable?.estimateSeconds).toBeLessThanOrEqual(findableInSeconds(51, 20.5)!);
  }, 60_000);

  it('says nothing within the promised minute, and gives no estimate once none of theirs wait', async () => {
    await finishFirst(45);
    const within = (await list({ perPage: 0 })).body.result.findable;
    // 6 photos at over 20 a minute: well within the minute.
    expect(within).toMatchObject({ waitingAhead: 6, estimateSeconds: null });
    expect(within?.photosPerMinute).toBeGreaterThan(20);

    await finishFirst(6);
    const done = (await list({ perPage: 0 })).body.result;
    expect(done.counts).toMatchObject({ processing: 0, searchable: 1 });
    expect(done.findable).toBeNull();
  }, 60_000);
});
