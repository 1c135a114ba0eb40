import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp, { type Sharp } from 'sharp';
import {
  API_ROUTES,
  type AchievementsSearchResult,
  type ApiEnvelope,
  type BibSearchResult,
  type CertificateUploadResult,
  type EventDetailsResponse,
  type EventNamesResult,
  type HomePageResult,
  type TemplateDetailsResult,
} from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { seedDemo } from '../src/seed/seedDemo';
import { GRAND_SLAM } from '../src/seed/demoData';
import { timedCertificates } from '../src/features/certificates';
import { paidOrderOfBib, sessionIdOf } from './certificateFixtures';

const MUMBAI = 'Mumbai Coastal Marathon 2026';
const AHMEDABAD = 'Ahmedabad Riverfront Half 2026';
const JAIPUR = 'Jaipur Pink City 10K 2026';
const SHELL = 'http://localhost:3000';

/**
 * The certificate calls as the builder makes them (multipart forms with the search session's token):
 * the demo runner's grand slam (TT20608, AR40608, JP60608) from search to the recorded download, the
 * refusals on the way, and what the BIB search and the ultra premium zip say about certificates.
 */
describe('achievement certificates', () => {
  let t: TestApp;
  const ids = new Map<string, number>();
  let grandSlam: number;

  /** A visitor's search session, as choosing an event on the home page makes one. */
  async function visitorToken(): Promise<string> {
    const res = await t.request<EventDetailsResponse>('POST', API_ROUTES.eventDetails, { eventID: ids.get(MUMBAI) });
    return res.body.result.session_token;
  }

  async function form<T>(route: string, fields: Record<string, string>, token: string | null, file?: { field: string; data: Buffer; type: string }) {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    if (file) body.append(file.field, new Blob([new Uint8Array(file.data)], { type: file.type }), 'certificate.jpg');
    const res = await fetch(`${t.url}${route}`, { method: 'POST', body, headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: res.status, body: (await res.json()) as ApiEnvelope<T> };
  }

  /** The four slots of the spec's form, unused ones empty. */
  function pairs(list: Array<[string, string]>): Record<string, string> {
    const fields: Record<string, string> = { page: '1' };
    for (let i = 0; i < 4; i++) {
      const [event, bib] = list[i] ?? ['', ''];
      fields[`event_bib_pairs[${i}][event_id]`] = event ? String(ids.get(event)) : '';
      fields[`event_bib_pairs[${i}][bib_number]`] = bib;
    }
    return fields;
  }
  const slam: Array<[string, string]> = [
    [MUMBAI, 'TT20608'],
    [JAIPUR, 'jp60608 '],
    [AHMEDABAD, 'AR40608'],
  ];
  const search = (list: Array<[string, string]>, token: string | null) => form<AchievementsSearchResult>(API_ROUTES.achievementsSearch, pairs(list), token);
  const chooseFirstPhotos = (found: AchievementsSearchResult, token: string) =>
    form<TemplateDetailsResult>(
      API_ROUTES.certificateTemplate,
      { achievement_id: String(grandSlam), ...Object.fromEntries(found.pairs.map((p) => [`selected_photos[${p.event_id}]`, String(p.photos[0].id)])) },
      token,
    );
  const jpeg = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#f4efe2' } })
      .jpeg({ quality: 95 })
      .toBuffer();
  const runs = () =>
    t.ctx.db.query<{ pairs: unknown; selected_photos: unknown; certificate_key: string | null }>(
      'select pairs, selected_photos, certificate_key from certificate_runs order by id',
    );

  beforeAll(async () => {
    t = await startTestApp({ searchSessionMinutes: 120 });
    await seedDemo(t.ctx, { photos: 'small' });
    const list = await t.request<EventNamesResult>('GET', API_ROUTES.eventNames);
    for (const e of list.body.result.events) ids.set(e.event_name, e.event_id);
    const [row] = await t.ctx.db.query<{ id: number }>('select id from achievements where title = $1', [GRAND_SLAM]);
    grandSlam = row.id;
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('the home page lists each achievement’s events in order (slam_events), the grand slam among them', async () => {
    const home = (await t.request<HomePageResult>('GET', API_ROUTES.homePage)).body.result;
    expect(home.slam_events?.[GRAND_SLAM]).toEqual([
      { event_id: ids.get(MUMBAI), event_name: MUMBAI, achievement_id: grandSlam },
      { event_id: ids.get(AHMEDABAD), event_name: AHMEDABAD, achievement_id: grandSlam },
      { event_id: ids.get(JAIPUR), event_name: JAIPUR, achievement_id: grandSlam },
    ]);
  });

  it('BIB search: the demo runner is eligible for the grand slam; a runner of one race only for that race’s finisher certificate, while it is on', async () => {
    const bibSearch = (bibNumber: string) => t.request<BibSearchResult>('POST', API_ROUTES.searchByBib, { eventID: ids.get(MUMBAI), bibNumber });
    expect((await bibSearch('TT20608')).body.result.achievementsEligibility).toEqual({
      certificate_eligible: true,
      certificate_url: null,
      achievement_id: grandSlam,
    });
    const [mumbai] = await t.ctx.db.query<{ id: number }>('select id from achievements where finisher_event_id = $1', [ids.get(MUMBAI)]);
    expect((await bibSearch('TT20609')).body.result.achievementsEligibility).toEqual({
      certificate_eligible: true,
      certificate_url: null,
      achievement_id: mumbai.id,
    });
    await t.ctx.db.query('update achievements set active = false where id = $1', [mumbai.id]);
    try {
      expect((await bibSearch('TT20609')).body.result.achievementsEligibility).toEqual({
        certificate_eligible: false,
        certificate_url: null,
        achievement_id: null,
      });
    } finally {
      await t.ctx.db.query('update achievements set active = true where id = $1', [mumbai.id]);
    }
  });

  it('achievements search refuses what does not make a certificate, each with its message', async () => {
    const token = await visitorToken();
    const refused = async (list: Array<[string, string]>, who: string | null = token) => {
      const res = await search(list, who);
      return `${res.status} ${res.body.Message}`;
    };
    expect(await refused(slam, null)).toBe('401 Your search session has expired. Please search for your photos again.');
    expect(
      await refused([
        [MUMBAI, 'TT20608'],
        [MUMBAI, 'TT20609'],
      ]),
    ).toBe('400 Please select different events for each field');
    expect(
      await refused([
        [MUMBAI, 'TT20608'],
        [AHMEDABAD, '  '],
      ]),
    ).toBe('400 Please enter BIB number for field 2');
    expect(
      await refused([
        [MUMBAI, 'TT20608'],
        ['', 'AR40608'],
      ]),
    ).toBe('400 Please select an event for field 2');
    expect(
      await refused([
        [MUMBAI, 'TT20608'],
        [AHMEDABAD, 'AR40608'],
      ]),
    ).toBe(`400 The ${GRAND_SLAM} certificate needs a BIB for each of its races. Please add: ${JAIPUR}.`);
    expect(
      await refused([
        [MUMBAI, 'TT99999'],
        [AHMEDABAD, 'AR40608'],
        [JAIPUR, 'JP60608'],
      ]),
    ).toBe(`404 No photos found for the BIB in field 1 (${MUMBAI}). Please check the number and try again.`);
    expect(
      await refused([
        [MUMBAI, 'TT20609'],
        [AHMEDABAD, 'AR40608'],
        [JAIPUR, 'JP60608'],
      ]),
    ).toBe('400 The BIB numbers belong to different runners. Please check them and search again.');
    expect(
      await refused([
        [MUMBAI, 'TT20608'],
        ['Pune Hill Trail 2025', 'PT15001'],
      ]),
    ).toBe('400 These events do not make up one achievement. Please choose the events of one achievement.');

    await t.ctx.db.query(`update participants set finish_time = null where bib_number = 'JP60608'`);
    try {
      expect(await refused(slam)).toBe(
        `400 We have no official finish time for the BIB in field 2 (${JAIPUR}), so it does not count towards the achievement yet.`,
      );
    } finally {
      await t.ctx.db.query(`update participants set finish_time = '00:49:37' where bib_number = 'JP60608'`);
    }
    expect(await runs()).toEqual([]);
  });

  it('the demo runner’s grand slam: search, template details, upload, recorded download', async () => {
    const token = await visitorToken();
    // The runner bought a photo of each race in this session (as a guest): the builder may use their own photos.
    const placedSessionId = await sessionIdOf(t.ctx, token);
    for (const [event, bib] of slam)
      await paidOrderOfBib(t.ctx, ids.get(event)!, bib.trim().toUpperCase(), {
        userId: null,
        placedByUserId: null,
        placedSessionId,
        email: 'priya.guest@example.com',
      });
    const found = await search(slam, token);
    expect(found.status).toBe(200);
    const result = found.body.result;
    // In the achievement's order, whatever order the rows were in; BIBs as the results hold them.
    expect(result.pairs.map((p) => [p.event_name, p.bib_number, p.achievement_id])).toEqual([
      [MUMBAI, 'TT20608', grandSlam],
      [AHMEDABAD, 'AR40608', grandSlam],
      [JAIPUR, 'JP60608', grandSlam],
    ]);
    expect(result.pairs[0].pagination).toMatchObject({ current_page: 1, per_page: 50, total: 6 });
    expect(result.pairs[0].photos[0].participant_details).toEqual({ name: 'Priya Nair', finish_time: '03:58:41' });
    expect(result.achievement_details.events.map((e) => e.finish_time)).toEqual(['03:58:41', '01:56:12', '00:49:37']);
    expect(await runs()).toEqual([
      { pairs: result.pairs.map((p) => ({ event_id: p.event_id, bib_number: p.bib_number })), selected_photos: null, certificate_key: null },
    ]);

    // A photo of another BIB is refused; so is a choice that leaves an event out.
    const [other] = await t.ctx.db.query<{ id: number }>(`select photo_id as id from photo_bibs where bib_number = 'TT20609' limit 1`);
    const foreign = await form(
      API_ROUTES.certificateTemplate,
      {
        achievement_id: String(grandSlam),
        ...Object.fromEntries(result.pairs.map((p) => [`selected_photos[${p.event_id}]`, String(p.event_id === ids.get(MUMBAI) ? other.id : p.photos[0].id)])),
      },
      token,
    );
    expect(`${foreign.status} ${foreign.body.Message}`).toBe(
      `403 The photo chosen for ${MUMBAI} is not one of the photos of your BIB there. Please choose again.`,
    );
    const partial = await form(
      API_ROUTES.certificateTemplate,
      { achievement_id: String(grandSlam), [`selected_photos[${result.pairs[0].event_id}]`]: String(result.pairs[0].photos[0].id) },
      token,
    );
    expect(`${partial.status} ${partial.body.Message}`).toBe('400 Please select an image for each event.');
    // Another session cannot go on with this session's search.
    expect((await chooseFirstPhotos(result, await visitorToken())).body.Message).toBe('Please search for your events and BIB numbers first.');

    const uploadBefore = await form(API_ROUTES.certificateUpload, { achievement_id: String(grandSlam) }, token, {
      field: 'certificate_url',
      data: await jpeg(3840, 2560),
      type: 'image/jpeg',
    });
    expect(`${uploadBefore.status} ${uploadBefore.body.Message}`).toBe('409 Please choose and crop your photos first.');

    const template = await chooseFirstPhotos(result, token);
    expect(template.status).toBe(200);
    const details = template.body.result;
    expect(details.template.template_config.output_resolution).toEqual({ width: 3840, height: 2560 });
    expect(details.template.config.required_sequence).toEqual(result.pairs.map((p) => p.event_id));
    expect(details.template.template_config.images.map((slot) => slot.event_id)).toEqual(result.pairs.map((p) => p.event_id));
    expect(details.achievement_details).toMatchObject({ title: GRAND_SLAM, participant_name: 'Priya Nair' });
    // The template and the photos load on the shell's origin with the CORS header a canvas export needs.
    for (const url of [details.template.template_image, ...details.photos.map((p) => p.high_res_url!)]) {
      const media = await fetch(url, { headers: { origin: SHELL } });
      expect([media.status, media.headers.get('content-type'), media.headers.get('access-control-allow-origin')]).toEqual([200, 'image/jpeg', SHELL]);
    }
    const background = await sharp(Buffer.from(await (await fetch(details.template.template_image)).arrayBuffer())).metadata();
    expect([background.width, background.height]).toEqual([3840, 2560]);
    const highRes = await sharp(Buffer.from(await (await fetch(details.photos[0].high_res_url!)).arrayBuffer())).metadata();
    expect([highRes.width, highRes.height]).toEqual([1600, 1067]);

    // The upload: a JPEG of the template's size only.
    const upload = (data: Buffer, type = 'image/jpeg') =>
      form<CertificateUploadResult>(API_ROUTES.certificateUpload, { achievement_id: String(grandSlam) }, token, { field: 'certificate_url', data, type });
    const png = await sharp({ create: { width: 3840, height: 2560, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect((await upload(png)).body.Message).toBe('The certificate must be a JPEG image of 3840 by 2560 pixels.');
    expect((await upload(await jpeg(1920, 1280))).body.Message).toBe('The certificate must be a JPEG image of 3840 by 2560 pixels.');
    expect((await upload((await jpeg(3840, 2560)).subarray(0, 4000))).body.Message).toBe('The certificate must be a JPEG image of 3840 by 2560 pixels.');
    const record = () => form<{ downloads: number }>(API_ROUTES.certificateDownloadRecord, { achievement_id: String(grandSlam) }, token);
    expect(`${(await record()).status} ${(await record()).body.Message}`).toBe(
      '409 There is no uploaded certificate to download yet. Please press Download again.',
    );

    const certificate = await jpeg(3840, 2560);
    const stored = await upload(certificate);
    expect(`${stored.status} ${stored.body.Message}`).toBe('200 Certificate uploaded successfully!');
    const saved = Buffer.from(await (await fetch(stored.body.result.certificate_url, { headers: { origin: SHELL } })).arrayBuffer());
    expect(saved.equals(certificate)).toBe(true);
    expect((await record()).body.result).toEqual({ downloads: 1 });
    const [run] = await t.ctx.db.query<{ selected_photos: Record<string, number>; certificate_key: string; certificate_bytes: number; downloads: number }>(
      `select r.selected_photos, r.certificate_key, r.certificate_bytes, (select count(*)::int from certificate_downloads d where d.run_id = r.id) as downloads
         from certificate_runs r where r.certificate_key is not null`,
    );
    expect(run).toMatchObject({
      selected_photos: Object.fromEntries(result.pairs.map((p) => [String(p.event_id), p.photos[0].id])),
      certificate_bytes: certificate.length,
      downloads: 1,
    });
    expect(await t.ctx.storage.exists(run.certificate_key)).toBe(true);

    // The BIB search in the same session now points at that certificate; another session's does not.
    const again = await t.request<BibSearchResult>(
      'POST',
      API_ROUTES.searchByBib,
      { eventID: ids.get(MUMBAI), bibNumber: 'TT20608' },
      { authorization: `Bearer ${token}` },
    );
    expect(again.body.result.achievementsEligibility.certificate_url).toMatch(/\/media\/certificates\//);
    const elsewhere = await t.request<BibSearchResult>('POST', API_ROUTES.searchByBib, { eventID: ids.get(MUMBAI), bibNumber: 'TT20608' });
    expect(elsewhere.body.result.achievementsEligibility.certificate_url).toBeNull();
  });

  it('the server draws the timed certificates from the same template: the photo in its slot, at 3840 by 2560, another race’s only where the buyer bought it', async () => {
    const [photo] = await t.ctx.db.query<{ original_key: string }>(
      `select p.original_key from photos p join photo_bibs b on b.photo_id = p.id where b.bib_number = 'TT20608' and p.kind = 'image' order by p.seq limit 1`,
    );
    const certificates = await timedCertificates(
      t.ctx,
      { event_id: ids.get(MUMBAI)!, bib_number: 'TT20608', email: 'priya.guest@example.com' },
      photo.original_key,
    );
    expect(certificates.map((c) => c.name)).toEqual(['timed-certificate-TT20608.jpg', 'finishline-grand-slam-2026-certificate-TT20608.jpg']);
    const slamCertificate = certificates[1].data;
    expect(await sharp(slamCertificate).metadata()).toMatchObject({ format: 'jpeg', width: 3840, height: 2560 });

    // The Mumbai slot holds the centred square of the photo: compare it with that square, scaled the same.
    const [{ template_config: config }] = await t.ctx.db.query<{
      template_config: { images: Array<{ event_id: number; x: number; y: number; width: number; height: number }> };
    }>('select template_config from achievements where id = $1', [grandSlam]);
    const slot = config.images.find((s) => s.event_id === ids.get(MUMBAI))!;
    const grey = (input: Sharp) => input.resize(64, 64).greyscale().raw().toBuffer();
    const drawn = await grey(sharp(slamCertificate).extract({ left: slot.x, top: slot.y, width: slot.width, height: slot.height }));
    const original = await t.ctx.storage.getBuffer(photo.original_key);
    const expected = await grey(sharp(original).extract({ left: (1600 - 1067) >> 1, top: 0, width: 1067, height: 1067 }));
    const difference = drawn.reduce((sum, value, i) => sum + Math.abs(value - expected[i]), 0) / drawn.length;
    expect(difference).toBeLessThan(8);
    // Ink where the runner's name is written (dark text on the light paper), none in the empty margin beside it.
    const darkPixels = async (left: number, top: number, width: number, height: number) => {
      const { data } = await sharp(slamCertificate).extract({ left, top, width, height }).greyscale().raw().toBuffer({ resolveWithObject: true });
      return data.filter((v) => v < 90).length;
    };
    expect(await darkPixels(1500, 720, 840, 130)).toBeGreaterThan(2000);
    expect(await darkPixels(180, 720, 500, 130)).toBe(0);

    // A buyer who did not buy the runner's Jaipur photos gets that slot empty: no original nobody paid for.
    const jaipurSlot = config.images.find((s) => s.event_id === ids.get(JAIPUR))!;
    /** Standard deviation of the slot's grey levels: a photo varies, an empty frame does not. */
    const slotSpread = async (certificate: Buffer) => {
      const grey = await sharp(certificate)
        .extract({ left: jaipurSlot.x, top: jaipurSlot.y, width: jaipurSlot.width, height: jaipurSlot.height })
        .greyscale()
        .raw()
        .toBuffer();
      const mean = grey.reduce((sum, v) => sum + v, 0) / grey.length;
      return Math.sqrt(grey.reduce((sum, v) => sum + (v - mean) ** 2, 0) / grey.length);
    };
    expect(await slotSpread(slamCertificate)).toBeGreaterThan(20);
    const [, notBought] = await timedCertificates(
      t.ctx,
      { event_id: ids.get(MUMBAI)!, bib_number: 'TT20608', email: 'someone.else@example.com' },
      photo.original_key,
    );
    expect(await slotSpread(notBought.data)).toBeLessThan(2);
  });
});
