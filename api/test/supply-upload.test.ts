import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import {
  API_ROUTES,
  SUPPLY_MESSAGES,
  SUPPLY_PHOTOS_PER_PAGE,
  UPLOAD_MAX_BYTES,
  VIDEO_MESSAGES,
  type BibSearchResult,
  type SupplyPhoto,
  type SupplyPhotosResult,
} from '@finishline/shared/pure';
import { closeAll, SET_UP_TIMEOUT_MS, startTestApp, TEAR_DOWN_TIMEOUT_MS, type TestApp } from './support/testApp';
import { receiptOf, tusCreate, tusOffset, tusPatch, tusPatchCut, tusUpload } from './support/tus';
import { createSession, createUser } from '../src/features/accounts';
import { insertOrder } from '../src/features/orders';
import { createBibReader, type BibReader } from '../src/models/bibs';
import { PHOTO_QUEUE } from '../src/queue/queues';
import { startSupplyWorker, type SupplyWorker } from '../src/pipeline/photos';
import { stagedUploadStore, sweepStagedUploads } from '../src/features/supply/uploads';
import { acquireJobQueue, jobQueueSchema, type JobQueue } from '../src/queue/jobQueue';
import { readOutbox } from '../src/mail/mailer';
import { cameraPhoto } from '../src/seed/cameraPhoto';

/**
 * The supply line end to end on the running API: tus uploads (resumed after a cut), the checks on
 * each file, the processing job on real generated JPEGs with the real BIB reader, the photographer's
 * review and its ownership rules, the pre-order mail, and a job that fails its retries.
 */
describe('photo supply: upload, processing, review', () => {
  let t: TestApp;
  let endpoint: string;
  let queue: JobQueue;
  let releaseQueue: () => Promise<void>;
  let worker: SupplyWorker;
  let reader: BibReader;
  let eventId: number;
  let otherEventId: number;
  const tokens: Record<'partner' | 'rival' | 'pending' | 'runner', string> = { partner: '', rival: '', pending: '', runner: '' };
  const users: Record<string, number> = {};
  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  const meta = (filename: string, event = eventId) => ({ eventId: String(event), filename, filetype: 'image/jpeg' });
  const photo = (bib: string | null, seed: string, extra: Partial<Parameters<typeof cameraPhoto>[0]> = {}) =>
    cameraPhoto({ bib, seed, width: 1600, grain: 8, eventCode: 'SUP', eventName: 'Supply Test Run 2026', ...extra });

  async function waitForPhoto(
    photoId: number,
    until: (status: string) => boolean = (s) => s !== 'processing',
    timeoutMs = 90_000,
  ): Promise<{ status: string; failure_reason: string | null }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await t.ctx.db.query<{ status: string; failure_reason: string | null }>('select status, failure_reason from photos where id = $1', [
        photoId,
      ]);
      if (row && until(row.status)) return row;
      if (Date.now() > deadline) throw new Error(`photo ${photoId} still ${row?.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const search = (bib: string) => t.request<BibSearchResult>('POST', API_ROUTES.searchByBib, { eventID: eventId, bibNumber: bib });
  const review = async (token: string, event = eventId) => t.request<SupplyPhotosResult>('POST', API_ROUTES.partnerPhotos, { eventId: event }, as(token));

  beforeAll(async () => {
    t = await startTestApp();
    endpoint = `${t.url}${API_ROUTES.partnerUploads}`;
    const db = t.ctx.db;
    for (const [role, partner] of [
      ['partner', true],
      ['rival', true],
      ['pending', true],
      ['runner', false],
      ['organiser', false],
    ] as const) {
      users[role] = await createUser(db, {
        firstName: role,
        lastName: 'Supply',
        email: `${role}@supply.test`,
        password: 'Secret#2026',
        isPartner: partner,
        isOrganiser: role === 'organiser',
      });
      if (role !== 'organiser') tokens[role] = (await createSession(db, users[role]!)).token;
    }
    const event = (name: string) =>
      db.query<{ id: number }>(
        `insert into events (name, from_date, to_date, location, issearchable, showunlabeled, organiser_user_id, bib_pattern) values ($1, '2026-10-04', '2026-10-04', 'Pune', true, true, $2, '^[A-Z][0-9]{3,5}$') returning id`,
        [name, users.organiser],
      );
    eventId = (await event('Supply Test Run 2026'))[0]!.id;
    otherEventId = (await event('Other Run 2026'))[0]!.id;
    for (const [role, status] of [
      ['partner', 'approved'],
      ['rival', 'approved'],
      ['pending', 'pending'],
    ] as const) {
      await db.query(`insert into event_partners (event_id, user_id, status) values ($1, $2, $3)`, [eventId, users[role], status]);
    }
    ({ queue, release: releaseQueue } = await acquireJobQueue(db));
    reader = await createBibReader({ workers: 1 });
    worker = await startSupplyWorker(t.ctx, queue, { reader, concurrency: 1, retryDelaySeconds: 0 });
  }, SET_UP_TIMEOUT_MS);

  afterAll(async () => {
    await worker?.stop();
    await reader?.close();
    await releaseQueue?.();
    await closeAll(t);
  }, TEAR_DOWN_TIMEOUT_MS);

  it('resumes an upload cut mid-file where it stopped, then processes the photo until its BIB finds it', async () => {
    const file = await photo('K2468', 'resume');
    const created = await tusCreate(endpoint, tokens.partner, file.length, meta('DSC_0001.JPG'));
    expect(created.status).toBe(201);
    const url = created.location!;
    const first = Math.floor(file.length * 0.3);
    expect((await tusPatch(url, tokens.partner, 0, file.subarray(0, first))).status).toBe(204);
    // The connection drops halfway through the next chunk.
    await tusPatchCut(url, tokens.partner, first, file.subarray(first), Math.floor(file.length * 0.3));
    const { offset } = await tusOffset(url, tokens.partner);
    // What arrived before the cut is kept: the client goes on from there, not from zero or from the last full chunk.
    expect(offset).toBeGreaterThan(first);
    expect(offset).toBeLessThan(file.length);
    const last = await tusPatch(url, tokens.partner, offset, file.subarray(offset));
    expect(last.status).toBe(204);
    const receipt = receiptOf(last);
    expect(receipt).toMatchObject({ duplicate: false, status: 'processing' });

    expect(await waitForPhoto(receipt.photoId)).toEqual({ status: 'ready', failure_reason: null });
    const [row] = await t.ctx.db.query<{ partner_user_id: number; original_name: string; content_sha256: string }>(
      'select partner_user_id, original_name, content_sha256 from photos where id = $1',
      [receipt.photoId],
    );
    expect(row).toMatchObject({ partner_user_id: users.partner, original_name: 'DSC_0001.JPG' });
    expect(row!.content_sha256).toMatch(/^[0-9a-f]{64}$/);
    const bibs = await t.ctx.db.query<{ bib_number: string; source: string }>('select bib_number, source from photo_bibs where photo_id = $1', [
      receipt.photoId,
    ]);
    expect(bibs).toEqual([{ bib_number: 'K2468', source: 'ocr' }]);
    const found = await search('K2468');
    expect(found.status).toBe(200);
    expect(found.body.result.photo.map((p) => p.id)).toEqual([receipt.photoId]);
    // Preview and thumbnail are watermarked renditions; the original stays private.
    const [keys] = await t.ctx.db.query<{ original_key: string; preview_key: string; thumb_key: string }>(
      'select original_key, preview_key, thumb_key from photos where id = $1',
      [receipt.photoId],
    );
    expect((await sharp(await t.ctx.storage.getBuffer(keys!.preview_key)).metadata()).width).toBe(1000);
    expect((await sharp(await t.ctx.storage.getBuffer(keys!.thumb_key)).metadata()).width).toBe(400);
    expect(keys!.original_key.startsWith('originals/')).toBe(true);
    expect((await fetch(`${t.url}${API_ROUTES.media}/${keys!.original_key}`)).status).toBe(404);
  }, 180_000);

  it('clears the staged bytes of an upload left unfinished past its expiry, and says so on resume', async () => {
    const file = await photo('K1122', 'abandoned');
    const created = await tusCreate(endpoint, tokens.partner, file.length, meta('DSC_0099.JPG'));
    const url = created.location!;
    expect((await tusPatch(url, tokens.partner, 0, file.subarray(0, Math.floor(file.length / 3)))).status).toBe(204);
    const store = stagedUploadStore(t.ctx.config.dataDir);
    const id = url.split('/').pop()!;
    expect(fs.existsSync(path.join(store.directory, id))).toBe(true);
    // Nothing is cleared while the upload may still resume.
    expect(await sweepStagedUploads(store)).toBe(0);
    // Two days later the upload is past its expiry.
    const infoFile = path.join(store.directory, `${id}.json`);
    const info = JSON.parse(fs.readFileSync(infoFile, 'utf8')) as { creation_date: string };
    fs.writeFileSync(infoFile, JSON.stringify({ ...info, creation_date: new Date(Date.now() - 48 * 3600_000).toISOString() }));
    expect(await sweepStagedUploads(store)).toBe(1);
    expect(fs.existsSync(path.join(store.directory, id))).toBe(false);
    const resumed = await fetch(url, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0', ...as(tokens.partner) } });
    expect(resumed.status).toBe(404);
  }, 60_000);

  it('recognises a file sent twice by its content and keeps one photo', async () => {
    const file = await photo('K1357', 'twice');
    const firstReceipt = receiptOf(await tusUpload(endpoint, tokens.partner, file, meta('a.jpg')));
    const again = receiptOf(await tusUpload(endpoint, tokens.partner, file, meta('a-copy.jpg')));
    expect(again).toMatchObject({ photoId: firstReceipt.photoId, duplicate: true });
    const [count] = await t.ctx.db.query<{ n: number }>(
      'select count(*)::int as n from photos where event_id = $1 and content_sha256 is not null and original_name in ($2, $3)',
      [eventId, 'a.jpg', 'a-copy.jpg'],
    );
    expect(count!.n).toBe(1);
    await waitForPhoto(firstReceipt.photoId);
    // Once the earlier photo is processed, a third copy's receipt says what became of it.
    const third = receiptOf(await tusUpload(endpoint, tokens.partner, file, meta('a-third.jpg')));
    expect(third).toMatchObject({ photoId: firstReceipt.photoId, duplicate: true, status: 'tagged' });
  }, 120_000);

  it('refuses a file that is not a JPEG, is corrupt or is over the limit, each with its reason, and takes the next file', async () => {
    const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#336699' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const notJpeg = await tusUpload(endpoint, tokens.partner, png, meta('holiday.jpg'));
    expect({ status: notJpeg.status, text: notJpeg.text }).toEqual({ status: 422, text: SUPPLY_MESSAGES.notJpeg });

    const good = await photo('K9753', 'corrupt-neighbour');
    const cut = good.subarray(0, Math.floor(good.length * 0.6));
    const corrupt = await tusUpload(endpoint, tokens.partner, cut, meta('broken.jpg'));
    expect({ status: corrupt.status, text: corrupt.text }).toEqual({ status: 422, text: SUPPLY_MESSAGES.corrupt });

    const tooLarge = await tusCreate(endpoint, tokens.partner, UPLOAD_MAX_BYTES + 1, meta('huge.jpg'));
    expect({ status: tooLarge.status, text: tooLarge.text }).toEqual({ status: 400, text: SUPPLY_MESSAGES.tooLarge });
    const wrongType = await tusCreate(endpoint, tokens.partner, 100_000, { ...meta('notes.pdf'), filetype: 'application/pdf' });
    expect({ status: wrongType.status, text: wrongType.text }).toEqual({ status: 400, text: SUPPLY_MESSAGES.notJpeg });
    // A video takes the finish-line video path (docs/videos.md), with its own limits.
    const tinyVideo = await tusCreate(endpoint, tokens.partner, 100_000, { ...meta('clip.mov'), filetype: 'video/quicktime' });
    expect({ status: tinyVideo.status, text: tinyVideo.text }).toEqual({ status: 400, text: VIDEO_MESSAGES.tooSmall });

    // The batch carries on: the next file is taken.
    const next = await tusUpload(endpoint, tokens.partner, good, meta('fine.jpg'));
    expect(next.status).toBe(204);
    await waitForPhoto(receiptOf(next).photoId);
  }, 120_000);

  it('lets only a signed-in partner approved for the event create or continue an upload, and only their own', async () => {
    const size = 50_000;
    expect((await tusCreate(endpoint, null, size, meta('x.jpg'))).status).toBe(401);
    expect((await tusCreate(endpoint, tokens.runner, size, meta('x.jpg'))).status).toBe(403);
    expect((await tusCreate(endpoint, tokens.pending, size, meta('x.jpg'))).status).toBe(403);
    expect((await tusCreate(endpoint, tokens.partner, size, meta('x.jpg', otherEventId))).status).toBe(403);

    const file = await photo('K8642', 'owner');
    const created = await tusCreate(endpoint, tokens.partner, file.length, meta('mine.jpg'));
    const url = created.location!;
    expect((await tusPatch(url, tokens.partner, 0, file.subarray(0, 10_000))).status).toBe(204);
    // Another approved partner can neither read the offset nor write into it; a visitor neither.
    expect((await tusOffset(url, tokens.rival)).status).toBe(403);
    expect((await tusPatch(url, tokens.rival, 10_000, file.subarray(10_000, 20_000))).status).toBe(403);
    expect((await tusPatch(url, null, 10_000, file.subarray(10_000, 20_000))).status).toBe(401);
    // The organiser withdraws the approval mid-upload: the next chunk is refused.
    await t.ctx.db.query(`update event_partners set status = 'rejected' where event_id = $1 and user_id = $2`, [eventId, users.partner]);
    try {
      expect((await tusPatch(url, tokens.partner, 10_000, file.subarray(10_000))).status).toBe(403);
    } finally {
      await t.ctx.db.query(`update event_partners set status = 'approved' where event_id = $1 and user_id = $2`, [eventId, users.partner]);
    }
    expect((await tusOffset(url, tokens.partner)).offset).toBe(10_000);
  }, 60_000);

  it("lets the photographer forget an unfinished upload of theirs (tus termination), nobody else's, and not a finished one", async () => {
    const file = await photo('K7531', 'forgotten');
    const url = (await tusCreate(endpoint, tokens.partner, file.length, meta('forget-me.jpg'))).location!;
    expect((await tusPatch(url, tokens.partner, 0, file.subarray(0, 20_000))).status).toBe(204);
    const forget = (token: string | null) => fetch(url, { method: 'DELETE', headers: { 'tus-resumable': '1.0.0', ...(token ? as(token) : {}) } });
    expect((await forget(null)).status).toBe(401);
    expect((await forget(tokens.rival)).status).toBe(403);
    expect((await tusOffset(url, tokens.partner)).offset).toBe(20_000);
    expect((await forget(tokens.partner)).status).toBe(204);
    // The staged bytes are gone: a resume is told the upload is not known, and no photo was made.
    expect((await tusOffset(url, tokens.partner)).status).toBe(404);
    expect(await t.ctx.db.query(`select 1 from photos where event_id = $1 and original_name = 'forget-me.jpg'`, [eventId])).toHaveLength(0);

    // A finished upload is a photo now (its staged bytes already moved): Forget leaves the photo alone.
    const done = await photo('K7532', 'finished');
    const finished = (await tusCreate(endpoint, tokens.partner, done.length, meta('kept.jpg'))).location!;
    expect((await tusPatch(finished, tokens.partner, 0, done)).status).toBe(204);
    expect((await fetch(finished, { method: 'DELETE', headers: { 'tus-resumable': '1.0.0', ...as(tokens.partner) } })).status).toBeGreaterThanOrEqual(400);
    expect(await t.ctx.db.query(`select 1 from photos where event_id = $1 and original_name = 'kept.jpg'`, [eventId])).toHaveLength(1);
  }, 60_000);

  it.each([
    ['send chunks', 'PATCH', 'authorization,tus-resumable,upload-offset,content-type'],
    ['forget an unfinished upload', 'DELETE', 'authorization,tus-resumable'],
  ])('lets a browser on the shell %s: the preflight allows %s and the tus headers', async (_what, method, headers) => {
    const origin = t.ctx.config.corsOrigins[0]!;
    const preflight = await fetch(`${endpoint}/any-upload`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain(method);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
  });

  it('applies the EXIF orientation to the original before anything reads it', async () => {
    const sideways = await photo('K4321', 'upright', { orientation: 6 });
    const stored = await sharp(sideways).metadata();
    expect([stored.orientation, stored.width! < stored.height!]).toEqual([6, true]);
    const receipt = receiptOf(await tusUpload(endpoint, tokens.partner, sideways, meta('portrait.jpg')));
    expect((await waitForPhoto(receipt.photoId)).status).toBe('ready');
    const [row] = await t.ctx.db.query<{ original_key: string; width: number; height: number }>(
      'select original_key, width, height from photos where id = $1',
      [receipt.photoId],
    );
    const original = await sharp(await t.ctx.storage.getBuffer(row!.original_key)).metadata();
    expect({ orientation: original.orientation ?? 1, landscape: original.width! > original.height! }).toEqual({ orientation: 1, landscape: true });
    expect(row!.width).toBeGreaterThan(row!.height);
    expect((await t.ctx.db.query('select bib_number from photo_bibs where photo_id = $1', [receipt.photoId])).map((r) => r.bib_number)).toEqual(['K4321']);
  }, 120_000);

  it('shows a partner their own photos only, and lets them correct, add and remove BIBs and remove unsold photos', async () => {
    const mine = await review(tokens.partner);
    expect(mine.status).toBe(200);
    expect(mine.body.result.photos.length).toBeGreaterThanOrEqual(4);
    expect(mine.body.result.counts.uploaded).toBe(mine.body.result.photos.length);
    const rivalsView = await review(tokens.rival);
    expect(rivalsView.body.result).toEqual({
      counts: { uploaded: 0, processing: 0, searchable: 0, needsAttention: 0 },
      findable: null,
      photos: [],
      page: 1,
      perPage: SUPPLY_PHOTOS_PER_PAGE,
      total: 0,
    });
    expect((await review(tokens.pending)).status).toBe(403);
    expect((await review(tokens.runner)).status).toBe(403);

    const target = mine.body.result.photos.find((p: SupplyPhoto) => p.bibs.some((b) => b.bibNumber === 'K1357'))!;
    expect(target.status).toBe('tagged');
    expect(target.thumbUrl).toContain('/media/thumbs/');
    // Correct the reading and add the second runner: searchable at once.
    const set = await t.request<SupplyPhoto>('POST', API_ROUTES.partnerPhotoBibs, { photoId: target.photoId, bibs: ['k1358', 'K2000'] }, as(tokens.partner));
    expect(set.status).toBe(200);
    expect(set.body.result.bibs).toEqual([
      { bibNumber: 'K1358', source: 'manual', confidence: null },
      { bibNumber: 'K2000', source: 'manual', confidence: null },
    ]);
    expect((await search('K1358')).body.result.photo.map((p) => p.id)).toEqual([target.photoId]);
    const old = await search('K1357');
    expect(old.status === 200 ? old.body.result.photo.map((p) => p.id) : []).not.toContain(target.photoId);
    const badBib = await t.request('POST', API_ROUTES.partnerPhotoBibs, { photoId: target.photoId, bibs: ['K-13'] }, as(tokens.partner));
    expect({ status: badBib.status, message: badBib.body.Message }).toEqual({ status: 400, message: SUPPLY_MESSAGES.bibFormat });
    // Another partner can neither tag nor remove it.
    const foreign = await t.request('POST', API_ROUTES.partnerPhotoBibs, { photoId: target.photoId, bibs: ['K1'] }, as(tokens.rival));
    expect({ status: foreign.status, message: foreign.body.Message }).toEqual({ status: 403, message: SUPPLY_MESSAGES.notYourPhoto });
    expect((await t.request('POST', API_ROUTES.partnerRemovePhoto, { photoId: target.photoId }, as(tokens.rival))).status).toBe(403);
    // Unlabeled when every BIB is removed, then removed altogether.
    const none = await t.request<SupplyPhoto>('POST', API_ROUTES.partnerPhotoBibs, { photoId: target.photoId, bibs: [] }, as(tokens.partner));
    expect(none.body.result.status).toBe('unlabeled');
    const [stored] = await t.ctx.db.query<{ original_key: string; preview_key: string; thumb_key: string }>(
      'select original_key, preview_key, thumb_key from photos where id = $1',
      [target.photoId],
    );
    const keys = [stored!.original_key, stored!.preview_key, stored!.thumb_key];
    for (const key of keys) expect(await t.ctx.storage.exists(key)).toBe(true);
    const removed = await t.request('POST', API_ROUTES.partnerRemovePhoto, { photoId: target.photoId }, as(tokens.partner));
    expect(removed.status).toBe(200);
    expect(await t.ctx.db.query('select 1 from photos where id = $1', [target.photoId])).toEqual([]);
    // Its original and renditions are deleted from storage too.
    for (const key of keys) expect(await t.ctx.storage.exists(key)).toBe(false);
  }, 60_000);

  it('refuses to remove a sold photo', async () => {
    const [sold] = await t.ctx.db.query<{ id: number }>(
      `select id from photos where event_id = $1 and partner_user_id = $2 and status = 'ready' order by id limit 1`,
      [eventId, users.partner],
    );
    await insertOrder(
      t.ctx.db,
      {
        userId: users.runner!,
        eventId,
        bibNumber: 'K2468',
        name: 'Asha Rao',
        email: 'asha@supply.test',
        phone: '9876543210',
        isdCode: '+91',
        printInstruction: '',
        status: 'Paid',
        subtotal: 100,
        discount: 0,
        gst: 18,
        amount: 118,
        amountText: '118.00',
        productinfo: 'photos',
        searchKind: 'bib',
        packageKind: null,
        bundle: null,
        unlabeled: false,
        isPreorder: false,
        sponsorOfferId: null,
        cartInfo: { searchKind: 'bib', packageKind: null, lines: [], discountedPhotoIds: [] },
      },
      [{ kind: 'images', label: 'Photo', photoIds: [sold!.id], quantity: 1, amount: 100, discount: 0, gst: 18, total: 118 }],
    );
    const res = await t.request('POST', API_ROUTES.partnerRemovePhoto, { photoId: sold!.id }, as(tokens.partner));
    expect({ status: res.status, message: res.body.Message }).toEqual({ status: 400, message: SUPPLY_MESSAGES.sold });
    const listed = (await review(tokens.partner)).body.result.photos.find((p) => p.photoId === sold!.id);
    expect(listed?.sold).toBe(true);
  }, 60_000);

  it("mails a paid pre-order's buyer the download link once, when their BIB's first photos are ready", async () => {
    const preorder = await insertOrder(
      t.ctx.db,
      {
        userId: users.runner!,
        eventId,
        bibNumber: 'K7777',
        name: 'Kiran Shah',
        email: 'kiran@supply.test',
        phone: '9123456789',
        isdCode: '+91',
        printInstruction: '',
        status: 'Paid',
        subtotal: 500,
        discount: 0,
        gst: 90,
        amount: 590,
        amountText: '590.00',
        productinfo: 'pre-order',
        searchKind: 'bib',
        packageKind: null,
        bundle: null,
        unlabeled: false,
        isPreorder: true,
        sponsorOfferId: null,
        cartInfo: { searchKind: 'bib', packageKind: null, lines: [], discountedPhotoIds: [] },
      },
      [{ kind: 'preorder', label: 'Pre-order', photoIds: [], quantity: 1, amount: 500, discount: 0, gst: 90, total: 590 }],
    );
    for (const seed of ['pre-1', 'pre-2']) {
      const receipt = receiptOf(await tusUpload(endpoint, tokens.partner, await photo('K7777', seed), meta(`${seed}.jpg`)));
      expect((await waitForPhoto(receipt.photoId)).status).toBe('ready');
    }
    const mails = (await readOutbox(t.ctx.config.mail.outboxDir)).filter((m) => m.tag === 'preorder_photos_ready');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'kiran@supply.test' });
    expect(mails[0]!.text).toContain(`/preauthdownload?orderref=${preorder.order_ref}`);
  }, 180_000);

  it('retries a failing job, then leaves the photo failed with its reason and the job failed with its error', async () => {
    // An uploaded photo whose original storage lost: every attempt fails to read it.
    const [row] = await t.ctx.db.query<{ id: number }>(
      `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, status, partner_user_id, original_name)
       values ($1, 'UP-DOOMED', 'image', 'originals/gone/none.jpg', 'previews/gone/none.jpg', 'thumbs/gone/none.jpg', 0, 0, 'processing', $2, 'doomed.jpg') returning id`,
      [eventId, users.partner],
    );
    const receipt = { photoId: row!.id };
    await queue.send(PHOTO_QUEUE, { photoId: receipt.photoId });
    const failed = await waitForPhoto(receipt.photoId, (s) => s === 'failed', 120_000);
    expect(failed.failure_reason).toMatch(/^We could not process this photo: /);
    // The last attempt marks the photo failed, then throws: the queue records the job's failure a
    // moment after the photo's (on a busy machine, after this test has seen the photo).
    const jobsOfPhoto = () =>
      t.ctx.db.query<{ state: string; retry_count: number }>(
        `select state, retry_count from ${jobQueueSchema(t.ctx.db)}.job where name = $2 and data->>'photoId' = $1`,
        [String(receipt.photoId), PHOTO_QUEUE],
      );
    let jobs = await jobsOfPhoto();
    for (let waited = 0; jobs[0]?.state === 'active' && waited < 20_000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      jobs = await jobsOfPhoto();
    }
    expect(jobs).toEqual([{ state: 'failed', retry_count: 2 }]);
    const listed = (await review(tokens.partner)).body.result;
    expect(listed.photos.find((p) => p.photoId === receipt.photoId)).toMatchObject({ status: 'failed', failureReason: failed.failure_reason, thumbUrl: null });
    expect(listed.counts.needsAttention).toBe(1);
  }, 180_000);
});
