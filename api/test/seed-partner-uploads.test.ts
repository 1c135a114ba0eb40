import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import exifr from 'exifr';
import sharp from 'sharp';
import { API_ROUTES, SUPPLY_MAX_PER_PAGE, type SupplyPhotosResult } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { seedDemo } from '../src/seed/seedDemo';
import { seedPartnerUploads } from '../src/seed/partnerUploads';
import { seedOrdersDemo } from '../src/features/orders/demoOrders';
import { seedOrganiserDemo } from '../src/seed/organiserDemo';
import { createSession, findUserByEmail } from '../src/features/accounts';
import { startSupplyWorker, type SupplyWorker } from '../src/pipeline/photos';
import { acquireJobQueue, type JobQueue } from '../src/queue/jobQueue';

/**
 * The demo partner's photos enter through the supply line, as an upload does: queued, then processed
 * by the API's worker with the real BIB reader, so the review screen shows real statuses.
 */
describe('demo partner uploads', () => {
  let t: TestApp;
  let queue: JobQueue;
  let releaseQueue: () => Promise<void>;
  let worker: SupplyWorker;
  let token: string;
  let eventId: number;

  beforeAll(async () => {
    t = await startTestApp();
    await seedDemo(t.ctx, { photos: 'small' });
    // The organiser's demo approves the demo partner for the main event, as at a first start.
    await seedOrdersDemo(t.ctx);
    await seedOrganiserDemo(t.ctx);
    // The small seed lists only the BIBs it gives photos; the full demo lists these too, and the
    // reader tags only BIBs on an event's participant list.
    await t.ctx.db.query(
      `insert into participants (event_id, bib_number, name, email, finish_time)
       select e.id, b, 'Demo Runner', 'runner-' || b || '@demo.finishline.test', '03:30:00'
         from events e, unnest(array['TT20611', 'TT20615', 'TT20616']) as b
        where e.name = 'Mumbai Coastal Marathon 2026' and not exists (select 1 from participants p where p.event_id = e.id and p.bib_number = b)`,
    );
    await seedPartnerUploads(t.ctx);
    ({ queue, release: releaseQueue } = await acquireJobQueue(t.ctx.db));
    worker = await startSupplyWorker(t.ctx, queue, { retryDelaySeconds: 1 });
    const partner = await findUserByEmail(t.ctx.db, 'partner@finishline.test');
    token = (await createSession(t.ctx.db, partner!.id)).token;
    eventId = (await t.ctx.db.query<{ id: number }>(`select id from events where name = 'Mumbai Coastal Marathon 2026'`))[0]!.id;
  }, SET_UP_TIMEOUT_MS);
  afterAll(async () => {
    await worker?.stop();
    await releaseQueue?.();
    await closeAll(t);
  }, TEAR_DOWN_TIMEOUT_MS);

  it('queues the six photos as the partner’s uploads, and processes them into tagged and unlabeled photos', async () => {
    const deadline = Date.now() + 120_000;
    let uploads: SupplyPhotosResult['photos'];
    for (;;) {
      const res = await t.request<SupplyPhotosResult>(
        'POST',
        API_ROUTES.partnerPhotos,
        { eventId, perPage: SUPPLY_MAX_PER_PAGE },
        { authorization: `Bearer ${token}` },
      );
      expect(res.status).toBe(200);
      // The organiser's demo gives the partner other photos of the event too: these are the uploads.
      uploads = res.body.result.photos.filter((p) => p.originalName?.startsWith('KABIR_'));
      if (uploads.length === 6 && uploads.every((p) => p.status !== 'processing')) break;
      if (Date.now() > deadline) throw new Error(`still processing: ${JSON.stringify(uploads.map((p) => p.status))}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const tagged = uploads.filter((p) => p.status === 'tagged').flatMap((p) => p.bibs.map((b) => ({ bib: b.bibNumber, source: b.source })));
    expect(tagged.sort((a, b) => a.bib.localeCompare(b.bib))).toEqual(['TT20610', 'TT20611', 'TT20615', 'TT20616'].map((bib) => ({ bib, source: 'ocr' })));
    expect(uploads.filter((p) => p.status === 'unlabeled')).toHaveLength(2);

    // Stored as uploads are: the partner's, by content hash, with watermarked renditions.
    const rows = await t.ctx.db.query<{
      partner_user_id: number;
      content_sha256: string | null;
      thumb_key: string;
      status: string;
      original_key: string;
      cleaned: boolean;
    }>(
      `select partner_user_id, content_sha256, thumb_key, status, original_key, metadata_cleaned_at is not null as cleaned from photos where event_id = $1 and original_name like 'KABIR_%'`,
      [eventId],
    );
    const partner = await findUserByEmail(t.ctx.db, 'partner@finishline.test');
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row).toMatchObject({ partner_user_id: partner!.id, status: 'ready' });
      expect(row.content_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect((await sharp(await t.ctx.storage.getBuffer(row.thumb_key)).metadata()).width).toBe(400);
      // The demo camera's GPS position, serial number and names never reached storage; its capture time did.
      const tags = (await exifr.parse(await t.ctx.storage.getBuffer(row.original_key), { xmp: true, iptc: true })) as Record<string, unknown>;
      expect(Object.keys(tags).filter((tag) => !/^(DateTimeOriginal|OffsetTimeOriginal)$/.test(tag))).toEqual([]);
      expect(row.cleaned).toBe(true);
    }
    // The demo's own photos are rendered without any metadata, and so marked clean as stored.
    const [uncleaned] = await t.ctx.db.query<{ n: number }>(`select count(*)::int as n from photos where kind = 'image' and metadata_cleaned_at is null`);
    expect(uncleaned!.n).toBe(0);
  }, 150_000);

  it('adds nothing when the seed runs again', async () => {
    await seedPartnerUploads(t.ctx);
    const [count] = await t.ctx.db.query<{ n: number }>(`select count(*)::int as n from photos where event_id = $1 and original_name like 'KABIR_%'`, [
      eventId,
    ]);
    expect(count!.n).toBe(6);
  });
});
