import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import {
  API_ROUTES,
  CERTIFICATE_MESSAGES,
  type AchievementsSearchResult,
  type CertificateUploadResult,
  type EventDetailsResponse,
  type EventNamesResult,
  type TemplateDetailsResult,
} from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { seedDemo } from '../src/seed/seedDemo';
import { GRAND_SLAM, RUNNER_EMAIL } from '../src/seed/demoData';
import { createSession } from '../src/features/accounts/sessions';
import { createUser } from '../src/features/accounts/users';
import { certificateForm, paidOrderOfBib, sessionIdOf as sessionIdOfToken, type OrderOwner } from './certificateFixtures';

const MUMBAI = 'Mumbai Coastal Marathon 2026';
const AHMEDABAD = 'Ahmedabad Riverfront Half 2026';
const JAIPUR = 'Jaipur Pink City 10K 2026';
const SLAM: Array<[string, string]> = [
  [MUMBAI, 'TT20608'],
  [AHMEDABAD, 'AR40608'],
  [JAIPUR, 'JP60608'],
];

/**
 * Photos by right, not by link: the builder hands a BIB's own photos (the print-size certificate
 * rendition) only to a session that bought them or passed the event's privacy check for the BIB.
 * Signed out, or signed in as another runner, every builder call gives watermarked previews only,
 * and the certificate cannot be uploaded (so not downloaded either).
 */
describe('certificate builder: photos only by right', () => {
  let t: TestApp;
  const ids = new Map<string, number>();
  let grandSlam: number;
  let priyaId: number;

  async function visitorToken(): Promise<string> {
    const res = await t.request<EventDetailsResponse>('POST', API_ROUTES.eventDetails, { eventID: ids.get(MUMBAI) });
    return res.body.result.session_token;
  }

  const form = <T>(route: string, fields: Record<string, string>, token: string, file?: Buffer) => certificateForm<T>(t.url, route, fields, token, file);
  function pairs(list: Array<[string, string]>): Record<string, string> {
    const fields: Record<string, string> = { page: '1' };
    list.forEach(([event, bib], i) => {
      fields[`event_bib_pairs[${i}][event_id]`] = String(ids.get(event));
      fields[`event_bib_pairs[${i}][bib_number]`] = bib;
    });
    return fields;
  }
  const search = (token: string) => form<AchievementsSearchResult>(API_ROUTES.achievementsSearch, pairs(SLAM), token);
  const template = (found: AchievementsSearchResult, token: string) =>
    form<TemplateDetailsResult>(
      API_ROUTES.certificateTemplate,
      { achievement_id: String(grandSlam), ...Object.fromEntries(found.pairs.map((p) => [`selected_photos[${p.event_id}]`, String(p.photos[0].id)])) },
      token,
    );
  const upload = async (token: string) =>
    form<CertificateUploadResult>(
      API_ROUTES.certificateUpload,
      { achievement_id: String(grandSlam) },
      token,
      await sharp({ create: { width: 3840, height: 2560, channels: 3, background: '#f4efe2' } })
        .jpeg()
        .toBuffer(),
    );
  const record = (token: string) => form<{ downloads: number }>(API_ROUTES.certificateDownloadRecord, { achievement_id: String(grandSlam) }, token);
  const stored = async () => (await t.ctx.db.query<{ n: number }>('select count(*)::int as n from certificate_runs where certificate_key is not null'))[0].n;
  /** Certificate renditions made of the slam BIBs' photos (made on first hand-out only). */
  const renditions = async () => {
    const rows = await t.ctx.db.query<{ original_key: string }>(
      `select p.original_key from photos p join photo_bibs b on b.photo_id = p.id where b.bib_number = any($1::text[])`,
      [SLAM.map(([, bib]) => bib)],
    );
    const made = await Promise.all(
      rows.map((r) => t.ctx.storage.exists(r.original_key.replace(/^originals\//, 'certificate-photos/').replace(/\.[a-z0-9]+$/i, '.jpg'))),
    );
    return made.filter(Boolean).length;
  };

  const paidOrder = (event: string, bib: string, owner: OrderOwner) => paidOrderOfBib(t.ctx, ids.get(event)!, bib, owner);
  const sessionIdOf = (token: string) => sessionIdOfToken(t.ctx, token);

  /** Every photo link an answer holds is a watermarked preview or thumbnail, never an original or the certificate rendition. */
  async function expectPreviewsOnly(found: AchievementsSearchResult, details: TemplateDetailsResult): Promise<void> {
    expect(found.pairs.map((p) => p.photos_usable)).toEqual([false, false, false]);
    const links = [
      ...found.pairs.flatMap((p) => p.photos.flatMap((photo) => [photo.s3, photo.image])),
      ...details.photos.flatMap((p) => [p.s3, p.image, p.high_res_url!]),
    ];
    for (const link of links) expect(decodeURIComponent(new URL(link).pathname)).toMatch(/^\/media\/(previews|thumbs)\//);
    for (const photo of details.photos) {
      expect(photo.usable).toBe(false);
      expect(photo.high_res_url).toBe(photo.s3);
      // The bytes handed out are the stored watermarked preview's.
      const [row] = await t.ctx.db.query<{ preview_key: string }>('select preview_key from photos where id = $1', [photo.id]);
      const served = Buffer.from(await (await fetch(photo.high_res_url!)).arrayBuffer());
      expect(served.equals(await t.ctx.storage.getBuffer(row.preview_key))).toBe(true);
    }
  }

  beforeAll(async () => {
    t = await startTestApp({ searchSessionMinutes: 120 });
    await seedDemo(t.ctx, { photos: 'small' });
    const list = await t.request<EventNamesResult>('GET', API_ROUTES.eventNames);
    for (const e of list.body.result.events) ids.set(e.event_name, e.event_id);
    grandSlam = (await t.ctx.db.query<{ id: number }>('select id from achievements where title = $1', [GRAND_SLAM]))[0].id;
    priyaId = (await t.ctx.db.query<{ id: number }>('select id from users where email = $1', [RUNNER_EMAIL]))[0].id;
    // The demo account's address is not proven in this database: only what it placed itself is its own.
    await t.ctx.db.query('update users set email_verified_at = null where id = $1', [priyaId]);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('signed out: watermarked previews from every call, the upload refused, nothing stored', async () => {
    const token = await visitorToken();
    const found = await search(token);
    expect(found.status).toBe(200);
    const details = await template(found.body.result, token);
    expect(details.status).toBe(200);
    await expectPreviewsOnly(found.body.result, details.body.result);
    const refused = await upload(token);
    expect(`${refused.status} ${refused.body.Message}`).toBe(`403 ${CERTIFICATE_MESSAGES.buyFirst(MUMBAI, 'TT20608')}`);
    expect((await record(token)).status).toBe(409);
    expect(await stored()).toBe(0);
    expect(await renditions()).toBe(0);
  });

  it('signed in as another runner (who bought other BIBs): previews only, the upload refused', async () => {
    const otherId = await createUser(t.ctx.db, {
      firstName: 'Meera',
      lastName: 'Iyer',
      email: 'meera@example.com',
      password: 'Finish@2026',
      primaryPhone: '9811111111',
      emailVerified: true,
    });
    const { token } = await createSession(t.ctx.db, otherId);
    await paidOrder(MUMBAI, 'TT20609', { userId: otherId, placedByUserId: otherId, placedSessionId: await sessionIdOf(token), email: 'meera@example.com' });
    // A guest order of Priya's BIB placed in some other session is not this session's either.
    await paidOrder(AHMEDABAD, 'AR40608', {
      userId: null,
      placedByUserId: null,
      placedSessionId: await sessionIdOf(await visitorToken()),
      email: 'someone@example.com',
    });
    const found = await search(token);
    const details = await template(found.body.result, token);
    await expectPreviewsOnly(found.body.result, details.body.result);
    expect((await upload(token)).status).toBe(403);
    expect(await stored()).toBe(0);
    expect(await renditions()).toBe(0);
  });

  it('an order under the runner’s address placed by someone signed out counts only once the address is proven', async () => {
    const { token } = await createSession(t.ctx.db, priyaId);
    await paidOrder(MUMBAI, 'TT20608', { userId: priyaId, placedByUserId: null, placedSessionId: null, email: RUNNER_EMAIL });
    expect((await search(token)).body.result.pairs.map((p) => p.photos_usable)).toEqual([false, false, false]);
    await t.ctx.db.query('update users set email_verified_at = now() where id = $1', [priyaId]);
    try {
      expect((await search(token)).body.result.pairs.map((p) => p.photos_usable)).toEqual([true, false, false]);
    } finally {
      await t.ctx.db.query('update users set email_verified_at = null where id = $1', [priyaId]);
    }
  });

  it('the runner with the right to every BIB (bought signed in, bought as a guest in this session, verified by OTP) gets the print-size photos and stores the certificate', async () => {
    const visitor = await visitorToken();
    const { token } = await createSession(t.ctx.db, priyaId);
    // Mumbai: bought signed in to the account. Ahmedabad: bought as a guest in the visitor's session, which then signed in (carried over below). Jaipur: OTP verified.
    await paidOrder(MUMBAI, 'TT20608', { userId: priyaId, placedByUserId: priyaId, placedSessionId: await sessionIdOf(token), email: RUNNER_EMAIL });
    const guestSession = await sessionIdOf(visitor);
    await paidOrder(AHMEDABAD, 'AR40608', { userId: null, placedByUserId: null, placedSessionId: guestSession, email: 'priya.other@example.com' });
    await t.ctx.db.query('insert into session_verified_bibs (session_id, event_id, bib_number) values ($1, $2, $3)', [
      guestSession,
      ids.get(JAIPUR),
      'JP60608',
    ]);

    // The guest's session: Ahmedabad and Jaipur are its own, Mumbai (bought by the account) is not.
    const asGuest = await search(visitor);
    expect(asGuest.body.result.pairs.map((p) => p.photos_usable)).toEqual([false, true, true]);
    expect((await template(asGuest.body.result, visitor)).body.result.photos.map((p) => p.usable)).toEqual([false, true, true]);
    expect((await upload(visitor)).body.Message).toBe(CERTIFICATE_MESSAGES.buyFirst(MUMBAI, 'TT20608'));

    // The signed-in account: Mumbai is its own; Jaipur's OTP was this session's too.
    await t.ctx.db.query('insert into session_verified_bibs (session_id, event_id, bib_number) values ($1, $2, $3)', [
      await sessionIdOf(token),
      ids.get(JAIPUR),
      'JP60608',
    ]);
    expect((await search(token)).body.result.pairs.map((p) => p.photos_usable)).toEqual([true, false, true]);
    await paidOrder(AHMEDABAD, 'AR40608', { userId: priyaId, placedByUserId: priyaId, placedSessionId: null, email: RUNNER_EMAIL });
    const found = await search(token);
    expect(found.body.result.pairs.map((p) => p.photos_usable)).toEqual([true, true, true]);
    const details = (await template(found.body.result, token)).body.result;
    for (const photo of details.photos) {
      expect(photo.usable).toBe(true);
      expect(decodeURIComponent(new URL(photo.high_res_url!).pathname)).toMatch(/^\/media\/certificate-photos\//);
      const size = await sharp(Buffer.from(await (await fetch(photo.high_res_url!)).arrayBuffer())).metadata();
      expect([size.width, size.height]).toEqual([1600, 1067]);
    }
    const done = await upload(token);
    expect(`${done.status} ${done.body.Message}`).toBe('200 Certificate uploaded successfully!');
    expect((await record(token)).body.result).toEqual({ downloads: 1 });
    expect(await stored()).toBe(1);
  });
});
