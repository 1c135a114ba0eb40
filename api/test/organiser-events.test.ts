import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import {
  API_ROUTES,
  type Bill,
  type EventChange,
  type EventNamesResult,
  type HomePageResult,
  type OrganiserEvent,
  type OrganiserEventForm,
  type PartnerEventOption,
} from '@finishline/shared/pure';
import { closeAll, startTestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS, type TestApp } from './support/testApp';
import { as, image, print, seedOrganiserFixture, type OrganiserFixture } from './organiserFixtures';
import { insertTestPhoto } from './support/photos';

/** A new race comes on board without a developer: the organiser creates, prices, switches and publishes it. */
export const NEW_EVENT: OrganiserEventForm = {
  name: 'Thar Desert Ultra 2027',
  from_date: '2027-02-06',
  to_date: '2027-02-07',
  location: 'Jaisalmer',
  theme_code: null,
  bib_pattern: '^TD\\d{4}$',
  single_photo_price: 120,
  extra_photo_price: 60,
  bundle_price: 550,
  video_price: 180,
  collage_price: 1179,
  print_prices: [],
  threshold_photo_count: 10,
  premium_pack_price: 449,
  ultra_premium_pack_price: 799,
  show_prempack: false,
  show_ultrapack: false,
  preorder_price: null,
  preorder_cut_price: null,
  sponsor_offer: null,
  partner_registration: false,
  issearchable: true,
  selfiesearch: false,
  showunlabeled: true,
  preorder_allowed: false,
  privacy_check: false,
  prints_disabled: false,
};

describe('organiser: their own events', () => {
  let t: TestApp;
  let f: OrganiserFixture;
  let created: OrganiserEvent;

  const names = async () => (await t.request<EventNamesResult>('GET', API_ROUTES.eventNames)).body.result.events.map((e) => e.event_name);
  const upcoming = async () => (await t.request<HomePageResult>('GET', API_ROUTES.homePage)).body.result.upcoming_event.map((e) => e.event_name);

  beforeAll(async () => {
    t = await startTestApp();
    f = await seedOrganiserFixture(t.ctx);
    await t.ctx.db.query(`insert into event_themes (code, name) values ('ULTRA', 'Ultra run')`);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('creates an event that stays hidden from every public listing until it is published', async () => {
    const res = await t.request<OrganiserEvent>('POST', API_ROUTES.organiserCreateEvent, { ...NEW_EVENT, theme_code: 'ULTRA' }, as(f.tokens.organiser));
    expect(res.status).toBe(200);
    expect(res.body.Message).toBe('The event is saved. It stays hidden until you publish it.');
    created = res.body.result;
    expect(created).toMatchObject({
      name: 'Thar Desert Ultra 2027',
      published: false,
      bib_pattern: '^TD\\d{4}$',
      single_photo_price: 120,
      theme_code: 'ULTRA',
      participants: 0,
      photos: 0,
    });
    const owner = await t.ctx.db.query<{ organiser_user_id: number; published: boolean }>('select organiser_user_id, published from events where id = $1', [
      created.event_id,
    ]);
    expect(owner[0]).toEqual({ organiser_user_id: f.users.organiser, published: false });

    expect(await names()).not.toContain('Thar Desert Ultra 2027');
    expect(await upcoming()).not.toContain('Thar Desert Ultra 2027');
    const byYear = await t.request<Array<{ event_name: string }>>('POST', API_ROUTES.multiEventList, { searchtxt: '2027' });
    expect(byYear.body.result.map((e) => e.event_name)).not.toContain('Thar Desert Ultra 2027');
    const themes = await t.request<{ evtyears: Array<{ evtyear: number }> }>('GET', API_ROUTES.eventThemes);
    expect(themes.body.result.evtyears.map((y) => y.evtyear)).not.toContain(2027);
    const details = await t.request('POST', API_ROUTES.eventDetails, { eventID: created.event_id });
    expect(details).toMatchObject({ status: 400, body: { Message: 'We could not find this event. Please choose an event from the list.' } });
    const search = await t.request('POST', API_ROUTES.searchByBib, { eventID: created.event_id, bibNumber: 'TD0001' });
    expect(search.status).toBe(400);
  });

  it('answers bad forms with the field’s message and saves nothing', async () => {
    const before = (await t.ctx.db.query<{ n: number }>('select count(*)::int as n from events'))[0]!.n;
    const cases: Array<[Partial<OrganiserEventForm>, string]> = [
      [{ bib_pattern: 'TD\\d{4}' }, 'The BIB format must describe the whole BIB: start it with ^ and end it with $.'],
      [{ bib_pattern: '^TD(\\d{4}$' }, 'The BIB format is not a valid pattern. Example: ^TT\\d{5}$ for TT and five digits.'],
      [{ to_date: '2027-02-05' }, 'The event cannot end before it starts.'],
      [{ preorder_allowed: true }, 'Please enter the pre-order price.'],
      [{ single_photo_price: -5 }, 'The price of one photo cannot be negative.'],
      [{ theme_code: 'NOPE' }, 'Please choose a theme from the list.'],
      [{ name: 'Lakeside Half 2026' }, 'An event with this name exists already. Please choose another name.'],
      [
        { sponsor_offer: { coupon_name: 'X1', sponsor_name: 'Club', description: '', discount_type: 'percent', discount_amount: 10, max_orders_allowed: 2 } },
        'The coupon name has at least 3 characters.',
      ],
    ];
    for (const [change, message] of cases) {
      const res = await t.request(
        'POST',
        API_ROUTES.organiserCreateEvent,
        { ...NEW_EVENT, name: change.name ?? `Case ${message.length}`, ...change },
        as(f.tokens.organiser),
      );
      expect({ status: res.status, message: res.body.Message }).toEqual({ status: 400, message });
    }
    expect((await t.ctx.db.query<{ n: number }>('select count(*)::int as n from events'))[0]!.n).toBe(before);
  });

  it('only an organiser creates events: a runner and a partner get 403, a visitor 401', async () => {
    expect((await t.request('POST', API_ROUTES.organiserCreateEvent, { ...NEW_EVENT, name: 'Runner Run' }, as(f.tokens.runner))).status).toBe(403);
    expect((await t.request('POST', API_ROUTES.organiserCreateEvent, { ...NEW_EVENT, name: 'Partner Run' }, as(f.tokens.partner))).status).toBe(403);
    expect((await t.request('POST', API_ROUTES.organiserCreateEvent, { ...NEW_EVENT, name: 'Visitor Run' })).status).toBe(401);
  });

  it('another organiser can neither read, edit, publish nor switch it', async () => {
    const id = created.event_id;
    for (const [route, body] of [
      [API_ROUTES.organiserEvent, { eventId: id }],
      [API_ROUTES.organiserUpdateEvent, { ...NEW_EVENT, eventId: id }],
      [API_ROUTES.organiserPublishEvent, { eventId: id }],
      [API_ROUTES.organiserEventSwitch, { eventId: id, name: 'selfiesearch', on: true }],
      [API_ROUTES.organiserEventChanges, { eventId: id }],
    ] as const) {
      expect((await t.request('POST', route, body, as(f.tokens.rival))).status).toBe(403);
      expect((await t.request('POST', route, body, as(f.tokens.runner))).status).toBe(403);
    }
    expect((await t.ctx.db.query<{ published: boolean }>('select published from events where id = $1', [id]))[0]!.published).toBe(false);
  });

  it('reads it back as the organiser edits it', async () => {
    const res = await t.request<OrganiserEvent>('POST', API_ROUTES.organiserEvent, { eventId: created.event_id }, as(f.tokens.organiser));
    expect(res.body.result).toMatchObject({
      ...NEW_EVENT,
      theme_code: 'ULTRA',
      event_id: created.event_id,
      published: false,
      published_at: null,
      print_catalogue: [{ print_product_id: f.printProductId, name: 'Magnet 4x6 inches', catalogue_price: 739, price: 739 }],
    });
  });

  it('opens photographer registration while the race is still hidden from runners, and closes it again', async () => {
    const offered = async () =>
      (await t.request<PartnerEventOption[]>('POST', API_ROUTES.partnerEvents, { search: 'Thar' }, as(f.tokens.partner))).body.result.map((e) => e.event_name);
    const lookup = async () => t.request('POST', API_ROUTES.partnerLookup, { eventId: created.event_id }, as(f.tokens.partner));
    expect(await offered()).toEqual([]);
    expect((await lookup()).body.Message).toBe('This event is not open to photographers.');

    const on = await t.request<OrganiserEvent>(
      'POST',
      API_ROUTES.organiserEventSwitch,
      { eventId: created.event_id, name: 'partner_registration', on: true },
      as(f.tokens.organiser),
    );
    expect(on.body.result).toMatchObject({ partner_registration: true, published: false });
    expect(await offered()).toEqual(['Thar Desert Ultra 2027']);
    expect((await lookup()).status).toBe(200);
    // Runners still do not see it.
    expect(await names()).not.toContain('Thar Desert Ultra 2027');
    const changes = await t.ctx.db.query<{ field: string; new_value: string }>(
      `select field, new_value from event_changes where event_id = $1 and field = 'partner_registration'`,
      [created.event_id],
    );
    expect(changes).toEqual([{ field: 'partner_registration', new_value: 'true' }]);

    await t.request('POST', API_ROUTES.organiserEventSwitch, { eventId: created.event_id, name: 'partner_registration', on: false }, as(f.tokens.organiser));
    expect(await offered()).toEqual([]);
  });

  it('publishes: the runner finds it on the home page and in the event list', async () => {
    const res = await t.request<OrganiserEvent>('POST', API_ROUTES.organiserPublishEvent, { eventId: created.event_id }, as(f.tokens.organiser));
    expect(res.body).toMatchObject({ Message: 'The event is published: runners find it on the home page.', result: { published: true } });
    expect(await names()).toContain('Thar Desert Ultra 2027');
    expect(await upcoming()).toContain('Thar Desert Ultra 2027');
  });

  it('the BIB format: the search refuses a number that cannot be a BIB of the event', async () => {
    const photo = await insertTestPhoto(t.ctx.db, { eventId: created.event_id, bib: 'TD0042', imageId: 'TD-1' });
    expect(photo).toBeGreaterThan(0);
    const wrong = await t.request('POST', API_ROUTES.searchByBib, { eventID: created.event_id, bibNumber: 'XX12' });
    expect(wrong.body).toMatchObject({
      StatusCode: 400,
      Message: 'This is not a BIB number of Thar Desert Ultra 2027. Please check the number on your BIB and try again.',
    });
    const right = await t.request('POST', API_ROUTES.searchByBib, { eventID: created.event_id, bibNumber: 'td0042' });
    expect(right.status).toBe(200);
  });

  it('a price change shows in the runner’s bill at once, prints at the event’s own price', async () => {
    const [photo] = await t.ctx.db.query<{ id: number }>(`select photo_id as id from photo_bibs where bib_number = 'TD0042'`);
    const bill = async () =>
      (
        await t.request<Bill>('POST', API_ROUTES.cartDetails, {
          eventId: created.event_id,
          bibNumber: 'TD0042',
          searchKind: 'bib',
          packageKind: null,
          lines: [image(photo!.id), print(photo!.id, f.printProductId)],
          sponsorofferID: null,
          discountedPhotoIds: [],
        })
      ).body.result;
    const before = await bill();
    expect(before.lines.map((l) => [l.kind, l.amount])).toEqual([
      ['images', 120],
      ['print', 739],
    ]);
    const saved = await t.request<OrganiserEvent>(
      'POST',
      API_ROUTES.organiserUpdateEvent,
      { ...NEW_EVENT, eventId: created.event_id, single_photo_price: 99, print_prices: [{ print_product_id: f.printProductId, price: 650 }] },
      as(f.tokens.organiser),
    );
    expect(saved.status).toBe(200);
    expect(saved.body.result.print_catalogue).toEqual([{ print_product_id: f.printProductId, name: 'Magnet 4x6 inches', catalogue_price: 739, price: 650 }]);
    const after = await bill();
    expect(after.lines.map((l) => [l.kind, l.amount, l.total])).toEqual([
      ['images', 99, 117],
      ['print', 650, 767],
    ]);
  });

  it('switches: each change recorded with who and when; prints disabled goes on DISABLEPRINTS', async () => {
    const on = await t.request<OrganiserEvent>(
      'POST',
      API_ROUTES.organiserEventSwitch,
      { eventId: created.event_id, name: 'prints_disabled', on: true },
      as(f.tokens.organiser),
    );
    expect(on.body.result.prints_disabled).toBe(true);
    const config = await t.request<{ DISABLEPRINTS: number[] }>('GET', API_ROUTES.masterConfig);
    expect(config.body.result.DISABLEPRINTS).toContain(created.event_id);
    await t.request('POST', API_ROUTES.organiserEventSwitch, { eventId: created.event_id, name: 'selfiesearch', on: true }, as(f.tokens.organiser));
    // The same value again changes nothing and records nothing.
    await t.request('POST', API_ROUTES.organiserEventSwitch, { eventId: created.event_id, name: 'selfiesearch', on: true }, as(f.tokens.organiser));
    const changes = (await t.request<EventChange[]>('POST', API_ROUTES.organiserEventChanges, { eventId: created.event_id }, as(f.tokens.organiser))).body
      .result;
    expect(changes.slice(0, 2)).toEqual([
      expect.objectContaining({ field: 'Search by selfie', old_value: 'false', new_value: 'true', changed_by: 'Olga Org (olga.org@example.com)' }),
      expect.objectContaining({ field: 'Prints disabled', old_value: 'false', new_value: 'true' }),
    ]);
    expect(changes.map((c) => c.field)).toEqual(expect.arrayContaining(['single_photo_price', 'print price: Magnet 4x6 inches', 'published', 'created']));
    expect(Date.now() - Date.parse(changes[0]!.changed_at)).toBeLessThan(60_000);
    const bad = await t.request('POST', API_ROUTES.organiserEventSwitch, { eventId: created.event_id, name: 'is_featured', on: true }, as(f.tokens.organiser));
    expect(bad.body.Message).toBe('Please choose a switch of the event.');
  });

  it('a sponsor offer set by the organiser is offered to runners; taking it away ends it', async () => {
    const offer = {
      coupon_name: 'THAR10',
      sponsor_name: 'Desert Co',
      description: '10% off photos',
      discount_type: 'percent' as const,
      discount_amount: 10,
      max_orders_allowed: 2,
    };
    const saved = await t.request<OrganiserEvent>(
      'POST',
      API_ROUTES.organiserUpdateEvent,
      { ...NEW_EVENT, eventId: created.event_id, sponsor_offer: offer },
      as(f.tokens.organiser),
    );
    expect(saved.body.result.sponsor_offer).toEqual(offer);
    const found = await t.request<{ sponsorOffer: { coupon_name: string } | null }>('POST', API_ROUTES.searchByBib, {
      eventID: created.event_id,
      bibNumber: 'TD0042',
    });
    expect(found.body.result.sponsorOffer?.coupon_name).toBe('THAR10');
    await t.request('POST', API_ROUTES.organiserUpdateEvent, { ...NEW_EVENT, eventId: created.event_id, sponsor_offer: null }, as(f.tokens.organiser));
    const gone = await t.request<{ sponsorOffer: unknown }>('POST', API_ROUTES.searchByBib, { eventID: created.event_id, bibNumber: 'TD0042' });
    expect(gone.body.result.sponsorOffer).toBeNull();
  });

  it('the logo: a PNG or JPEG becomes a public 400 px PNG; anything else is refused', async () => {
    const png = await sharp({ create: { width: 900, height: 300, channels: 3, background: '#0b5cad' } })
      .png()
      .toBuffer();
    const res = await t.request<OrganiserEvent>(
      'POST',
      API_ROUTES.organiserEventLogo,
      { eventId: created.event_id, image: `data:image/png;base64,${png.toString('base64')}` },
      as(f.tokens.organiser),
    );
    expect(res.status).toBe(200);
    const logo = await fetch(res.body.result.event_logo);
    expect(logo.status).toBe(200);
    expect((await sharp(Buffer.from(await logo.arrayBuffer())).metadata()).width).toBe(400);
    const bad = await t.request(
      'POST',
      API_ROUTES.organiserEventLogo,
      { eventId: created.event_id, image: Buffer.from('not an image').toString('base64') },
      as(f.tokens.organiser),
    );
    expect(bad.body.Message).toBe('Please choose a PNG or JPEG logo of at most 1 MB.');
  });
});
