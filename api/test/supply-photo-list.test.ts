import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, SUPPLY_PHOTOS_PER_PAGE, type SupplyPhotosResult } from '@finishline/shared/pure';
import { closeAll, SET_UP_TIMEOUT_MS, startTestApp, TEAR_DOWN_TIMEOUT_MS, type TestApp } from './support/testApp';
import { createSession, createUser } from '../src/features/accounts';

/**
 * The photographer's photo list under load: paged and filtered by the server, with counts kept by
 * the database as photos change (not counted on every poll), so the upload screen's poll is one row.
 */
describe("the photographer's photo list", () => {
  let t: TestApp;
  let eventId: number;
  let partnerId: number;
  let token: string;
  let rivalToken: string;
  const list = (body: Record<string, unknown>, as = token) =>
    t.request<SupplyPhotosResult>('POST', API_ROUTES.partnerPhotos, { eventId, ...body }, { authorization: `Bearer ${as}` });

  beforeAll(async () => {
    t = await startTestApp();
    const db = t.ctx.db;
    partnerId = await createUser(db, { firstName: 'Page', lastName: 'Partner', email: 'page@supply.test', password: 'Secret#2026', isPartner: true });
    const rivalId = await createUser(db, {
      firstName: 'Rival',
      lastName: 'Partner',
      email: 'rival-page@supply.test',
      password: 'Secret#2026',
      isPartner: true,
    });
    token = (await createSession(db, partnerId)).token;
    rivalToken = (await createSession(db, rivalId)).token;
    [{ id: eventId }] = (await db.query<{ id: number }>(
      `insert into events (name, from_date, to_date, issearchable) values ('Paged Run 2026', '2026-10-04', '2026-10-04', true) returning id`,
    )) as [{ id: number }];
    for (const user of [partnerId, rivalId])
      await db.query(`insert into event_partners (event_id, user_id, status) values ($1, $2, 'approved')`, [eventId, user]);
    // 130 photos of the partner, uploaded one second apart (the newest last), all processing; 5 of the rival's.
    await db.query(
      `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, status, partner_user_id, created_at)
       select $1, 'PG-' || lpad(n::text, 4, '0'), 'image', 'o/' || n, 'p/' || n, 't/' || n, 960, 600, 'processing', $2, now() - make_interval(secs => 200 - n)
         from generate_series(1, 130) n`,
      [eventId, partnerId],
    );
    await db.query(
      `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, status, partner_user_id)
       select $1, 'RV-' || n, 'image', 'o', 'p', 't', 960, 600, 'ready', $2 from generate_series(1, 5) n`,
      [eventId, rivalId],
    );
  }, SET_UP_TIMEOUT_MS);

  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('answers one page at a time, newest first, with the counts and the total', async () => {
    const first = await list({});
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({
      page: 1,
      perPage: SUPPLY_PHOTOS_PER_PAGE,
      total: 130,
      counts: { uploaded: 130, processing: 130, searchable: 0, needsAttention: 0 },
    });
    expect(first.body.result.photos).toHaveLength(SUPPLY_PHOTOS_PER_PAGE);
    expect(first.body.result.photos[0]!.imageId).toBe('PG-0130');
    const last = await list({ page: 3 });
    expect(last.body.result.photos.map((p) => p.imageId).at(-1)).toBe('PG-0001');
    expect(last.body.result.photos).toHaveLength(130 - 2 * SUPPLY_PHOTOS_PER_PAGE);
    // The upload screen's poll: the counts only.
    const poll = await list({ perPage: 0 });
    expect(poll.body.result).toMatchObject({ photos: [], total: 130, counts: { uploaded: 130 } });
    // Nothing of the rival's, and their counts are their own.
    expect((await list({ perPage: 0 }, rivalToken)).body.result.counts).toEqual({ uploaded: 5, processing: 0, searchable: 5, needsAttention: 0 });
  });

  it('keeps the counts as photos change status, are tagged, fail or are removed, and filters by status', async () => {
    const db = t.ctx.db;
    const ids = (await db.query<{ id: number }>(`select id from photos where partner_user_id = $1 order by id limit 12`, [partnerId])).map((r) => r.id);
    await db.query(`update photos set status = 'ready' where id = any($1::int[])`, [ids.slice(0, 10)]);
    await db.query(`insert into photo_bibs (photo_id, event_id, bib_number) select unnest($1::int[]), $2, 'A100'`, [ids.slice(0, 4), eventId]);
    await db.query(`update photos set status = 'failed', failure_reason = 'unreadable' where id = any($1::int[])`, [ids.slice(10, 12)]);
    await db.query(`delete from photos where id = $1`, [ids[9]]);
    const all = await list({ perPage: 0 });
    expect(all.body.result.counts).toEqual({ uploaded: 129, processing: 118, searchable: 9, needsAttention: 2 });
    // The kept counts agree with counting the photos themselves.
    const [counted] = await db.query<Record<string, number>>(
      `select count(*)::int as uploaded, count(*) filter (where status = 'processing')::int as processing,
              count(*) filter (where status = 'ready')::int as searchable, count(*) filter (where status = 'failed')::int as "needsAttention"
         from photos where partner_user_id = $1 and event_id = $2`,
      [partnerId, eventId],
    );
    expect(all.body.result.counts).toEqual(counted);
    const tagged = await list({ status: 'tagged' });
    expect({ total: tagged.body.result.total, statuses: [...new Set(tagged.body.result.photos.map((p) => p.status))] }).toEqual({
      total: 4,
      statuses: ['tagged'],
    });
    expect((await list({ status: 'unlabeled' })).body.result.total).toBe(5);
    expect((await list({ status: 'failed' })).body.result.photos.map((p) => p.failureReason)).toEqual(['unreadable', 'unreadable']);
  });

  it('refuses a page size past the limit with a clear message', async () => {
    const res = await list({ perPage: 1000 });
    expect({ status: res.status, message: res.body.Message }).toEqual({ status: 400, message: 'perPage is at most 200.' });
  });
});
