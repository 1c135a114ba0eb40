import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, SERIES_MESSAGES, type BibSearchResult, type HomePageResult, type OrganiserSeries, type OrganiserSeriesList } from '@finishline/shared/pure';
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
    (await t.ctx.db.query<{ id: number }>(`insert into events (name, from_date, to_date, organiser_user_id, published) values ($1, '2026-12-06', '2026-12-06', $2, true) returning id`, [name, organiser]))[0]!.id;
  const finisher = (eventId: number, bib: string, time: string) =>
    t.ctx.db.query(`insert into participants (event_id, bib_number, name, email, finish_time) values ($1, $2, 'Asha Rao', 'asha.rao@example.com', $3::interval)`, [eventId, bib, time]);

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
    expect(saved.body.result).toMatchObject({ title: 'Lakeside Double', active: true, events: [{ event_id: secondRace, event_name: 'Lakeside 10K 2026' }, { event_id: f.eventId, event_name: f.eventName }] });
    const [row] = await t.ctx.db.query<{ organiser_user_id: number; template_config: { required_events: number[] } }>('select organiser_user_id, template_config from achievements where id = $1', [saved.body.result.id]);
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
    expect((await save({ id: saved.body.result.id, title: 'Rival Takeover', active: false, eventIds: [f.eventId, secondRace] }, f.tokens.rival)).status).toBe(403);
    const takeover = await save({ id: saved.body.result.id, title: 'Rival Takeover', active: false, eventIds: [f.rivalEventId, rivalSecond] }, f.tokens.rival);
    expect(`${takeover.status} ${takeover.body.Message}`).toBe(`404 ${SERIES_MESSAGES.notFound}`);
    expect((await t.ctx.db.query('select title, active from achievements where id = $1', [saved.body.result.id]))[0]).toEqual({ title: 'Lakeside Double', active: true });

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
});
