import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API_ROUTES,
  type EventDetailsResponse,
  type EventNamesResult,
  type EventSummary,
  type EventThemes,
  type HomePageResult,
  type MasterConfig,
} from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { seedDemo } from '../src/seed/seedDemo';
import { EVENTS, METRO_SLAM } from '../src/seed/demoData';
import { createSession, findSession } from '../src/features/accounts/sessions';
import { countryOfAddress, isPrivateAddress } from '../src/features/events/masterConfig';
import { todayInIndia } from '../src/features/events/queries';
import { ensureHomeImageRenditions } from '../src/features/events';
import sharp from 'sharp';

describe('event discovery', () => {
  let t: TestApp;
  let events: EventSummary[];
  const idOf = (name: string) => events.find((e) => e.event_name === name)!.event_id;

  beforeAll(async () => {
    t = await startTestApp();
    await seedDemo(t.ctx, { photos: 'small' });
    const res = await t.request<EventNamesResult>('GET', API_ROUTES.eventNames);
    events = res.body.result.events;
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('lists every event for the autocomplete, searchable ones first and newest first, with the spec flags and country codes (India +91 first)', async () => {
    const res = await t.request<EventNamesResult>('GET', API_ROUTES.eventNames);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ StatusCode: 200, HasError: false, Message: 'Success' });
    const { events: list, country_codes } = res.body.result;
    expect(list).toHaveLength(EVENTS.length);
    const searchable = list.filter((e) => e.issearchable === 1);
    expect(list.slice(0, searchable.length)).toEqual(searchable);
    expect(list[0].event_name).toBe('Jaipur Pink City 10K 2026');
    for (const group of [searchable, list.slice(searchable.length)]) {
      const dates = group.map((e) => e.event_from_date);
      expect(dates).toEqual([...dates].sort().reverse());
    }
    const main = list.find((e) => e.event_name === 'Mumbai Coastal Marathon 2026')!;
    expect(main).toMatchObject({ issearchable: 1, selfiesearch: 1, preorder_allowed: 1, showunlabeled: 1, event_from_date: '2026-01-18' });
    expect(main.event_logo).toMatch(/\/media\/public\/logos\/mcm26\.png$/);
    const logo = await fetch(main.event_logo);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect((await logo.arrayBuffer()).byteLength).toBeGreaterThan(100);
    expect(list.filter((e) => e.issearchable === 1).length).toBeGreaterThan(5);
    expect(list.find((e) => e.event_name === 'Mumbai Coastal Marathon 2027')).toMatchObject({ issearchable: 0, preorder_allowed: 1 });
    expect(country_codes[0]).toEqual({ country: 'India', iso: 'IN', code: '+91' });
    expect(country_codes.map((c) => c.code)).toEqual(expect.arrayContaining(['+1', '+44', '+971', '+65', '+977']));
  });

  it("gives each event an example BIB for the search box's hint: from its BIB format, else shaped like its BIBs, never a real one", async () => {
    const byName = (name: string) => events.find((e) => e.event_name === name)!;
    expect(byName('Mumbai Coastal Marathon 2026').bib_example).toBe('TT20608');
    expect(byName('Ahmedabad Riverfront Half 2026').bib_example).toBe('AR20608');
    await t.ctx.db.query(`update events set bib_pattern = '^AHM\\d{3}$' where id = $1`, [idOf('Ahmedabad Riverfront Half 2026')]);
    const res = await t.request<EventNamesResult>('GET', API_ROUTES.eventNames);
    expect(res.body.result.events.find((e) => e.event_name === 'Ahmedabad Riverfront Half 2026')!.bib_example).toBe('AHM206');
    await t.ctx.db.query('update events set bib_pattern = null where id = $1', [idOf('Ahmedabad Riverfront Half 2026')]);
    const realBibs = (await t.ctx.db.query<{ bib_number: string }>('select bib_number from participants')).map((r) => r.bib_number);
    for (const event of events.filter((e) => e.bib_example && !e.bib_example.startsWith('TT'))) expect(realBibs).not.toContain(event.bib_example);
  });

  it('serves the home page: past and featured events keyed by year, upcoming events in the future, highlights, hero and slams', async () => {
    const res = await t.request<HomePageResult>('GET', API_ROUTES.homePage);
    expect(res.status).toBe(200);
    const home = res.body.result;
    const today = todayInIndia();
    expect(Object.keys(home.past_event).sort()).toEqual(['2023', '2024', '2025', '2026']);
    for (const [year, list] of Object.entries(home.past_event)) {
      for (const e of list) {
        expect(e.event_from_date.startsWith(year)).toBe(true);
        expect(e.event_from_date <= today).toBe(true);
      }
    }
    const featuredNames = Object.values(home.feature_event)
      .flat()
      .map((e) => e.event_name);
    expect(featuredNames).toEqual(expect.arrayContaining(['Mumbai Coastal Marathon 2026', 'Delhi Winter Half 2024', 'Hyderabad Lakes Marathon 2023']));
    expect(featuredNames).not.toContain('Kolkata Heritage 10K 2023');
    expect(Object.keys(home.feature_event).length).toBeGreaterThanOrEqual(3);

    expect(home.upcoming_event.length).toBeGreaterThanOrEqual(3);
    const upcomingDates = home.upcoming_event.map((e) => e.event_from_date);
    expect(upcomingDates.every((d) => d > today)).toBe(true);
    expect(upcomingDates).toEqual([...upcomingDates].sort());
    expect(home.upcoming_event.some((e) => e.preorder_allowed === 1)).toBe(true);

    expect(home.highlight_season).toHaveLength(6);
    for (const item of [...home.highlight_season.map((h) => h.s3), home.hero_image.image]) {
      const media = await fetch(item);
      expect(media.status).toBe(200);
      expect(media.headers.get('content-type')).toBe('image/jpeg');
      expect((await media.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    expect(home.hero_image.alt).toContain('Mumbai Coastal Marathon 2026');
    expect(home.slam_events?.[METRO_SLAM].map((e) => e.event_name)).toEqual([
      'Hyderabad Lakes Marathon 2023',
      'Delhi Winter Half 2024',
      'Bengaluru Heritage Half 2025',
      'Mumbai Coastal Marathon 2026',
    ]);
  });

  it('gives the hero in WebP and JPEG at the widths a phone or a desktop needs, made once and kept in storage', async () => {
    const { hero_image: hero } = (await t.request<HomePageResult>('GET', API_ROUTES.homePage)).body.result;
    expect({ width: hero.width, height: hero.height }).toEqual({ width: 1920, height: 800 });
    expect(hero.sources?.map((source) => source.type)).toEqual(['image/webp', 'image/jpeg']);
    for (const source of hero.sources ?? []) {
      const candidates = source.srcset.split(', ').map((candidate) => candidate.split(' '));
      expect(candidates.map(([, width]) => width)).toEqual(['480w', '720w', '960w', '1280w', '1920w']);
      for (const [url, width] of candidates) {
        const media = await fetch(url);
        expect(media.headers.get('content-type')).toBe(source.type);
        const file = Buffer.from(await media.arrayBuffer());
        const size = await sharp(file).metadata();
        expect([`${size.width}w`, size.format]).toEqual([width, source.type === 'image/webp' ? 'webp' : 'jpeg']);
      }
    }
    // A 720 px wide WebP is a fraction of the 1920 px original a phone used to download.
    const original = (await (await fetch(hero.image)).arrayBuffer()).byteLength;
    const phone = (await (await fetch(hero.sources![0].srcset.split(', ')[1].split(' ')[0])).arrayBuffer()).byteLength;
    expect(phone).toBeLessThan(original / 3);
    // Made once: a later start finds nothing to do, and the answer names the same files.
    expect(await ensureHomeImageRenditions(t.ctx.db, t.ctx.storage, () => undefined)).toBe(0);
    expect((await t.request<HomePageResult>('GET', API_ROUTES.homePage)).body.result.hero_image).toEqual(hero);
  });

  it('lists themes and years for the advanced search, and the events of a theme or a year', async () => {
    const res = await t.request<EventThemes>('GET', API_ROUTES.eventThemes);
    expect(res.body.result.evtthemes).toEqual([
      { evtcode: 'MAR', evtname: 'Marathon' },
      { evtcode: 'HALF', evtname: 'Half marathon' },
      { evtcode: 'TENK', evtname: '10K run' },
      { evtcode: 'TRAIL', evtname: 'Trail run' },
    ]);
    expect(res.body.result.evtyears).toEqual([{ evtyear: 2027 }, { evtyear: 2026 }, { evtyear: 2025 }, { evtyear: 2024 }, { evtyear: 2023 }]);

    const trail = await t.request<EventSummary[]>('POST', API_ROUTES.multiEventList, { searchtxt: 'trail' });
    expect(trail.status).toBe(200);
    expect(trail.body.result.map((e) => e.event_name)).toEqual([
      'Sahyadri Monsoon Trail 2027',
      'Nilgiris Forest Trail 2026',
      'Pune Hill Trail 2025',
      'Shimla Ridge Run 2023',
    ]);
    const year = await t.request<EventSummary[]>('POST', API_ROUTES.multiEventList, { searchtxt: '2024' });
    expect(year.body.result.map((e) => e.event_name)).toEqual(['Delhi Winter Half 2024', 'Kochi Backwaters Marathon 2024', 'Chennai Marina 10K 2024']);

    const empty = await t.request('POST', API_ROUTES.multiEventList, { searchtxt: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ HasError: true, Message: 'Please choose a theme or a year.' });
  });

  it('returns event details with a new anonymous search session, or the caller’s own session', async () => {
    const eventID = idOf('Bengaluru Heritage Half 2025');
    const first = await t.request<EventDetailsResponse>('POST', API_ROUTES.eventDetails, { eventID, eventName: 'Bengaluru Heritage Half 2025' });
    expect(first.status).toBe(200);
    expect(first.body.result.event).toMatchObject({
      event_id: eventID,
      event_name: 'Bengaluru Heritage Half 2025',
      event_location: 'Bengaluru, Karnataka',
      privacy_check: 1,
      issearchable: 1,
      selfiesearch: 0,
      theme_code: 'HALF',
      threshold_photo_count: 10,
    });
    const token = first.body.result.session_token;
    expect(token.length).toBeGreaterThanOrEqual(32);
    const session = await findSession(t.ctx.db, token);
    expect(session).toMatchObject({ userId: null });
    const stored = await t.ctx.db.query<{ token_hash: string }>('select token_hash from sessions where id = $1', [session!.id]);
    expect(stored[0].token_hash).not.toBe(token);

    const again = await t.request<EventDetailsResponse>('POST', API_ROUTES.eventDetails, { eventID, sessionToken: token });
    expect(again.body.result.session_token).toBe(token);
    const own = await createSession(t.ctx.db, null);
    const viaHeader = await t.request<EventDetailsResponse>('POST', API_ROUTES.eventDetails, { eventID }, { authorization: `Bearer ${own.token}` });
    expect(viaHeader.body.result.session_token).toBe(own.token);
    const unknown = await t.request<EventDetailsResponse>('POST', API_ROUTES.eventDetails, { eventID, sessionToken: 'not-a-real-token' });
    expect(unknown.body.result.session_token).not.toBe('not-a-real-token');
    expect(await findSession(t.ctx.db, unknown.body.result.session_token)).not.toBeNull();

    const preorder = await t.request<EventDetailsResponse>('POST', API_ROUTES.eventDetails, { eventID: idOf('Mumbai Coastal Marathon 2027') });
    expect(preorder.body.result.event).toMatchObject({ issearchable: 0, preorder_allowed: 1, preorder_price: 499, preorder_cut_price: 999 });
  });

  it('answers bad event details input with a clear 400', async () => {
    const missing = await t.request('POST', API_ROUTES.eventDetails, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ StatusCode: 400, HasError: true, Message: 'Please choose an event.' });
    const text = await t.request('POST', API_ROUTES.eventDetails, { eventID: 'abc' });
    expect(text.body.Message).toBe('Please choose an event.');
    const unknown = await t.request('POST', API_ROUTES.eventDetails, { eventID: 999999 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.Message).toBe('We could not find this event. Please choose an event from the list.');
  });

  it('serves the master configuration: DISABLEPRINTS and +91 for a local caller', async () => {
    const res = await t.request<MasterConfig>('GET', API_ROUTES.masterConfig);
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ DISABLEPRINTS: [idOf('Pune Hill Trail 2025')], country: 'IN', country_calling_code: '+91' });
  });

  it('looks up the calling code of public addresses and treats private ones as India', async () => {
    expect(isPrivateAddress('127.0.0.1')).toBe(true);
    expect(isPrivateAddress('::ffff:192.168.1.20')).toBe(true);
    expect(isPrivateAddress('10.2.3.4')).toBe(true);
    expect(isPrivateAddress('172.20.0.5')).toBe(true);
    expect(isPrivateAddress('::1')).toBe(true);
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(await countryOfAddress('8.8.8.8')).toEqual({ country: 'US', country_calling_code: '+1' });
    expect(await countryOfAddress('192.168.0.7')).toEqual({ country: 'IN', country_calling_code: '+91' });
  }, 30_000);
});
