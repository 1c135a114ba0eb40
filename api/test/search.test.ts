import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, type BibSearchResult, type EventNamesResult } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { seedDemo } from '../src/seed/seedDemo';
import { createSession, findSession } from '../src/features/accounts/sessions';
import { isBibVerified } from '../src/rules/privacy';
import { signMediaKey } from '../src/storage/storage';

describe('search event by BIB', () => {
  let t: TestApp;
  const ids = new Map<string, number>();
  const search = (body: Record<string, unknown>, headers?: Record<string, string>) => t.request<BibSearchResult>('POST', API_ROUTES.searchByBib, body, headers);

  beforeAll(async () => {
    t = await startTestApp({ searchSessionMinutes: 120 });
    await seedDemo(t.ctx, { photos: 'small' });
    const list = await t.request<EventNamesResult>('GET', API_ROUTES.eventNames);
    for (const e of list.body.result.events) ids.set(e.event_name, e.event_id);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  const mainEvent = () => ids.get('Mumbai Coastal Marathon 2026')!;

  it('finds the photos and videos of a BIB with signed preview and thumbnail URLs that load and expire with the session', async () => {
    const before = Date.now();
    const res = await search({
      eventName: 'Mumbai Coastal Marathon 2026',
      bibNumber: 'TT20608',
      eventID: mainEvent(),
      userID: null,
      sessionToken: '',
      orderId: null,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ StatusCode: 200, HasError: false });
    const r = res.body.result;
    expect(r).toMatchObject({
      eventId: mainEvent(),
      eventName: 'Mumbai Coastal Marathon 2026',
      bibNumber: 'TT20608',
      total_image_count: 6,
      total_video_count: 1,
      isPrivacyCheckEnabled: false,
      isVerified: false,
      threshold_photo_count: 10,
      show_prempack: true,
      show_ultrapack: true,
      ultra_premium_pack: 799,
      bundlePriceInfo: { price: 500, Premium_Pack: 449 },
      priceInfo: { single_photo: 100, extra_photo: 50, five_or_more: 500, video: 150, collage: 1179, gst_percent: 18 },
      participantExists: [{ email1: 'ru****@finishline.test' }],
      // The demo runner finished the grand slam (her three BIBs' results carry times).
      achievementsEligibility: { certificate_eligible: true, certificate_url: null, achievement_id: expect.any(Number) },
      sponsorOfferAvailableFlag: true,
      sponsorOffer: { coupon_name: 'COASTLINE20', sponsor_name: 'Coastline Run Club', discount_type: 'percent', discount_amount: 20, max_orders_allowed: 3 },
      printsDisabled: false,
    });
    expect(r.eventLogo).toMatch(/\/media\/public\/logos\/mcm26\.png$/);
    expect(r.photo).toHaveLength(6);
    // Her finish, cut from the race's finish-line camera.
    expect(r.video).toHaveLength(1);
    expect(r.video[0]).toMatchObject({ category: 'video', type: 'download', bibNumber: 'TT20608', price: 150, imageid: 'MCM26-V-TT20608' });
    expect(r.photo.every((p) => p.category === 'image' && p.type === 'download' && p.bibNumber === 'TT20608' && p.price === 100)).toBe(true);
    expect(r.photo[0].imageid).toMatch(/^MCM26-\d{5}$/);
    expect(r.printProductInfo.map((p) => [p.name, p.price, p.pricewthgst])).toEqual([
      ['Magnet 4x6 inches', 739, 872],
      ['Frame 10x10 inches', 319, 376],
      ['Coffee mug', 259, 306],
      ['Wall poster 13x10 inches', 350, 413],
    ]);

    const expiry = new Date(r.awsImageExpary).getTime();
    expect(expiry).toBeGreaterThanOrEqual(before + 120 * 60_000 - 1000);
    expect(expiry).toBeLessThanOrEqual(Date.now() + 120 * 60_000 + 1000);
    const exp = String(Math.floor(expiry / 1000));

    const photo = r.photo[0];
    for (const url of [photo.s3, photo.image]) {
      expect(new URL(url).searchParams.get('exp')).toBe(exp);
      const media = await fetch(url);
      expect(media.status).toBe(200);
      expect(media.headers.get('content-type')).toBe('image/jpeg');
      expect((await media.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    expect(new URL(photo.s3).pathname).toMatch(/^\/media\/previews\//);
    expect(new URL(photo.image).pathname).toMatch(/^\/media\/thumbs\//);

    const video = r.video[0];
    expect(video).toMatchObject({ category: 'video', price: 150 });
    expect(video.videopath).toBe(video.s3);
    const clip = await fetch(video.s3);
    expect(clip.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await clip.arrayBuffer());
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(bytes.includes(Buffer.from('moov'))).toBe(true);

    // Tampering with the expiry breaks the signature.
    const tampered = new URL(photo.s3);
    tampered.searchParams.set('exp', String(Number(exp) + 3600));
    expect((await fetch(tampered)).status).toBe(403);
  });

  it('signs URLs that stop working once the search session has expired', async () => {
    t.ctx.config.searchSessionMinutes = 0;
    try {
      const res = await search({ bibNumber: 'TT20608', eventID: mainEvent() });
      const media = await fetch(res.body.result.photo[0].s3);
      expect(media.status).toBe(410);
      expect((await media.json()).Message).toBe('Your search session is expired. Please search again.');
    } finally {
      t.ctx.config.searchSessionMinutes = 120;
    }
  });

  it('matches the BIB trimmed and case-insensitively', async () => {
    const res = await search({ bibNumber: '  tt20608 ', eventID: String(mainEvent()) });
    expect(res.status).toBe(200);
    expect(res.body.result.bibNumber).toBe('TT20608');
    expect(res.body.result.photo).toHaveLength(6);
  });

  it('answers an unknown BIB with a non-200 envelope whose Message the storefront shows', async () => {
    const res = await search({ bibNumber: 'TT99999', eventID: mainEvent() });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      StatusCode: 404,
      HasError: true,
      Message: 'No photos found for BIB TT99999 in Mumbai Coastal Marathon 2026. Please check the number and try again.',
      result: null,
    });
  });

  it('rejects empty or invalid input, unknown and non-searchable events with a clear 400', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ bibNumber: '', eventID: mainEvent() }, 'Please enter your BIB number.'],
      [{ bibNumber: '   ', eventID: mainEvent() }, 'Please enter your BIB number.'],
      [{ eventID: mainEvent() }, 'Please enter your BIB number.'],
      [{ bibNumber: 'TT20608' }, 'Please choose an event.'],
      [{ bibNumber: 'TT20608', eventID: 'mumbai' }, 'Please choose an event.'],
      [{ bibNumber: 'X'.repeat(33), eventID: mainEvent() }, 'A BIB number has at most 32 characters.'],
      [{ bibNumber: 'TT20608', eventID: 987654 }, 'We could not find this event. Please choose an event from the list.'],
      [{ bibNumber: 'TT20608', eventID: ids.get('Shimla Ridge Run 2023') }, 'Photos of Shimla Ridge Run 2023 are not available for search yet.'],
    ];
    for (const [body, message] of cases) {
      const res = await search(body);
      expect({ body, status: res.status, message: res.body.Message, hasError: res.body.HasError }).toEqual({ body, status: 400, message, hasError: true });
    }
  });

  it('withholds the photos of a privacy-checked event until the BIB is verified in the session', async () => {
    const eventID = ids.get('Bengaluru Heritage Half 2025')!;
    const session = await createSession(t.ctx.db, null);
    const bearer = { authorization: `Bearer ${session.token}` };
    const res = await search({ bibNumber: 'BH21042', eventID }, bearer);
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      isPrivacyCheckEnabled: true,
      isVerified: false,
      photo: [],
      video: [],
      total_image_count: 3,
      participantExists: [{ email1: 'ru****@finishline.test' }],
    });
    const anonymous = await search({ bibNumber: 'BH21042', eventID });
    expect(anonymous.body.result.photo).toEqual([]);

    const sessionId = (await findSession(t.ctx.db, session.token))!.id;
    expect(await isBibVerified(t.ctx.db, sessionId, eventID, 'bh21042')).toBe(false);
    await t.ctx.db.query('insert into session_verified_bibs (session_id, event_id, bib_number) values ($1, $2, $3)', [sessionId, eventID, 'BH21042']);
    expect(await isBibVerified(t.ctx.db, sessionId, eventID, ' bh21042 ')).toBe(true);

    const verified = await search({ bibNumber: 'bh21042', eventID, sessionToken: session.token });
    expect(verified.body.result).toMatchObject({ isPrivacyCheckEnabled: true, isVerified: true });
    expect(verified.body.result.photo).toHaveLength(3);
    const other = await createSession(t.ctx.db, null);
    const otherSession = await search({ bibNumber: 'BH21042', eventID }, { authorization: `Bearer ${other.token}` });
    expect(otherSession.body.result.photo).toEqual([]);
  });

  it('leaves out photos hidden for that BIB or reported "not me" and upheld by the organiser', async () => {
    const before = await search({ bibNumber: 'TT20609', eventID: mainEvent() });
    expect(before.body.result.photo).toHaveLength(2);
    const [hidden, notMe] = before.body.result.photo;
    await t.ctx.db.query('insert into photo_feedback (photo_id, bib_number, feedback) values ($1, $2, 1)', [hidden.id, 'TT20609']);
    const afterHide = await search({ bibNumber: 'TT20609', eventID: mainEvent() });
    expect(afterHide.body.result.photo.map((p) => p.id)).toEqual([notMe.id]);
    await t.ctx.db.query(
      `insert into photo_reports (photo_id, event_id, bib_number, reporter_user_id, status) select $1, $2, $3, min(id), 'upheld' from users`,
      [notMe.id, mainEvent(), 'TT20609'],
    );
    const afterNotMe = await search({ bibNumber: 'TT20609', eventID: mainEvent() });
    // His finish clip is still his: the answer keeps it, with no photos.
    expect(afterNotMe.body.result.photo).toEqual([]);
    expect(afterNotMe.body.result.video).toHaveLength(1);
    await t.ctx.db.query('insert into photo_feedback (photo_id, bib_number, feedback) values ($1, $2, 1)', [afterNotMe.body.result.video[0].id, 'TT20609']);
    const nothingLeft = await search({ bibNumber: 'TT20609', eventID: mainEvent() });
    expect(nothingLeft.status).toBe(404);
    expect(nothingLeft.body.Message).toBe('No photos found for BIB TT20609 in Mumbai Coastal Marathon 2026. Please check the number and try again.');

    // Feedback for another BIB does not hide the photo for this one.
    const main = await search({ bibNumber: 'TT20608', eventID: mainEvent() });
    const target = main.body.result.photo[2];
    await t.ctx.db.query('insert into photo_feedback (photo_id, bib_number, feedback) values ($1, $2, 1)', [target.id, 'TT30000']);
    expect((await search({ bibNumber: 'TT20608', eventID: mainEvent() })).body.result.photo.map((p) => p.id)).toContain(target.id);
    await t.ctx.db.query('insert into photo_feedback (photo_id, bib_number, feedback) values ($1, $2, 1)', [target.id, 'TT20608']);
    const hiddenForBib = await search({ bibNumber: 'TT20608', eventID: mainEvent() });
    expect(hiddenForBib.body.result.photo.map((p) => p.id)).not.toContain(target.id);
    expect(hiddenForBib.body.result.photo).toHaveLength(5);
  });

  it('never serves originals: search results point at previews and thumbnails, and originals are refused even when signed', async () => {
    const res = await search({ bibNumber: 'TT30000', eventID: mainEvent() });
    const urls = [...res.body.result.photo, ...res.body.result.video].flatMap((p) => [p.s3, p.image, p.videopath ?? '']);
    expect(urls.some((u) => u.includes('originals'))).toBe(false);
    const rows = await t.ctx.db.query<{ original_key: string }>('select original_key from photos where id = $1', [res.body.result.photo[0].id]);
    const originalKey = rows[0].original_key;
    expect(await t.ctx.storage.exists(originalKey)).toBe(true);
    const exp = Math.floor(Date.now() / 1000) + 600;
    const signed = `${t.url}${API_ROUTES.media}/${originalKey}?exp=${exp}&sig=${signMediaKey(t.ctx.config.signingSecret, originalKey, exp)}`;
    expect((await fetch(signed)).status).toBe(404);
    expect((await fetch(`${t.url}${API_ROUTES.media}/previews/../${originalKey}`)).status).toBe(404);
  });

  it('offers no prints on an event on DISABLEPRINTS', async () => {
    const res = await search({ bibNumber: 'PT15001', eventID: ids.get('Pune Hill Trail 2025') });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ printsDisabled: true, printProductInfo: [], sponsorOfferAvailableFlag: false, sponsorOffer: null });
    expect(res.body.result.photo).toHaveLength(2);
  });

  // The embedded database answers a repeated search from memory for up to a second: every write in
  // between (a statement or a transaction) must show in the very next search.
  it("shows an organiser's switch, a photo no longer ready and a BIB tag taken off or put back in the very next search", async () => {
    const eventID = ids.get('Pune Hill Trail 2025')!;
    const first = await search({ bibNumber: 'PT15001', eventID });
    expect(first.body.result.photo).toHaveLength(2);
    expect((await search({ bibNumber: 'PT15001', eventID })).body.result.photo).toHaveLength(2);

    await t.ctx.db.query('update events set issearchable = false where id = $1', [eventID]);
    expect((await search({ bibNumber: 'PT15001', eventID })).status).toBe(400);
    await t.ctx.db.query('update events set issearchable = true where id = $1', [eventID]);
    expect((await search({ bibNumber: 'PT15001', eventID })).body.result.photo).toHaveLength(2);

    const hidden = first.body.result.photo[0]!.id;
    await t.ctx.db.query("update photos set status = 'processing' where id = $1", [hidden]);
    expect((await search({ bibNumber: 'PT15001', eventID })).body.result.photo.map((p) => p.id)).toEqual([first.body.result.photo[1]!.id]);
    await t.ctx.db.query("update photos set status = 'ready' where id = $1", [hidden]);

    // A tag taken off and put back, each inside a transaction.
    const untagged = first.body.result.photo[1]!.id;
    await t.ctx.db.transaction((tx) => tx.query(`delete from photo_bibs where photo_id = $1 and bib_number = 'PT15001'`, [untagged]));
    expect((await search({ bibNumber: 'PT15001', eventID })).body.result.photo.map((p) => p.id)).toEqual([hidden]);
    await t.ctx.db.transaction((tx) =>
      tx.query(`insert into photo_bibs (photo_id, event_id, bib_number, source) values ($1, $2, 'PT15001', 'seed')`, [untagged, eventID]),
    );
    expect((await search({ bibNumber: 'PT15001', eventID })).body.result.photo).toHaveLength(2);
  });
});
