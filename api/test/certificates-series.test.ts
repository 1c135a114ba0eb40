import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import {
  API_ROUTES,
  CERTIFICATE_SETTINGS_MESSAGES,
  SERIES_MESSAGES,
  type BibSearchResult,
  type CertificateBackgroundResult,
  type CertificatePreviewResult,
  type HomePageResult,
  type OrganiserSeries,
  type OrganiserSeriesList,
  standardTemplate,
} from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { as, seedOrganiserFixture, type OrganiserFixture } from './organiserFixtures';

/**
 * Series by organisers: an organiser groups two to four of their own races with results into a
 * series (its order, title, on or off); a runner who finished all of them (the same email in each)
 * is offered its certificate by the BIB search and finds it in the builder's list. Another
 * organiser's race is refused, and another organiser cannot see or change the series.
 */
describe("an organiser's series of their own races", () => {
  let t: TestApp;
  let f: OrganiserFixture;
  let secondRace: number;
  let noResultsRace: number;
  let rivalSecond: number;

  const save = (body: object, token = f.tokens.organiser) => t.request<OrganiserSeries>('POST', API_ROUTES.organiserSaveSeries, body, as(token));
  const list = (token = f.tokens.organiser) => t.request<OrganiserSeriesList>('POST', API_ROUTES.organiserSeries, {}, as(token));
  const race = async (name: string, organiser: number) =>
    (
      await t.ctx.db.query<{ id: number }>(
        `insert into events (name, from_date, to_date, organiser_user_id, published) values ($1, '2026-12-06', '2026-12-06', $2, true) returning id`,
        [name, organiser],
      )
    )[0]!.id;
  const finisher = (eventId: number, bib: string, time: string) =>
    t.ctx.db.query(
      `insert into participants (event_id, bib_number, name, email, finish_time) values ($1, $2, 'Asha Rao', 'asha.rao@example.com', $3::interval)`,
      [eventId, bib, time],
    );

  beforeAll(async () => {
    t = await startTestApp();
    f = await seedOrganiserFixture(t.ctx);
    secondRace = await race('Lakeside 10K 2026', f.users.organiser);
    noResultsRace = await race('Lakeside Night Run 2026', f.users.organiser);
    await finisher(f.eventId, f.bib, '01:52:07');
    await finisher(secondRace, 'TK7', '00:48:10');
    await finisher(f.rivalEventId, 'RR9', '02:10:00');
    rivalSecond = await race('Rival Ridge Night 2026', f.users.rival);
    await finisher(rivalSecond, 'RN1', '01:10:00');
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('refuses a series of one race, a race twice, another organiser’s race, a race without results; nothing is stored', async () => {
    const refused = async (body: object) => {
      const res = await save({ title: 'Lakeside Double', active: true, ...body });
      return `${res.status} ${res.body.Message}`;
    };
    expect(await refused({ eventIds: [f.eventId] })).toBe(`400 ${SERIES_MESSAGES.tooFew}`);
    expect(await refused({ eventIds: [f.eventId, f.eventId] })).toBe(`400 ${SERIES_MESSAGES.twice}`);
    expect(await refused({ eventIds: [f.eventId, secondRace, noResultsRace, f.rivalEventId, 999999] })).toBe(`400 ${SERIES_MESSAGES.tooMany}`);
    expect(await refused({ eventIds: [f.eventId, f.rivalEventId] })).toBe(`403 ${SERIES_MESSAGES.notYours}`);
    expect(await refused({ eventIds: [f.eventId, noResultsRace] })).toBe(`400 ${SERIES_MESSAGES.noResults('Lakeside Night Run 2026')}`);
    expect(await refused({ title: '  ', eventIds: [f.eventId, secondRace] })).toBe(`400 ${SERIES_MESSAGES.title}`);
    expect((await save({ title: 'Lakeside Double', active: true, eventIds: [f.eventId, secondRace] }, f.tokens.runner)).status).toBe(403);
    expect(await t.ctx.db.query('select id from achievements where organiser_user_id is not null')).toEqual([]);
  });

  it('saves a series in its order; a runner who finished both is offered its certificate, and the builder lists it', async () => {
    const saved = await save({ title: 'Lakeside Double', active: true, eventIds: [secondRace, f.eventId] });
    expect(`${saved.status} ${saved.body.Message}`).toBe(`200 ${SERIES_MESSAGES.saved}`);
    expect(saved.body.result).toMatchObject({
      title: 'Lakeside Double',
      active: true,
      events: [
        { event_id: secondRace, event_name: 'Lakeside 10K 2026' },
        { event_id: f.eventId, event_name: f.eventName },
      ],
    });
    const [row] = await t.ctx.db.query<{ organiser_user_id: number; template_config: { required_events: number[] } }>(
      'select organiser_user_id, template_config from achievements where id = $1',
      [saved.body.result.id],
    );
    expect(row!.organiser_user_id).toBe(f.users.organiser);

    const mine = (await list()).body.result;
    expect(mine.series.map((s) => s.title)).toEqual(['Lakeside Double']);
    expect(mine.races.map((r) => [r.event_name, r.has_results])).toEqual(
      expect.arrayContaining([
        ['Lakeside 10K 2026', true],
        ['Lakeside Night Run 2026', false],
        [f.eventName, true],
      ]),
    );
    expect(mine.races.some((r) => r.event_id === f.rivalEventId)).toBe(false);
    // The rival organiser sees none of it, and cannot change it.
    expect((await list(f.tokens.rival)).body.result.series).toEqual([]);
    expect((await save({ id: saved.body.result.id, title: 'Rival Takeover', active: false, eventIds: [f.eventId, secondRace] }, f.tokens.rival)).status).toBe(
      403,
    );
    const takeover = await save({ id: saved.body.result.id, title: 'Rival Takeover', active: false, eventIds: [f.rivalEventId, rivalSecond] }, f.tokens.rival);
    expect(`${takeover.status} ${takeover.body.Message}`).toBe(`404 ${SERIES_MESSAGES.notFound}`);
    expect((await t.ctx.db.query('select title, active from achievements where id = $1', [saved.body.result.id]))[0]).toEqual({
      title: 'Lakeside Double',
      active: true,
    });

    const search = await t.request<BibSearchResult>('POST', API_ROUTES.searchByBib, { eventID: f.eventId, bibNumber: f.bib });
    expect(search.body.result.achievementsEligibility).toMatchObject({ certificate_eligible: true, achievement_id: saved.body.result.id });
    const home = (await t.request<HomePageResult>('GET', API_ROUTES.homePage)).body.result;
    expect(home.slam_events?.['Lakeside Double']?.map((e) => e.event_id)).toEqual([secondRace, f.eventId]);

    // A second series may not take the title; turned off, the series is offered no more.
    const twin = await save({ title: 'Lakeside Double', active: true, eventIds: [f.eventId, secondRace] });
    expect(`${twin.status} ${twin.body.Message}`).toBe(`409 ${SERIES_MESSAGES.titleTaken}`);
    const off = await save({ id: saved.body.result.id, title: 'Lakeside Double', active: false, eventIds: [secondRace, f.eventId] });
    expect(`${off.status} ${off.body.Message}`).toBe(`200 ${SERIES_MESSAGES.savedOff}`);
    const after = await t.request<BibSearchResult>('POST', API_ROUTES.searchByBib, { eventID: f.eventId, bibNumber: f.bib });
    expect(after.body.result.achievementsEligibility.achievement_id).not.toBe(saved.body.result.id);
  });

  it('takes the series’ colour and an uploaded background, refuses a background that is no image or not the organiser’s, and previews with a runner who finished every race', async () => {
    const call = <T>(route: string, body: object, token = f.tokens.organiser) => t.request<T>('POST', route, body, as(token));
    const upload = (image: string, token = f.tokens.organiser) => call<CertificateBackgroundResult>(API_ROUTES.organiserSeriesBackground, { image }, token);
    const notImage = await upload(Buffer.from('%PDF-1.4 not an image').toString('base64'));
    expect(`${notImage.status} ${notImage.body.Message}`).toBe(`400 ${CERTIFICATE_SETTINGS_MESSAGES.background}`);
    expect((await upload(Buffer.from('x').toString('base64'), f.tokens.runner)).status).toBe(403);

    const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#224466' } })
      .png()
      .toBuffer();
    const good = await upload(`data:image/png;base64,${png.toString('base64')}`);
    expect(good.status).toBe(200);
    const key = good.body.result.background_key;
    expect(key).toMatch(new RegExp(`^public/certificates/backgrounds/series-${f.users.organiser}-[0-9a-f]{16}\\.jpg$`));
    expect(await sharp(await t.ctx.storage.getBuffer(key)).metadata()).toMatchObject({ format: 'jpeg', width: 3840, height: 2560 });
    // The rival's own upload is theirs: the organiser cannot save a series with it, nor a made-up key.
    const rivals = (await upload(`data:image/png;base64,${png.toString('base64')}`, f.tokens.rival)).body.result.background_key;
    const series = { title: 'Lakeside Colours', active: true, eventIds: [secondRace, f.eventId] };
    for (const foreign of [
      rivals,
      'public/certificates/backgrounds/series-1-0000000000000000.jpg',
      `public/certificates/backgrounds/${f.eventId}-0000000000000000.jpg`,
    ]) {
      const refused = await save({ ...series, background_key: foreign });
      expect(`${refused.status} ${refused.body.Message}`).toBe(`400 ${SERIES_MESSAGES.backgroundKey}`);
    }
    const badColour = await save({ ...series, accent_color: 'green' });
    expect(`${badColour.status} ${badColour.body.Message}`).toBe(`400 ${CERTIFICATE_SETTINGS_MESSAGES.colour}`);
    expect(await t.ctx.db.query('select id from achievements where title = $1', ['Lakeside Colours'])).toEqual([]);

    // Saved in green on the uploaded background: the builder and the zip draw the achievement's key and colour.
    const saved = await save({ ...series, accent_color: '#1F6F43', background_key: key });
    expect(saved.status).toBe(200);
    expect(saved.body.result).toMatchObject({ title: 'Lakeside Colours', accent_color: '#1f6f43', background_key: key });
    expect(saved.body.result.background_url).toContain(key);
    const [row] = await t.ctx.db.query<{ accent_color: string; template_image_key: string; template_config: { texts: Array<{ color: string }> } }>(
      'select accent_color, template_image_key, template_config from achievements where id = $1',
      [saved.body.result.id],
    );
    expect(row).toMatchObject({ accent_color: '#1f6f43', template_image_key: key });
    expect(row!.template_config.texts.some((text) => text.color.toLowerCase() === '#1f6f43')).toBe(true);
    // Back to the standard background: the key is cleared, the colour kept.
    const plain = await save({ ...series, id: saved.body.result.id, accent_color: '#1f6f43', background_key: null });
    expect(plain.body.result).toMatchObject({ accent_color: '#1f6f43', background_key: null, background_url: null });

    // The preview: Asha Rao finished both (the same email), in the series' order, on the uploaded background.
    const preview = await call<CertificatePreviewResult>(API_ROUTES.organiserSeriesPreview, { ...series, accent_color: '#1f6f43', background_key: key });
    expect(preview.status).toBe(200);
    expect(preview.body.result).toMatchObject({
      width: 960,
      height: 640,
      participant_name: 'Asha Rao',
      bib_number: `TK7, ${f.bib}`,
      finish_time: `00:48:10, 01:52:07`,
      with_photo: false,
    });
    const bytes = Buffer.from(preview.body.result.image.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
    const { data } = await sharp(bytes).extract({ left: 4, top: 4, width: 2, height: 2 }).raw().toBuffer({ resolveWithObject: true });
    expect([data[0], data[1], data[2]].map((c) => Math.round(c / 16))).toEqual([2, 4, 6]);
    // Nobody finished both of these: the preview says so and nothing changes.
    const loner = await race('Lakeside Trail 2026', f.users.organiser);
    await t.ctx.db.query(
      `insert into participants (event_id, bib_number, name, email, finish_time) values ($1, 'LT1', 'Vikram Das', 'vikram@example.com', '01:01:01')`,
      [loner],
    );
    const none = await call(API_ROUTES.organiserSeriesPreview, { ...series, eventIds: [f.eventId, loner] });
    expect(`${none.status} ${none.body.Message}`).toBe(`409 ${SERIES_MESSAGES.noFinisher}`);
    expect((await call(API_ROUTES.organiserSeriesPreview, { ...series, eventIds: [f.eventId, f.rivalEventId] })).status).toBe(403);
  });

  it('keeps the fields where the organiser placed them; refuses a field off the canvas, of another race, or photo slots that are not the races’, by name, and keeps the stored series', async () => {
    const series = { title: 'Lakeside Placed', active: true, eventIds: [secondRace, f.eventId] };
    const standard = standardTemplate({ title: series.title, eventIds: series.eventIds });
    const first = await save({ ...series, template_config: standard });
    expect(first.status).toBe(200);
    const id = first.body.result.id;
    const stored = async () =>
      (await t.ctx.db.query<{ template_config: unknown }>('select template_config from achievements where id = $1', [id]))[0]!.template_config;
    const before = await stored();

    const refused = async (template_config: object) => {
      const res = await save({ ...series, id, template_config });
      return `${res.status} ${res.body.Message}`;
    };
    const offCanvas = { ...standard, texts: standard.texts.map((item) => (item.field === 'participant_name' ? { ...item, x: 5000, y: 300 } : item)) };
    expect(await refused(offCanvas)).toBe('400 The field Name lies outside the certificate (3840 x 2560) at x 5000, y 300. Please move it onto the canvas.');
    const rivalTime = {
      ...standard,
      texts: [...standard.texts, { field: 'finish_time', event_id: f.rivalEventId, font_file: 'Montserrat-SemiBold.ttf', color: '#000000', x: 100, y: 100 }],
    };
    expect(await refused(rivalTime)).toBe(`400 ${SERIES_MESSAGES.otherRace('Time')}`);
    expect(await refused({ ...standard, images: standard.images.slice(0, 1) })).toBe(`400 ${SERIES_MESSAGES.slots}`);
    expect(await refused({ ...standard, images: [...standard.images].reverse().map((slot, i) => ({ ...slot, slot: i + 1 })) })).toBe(
      `400 ${SERIES_MESSAGES.slots}`,
    );
    expect(await stored()).toEqual(before);

    // Moved: the second photo slot and the name; the builder's template is the placed one.
    const placed = {
      ...standard,
      images: standard.images.map((slot) => (slot.slot === 2 ? { ...slot, x: 2400, y: 700 } : slot)),
      texts: standard.texts.map((item) => (item.field === 'participant_name' ? { ...item, x: 1000, y: 600 } : item)),
    };
    const moved = await save({ ...series, id, template_config: placed });
    expect(moved.status).toBe(200);
    expect(moved.body.result.template_config.images.find((slot) => slot.slot === 2)).toMatchObject({ event_id: f.eventId, x: 2400, y: 700 });
    expect(await stored()).toMatchObject({ texts: expect.arrayContaining([expect.objectContaining({ field: 'participant_name', x: 1000, y: 600 })]) });
    const listed = (await list()).body.result.series.find((s) => s.id === id)!;
    expect(listed.template_config.images.map((slot) => [slot.event_id, slot.x, slot.y])).toEqual(placed.images.map((slot) => [slot.event_id, slot.x, slot.y]));
  });
});
