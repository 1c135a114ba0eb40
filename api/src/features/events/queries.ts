import {
  bibExampleLike,
  bibExampleOf,
  GST_PERCENT,
  type EventDetails,
  type EventPricing,
  type EventSummary,
  type EventThemes,
  type EventsByYear,
  type Flag,
  type HomePageResult,
  type PriceInfo,
  type PricingCatalog,
  type PrintProduct,
  type SponsorOffer,
} from '@finishline/shared/pure';
import type { Db } from '../../db/db';
import type { ObjectStorage } from '../../storage/storage';
import { heroImageOf, type StoredRenditions } from './homeImageRenditions';

/** One events row as the queries below select it (dates already as YYYY-MM-DD). */
export interface EventRow extends EventPricing {
  [column: string]: unknown;
  id: number;
  name: string;
  logo_key: string | null;
  from_date: string;
  to_date: string;
  location: string;
  issearchable: boolean;
  selfiesearch: boolean;
  preorder_allowed: boolean;
  showunlabeled: boolean;
  privacy_check: boolean;
  is_featured: boolean;
  theme_code: string | null;
  slam_key: string | null;
  /** The event's BIB format (anchored, case-insensitive), or null: any 1 to 12 letters and digits. */
  bib_pattern: string | null;
  /** One of the event's BIBs, only to shape an example BIB when the event has no format. */
  sample_bib: string | null;
}

export const EVENT_COLUMNS = `id, name, logo_key, to_char(from_date, 'YYYY-MM-DD') as from_date, to_char(to_date, 'YYYY-MM-DD') as to_date,
  location, issearchable, selfiesearch, preorder_allowed, showunlabeled, privacy_check, is_featured, theme_code, slam_key,
  single_photo_price, extra_photo_price, bundle_price, video_price, collage_price, threshold_photo_count,
  premium_pack_price, ultra_premium_pack_price, show_prempack, show_ultrapack, preorder_price, preorder_cut_price, bib_pattern,
  (select p.bib_number from participants p where p.event_id = events.id order by p.bib_number limit 1) as sample_bib`;

const flag = (value: boolean): Flag => (value ? 1 : 0);

/** Today's date in India (the shop's time zone), YYYY-MM-DD: an event starting today is not upcoming. */
export function todayInIndia(now = new Date()): string {
  return new Date(now.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}

export function toSummary(row: EventRow, storage: ObjectStorage): EventSummary {
  return {
    event_id: row.id,
    event_name: row.name,
    event_logo: row.logo_key ? storage.publicUrl(row.logo_key) : '',
    event_from_date: row.from_date,
    event_to_date: row.to_date,
    issearchable: flag(row.issearchable),
    selfiesearch: flag(row.selfiesearch),
    preorder_allowed: flag(row.preorder_allowed),
    showunlabeled: flag(row.showunlabeled),
    bib_example: bibExampleOf(row.bib_pattern) ?? bibExampleLike(row.sample_bib),
  };
}

export function toDetails(row: EventRow, storage: ObjectStorage): EventDetails {
  return {
    ...toSummary(row, storage),
    event_location: row.location,
    privacy_check: flag(row.privacy_check),
    threshold_photo_count: row.threshold_photo_count,
    theme_code: row.theme_code,
    is_featured: flag(row.is_featured),
    preorder_price: row.preorder_allowed ? row.preorder_price : null,
    preorder_cut_price: row.preorder_allowed ? row.preorder_cut_price : null,
  };
}

/** The event's copy prices as every search and the bill show them (GST from the shared pricing rules). */
export function priceInfoOf(event: EventRow): PriceInfo {
  return {
    single_photo: event.single_photo_price,
    extra_photo: event.extra_photo_price,
    five_or_more: event.bundle_price,
    video: event.video_price,
    collage: event.collage_price,
    gst_percent: GST_PERCENT,
  };
}

/** The pricing rules' view of an event: its prices and packages, print products and sponsor offer. */
export function pricingCatalogOf(event: EventRow, prints: PrintProduct[], offer: SponsorOffer | null): PricingCatalog {
  return {
    priceInfo: priceInfoOf(event),
    threshold_photo_count: event.threshold_photo_count,
    show_prempack: event.show_prempack,
    show_ultrapack: event.show_ultrapack,
    ultra_premium_pack: event.ultra_premium_pack_price,
    bundlePriceInfo: { price: event.bundle_price, Premium_Pack: event.premium_pack_price },
    printProductInfo: prints,
    sponsorOffer: offer,
  };
}

/**
 * Which events the public sees: published ones. An organiser's new event stays out of every listing,
 * search, cart, pre-order and theme until it is published (the organiser's own screens read it
 * through their own queries).
 */
export const PUBLISHED_SQL = 'published';

/** SQL: a published event as a JSON row, or null (the placeholder of its id): findEvent inside a larger statement. */
export const publishedEventJsonSql = (eventParam: string): string =>
  `(select row_to_json(e) from (select ${EVENT_COLUMNS} from events where id = ${eventParam} and ${PUBLISHED_SQL}) e)`;

/** A published event, or null: every public path (search, cart, OTP, pre-order, selfie) finds events here. */
export async function findEvent(db: Db, eventId: number): Promise<EventRow | null> {
  const rows = await db.query<EventRow>(`select ${EVENT_COLUMNS} from events where id = $1 and ${PUBLISHED_SQL}`, [eventId]);
  return rows[0] ?? null;
}

/**
 * Every event for the autocomplete, which offers search where issearchable=1: searchable events
 * first, newest first, so the first one (stored by the browser as the recent event) can be searched.
 */
export async function listEvents(db: Db): Promise<EventRow[]> {
  return db.query<EventRow>(`select ${EVENT_COLUMNS} from events where ${PUBLISHED_SQL} order by issearchable desc, from_date desc, id desc`, [], {
    name: 'event-list',
  });
}

function byYear(rows: EventRow[], storage: ObjectStorage): EventsByYear {
  const grouped: EventsByYear = {};
  for (const row of rows) {
    const year = row.from_date.slice(0, 4);
    (grouped[year] ??= []).push(toSummary(row, storage));
  }
  return grouped;
}

/**
 * Everything the home page reads, in one statement (one round trip, prepared once per connection):
 * the published events newest first (from_date is YYYY-MM-DD, so its text orders as the date), the
 * active home images, and the certificate builder's events (slam_events): each active achievement's
 * events in their required order (migration 700; the achievements replaced events.slam_key), and
 * the races whose finisher certificate is on (migration 711).
 */
const HOME_SQL = `
  select
    (select coalesce(json_agg(e order by e.from_date desc, e.id desc), '[]') from (select ${EVENT_COLUMNS} from events where ${PUBLISHED_SQL}) e) as events,
    (select coalesce(json_agg(i order by i.sort, i.id), '[]') from (select id, kind, image_key, alt, sort, renditions from home_images where active) i) as images,
    (select coalesce(json_agg(c order by c.achievement_id, c.seq, c.event_id), '[]') from (
       select a.title, a.id as achievement_id, ae.seq, e.id as event_id, e.name as event_name, a.finisher_event_id is not null as finisher
         from achievements a
         join achievement_events ae on ae.achievement_id = a.id
         join events e on e.id = ae.event_id
        where a.active) c) as certificate_events`;

interface HomeRow {
  [column: string]: unknown;
  events: EventRow[];
  images: Array<{ id: number; kind: string; image_key: string; alt: string; renditions: StoredRenditions | null }>;
  certificate_events: Array<{ title: string; achievement_id: number; event_id: number; event_name: string; finisher: boolean }>;
}

export async function homePage(db: Db, storage: ObjectStorage, today = todayInIndia()): Promise<HomePageResult> {
  const [{ events, images, certificate_events }] = (await db.query<HomeRow>(HOME_SQL, [], { name: 'home' })) as [HomeRow];
  const past = events.filter((e) => e.from_date <= today);
  const upcoming = events.filter((e) => e.from_date > today).sort((a, b) => a.from_date.localeCompare(b.from_date));
  const hero = images.find((i) => i.kind === 'hero');
  const slamEvents: NonNullable<HomePageResult['slam_events']> = {};
  const finisherEvents: NonNullable<HomePageResult['finisher_events']> = [];
  for (const row of certificate_events) {
    const item = { event_id: row.event_id, event_name: row.event_name, achievement_id: row.achievement_id };
    if (row.finisher) finisherEvents.push(item);
    else (slamEvents[row.title] ??= []).push(item);
  }
  return {
    past_event: byYear(past, storage),
    feature_event: byYear(
      past.filter((e) => e.is_featured),
      storage,
    ),
    upcoming_event: upcoming.map((e) => toSummary(e, storage)),
    highlight_season: images.filter((i) => i.kind === 'highlight').map((i) => ({ id: i.id, s3: storage.publicUrl(i.image_key) })),
    hero_image: hero ? heroImageOf(hero, storage) : { image: '', alt: '' },
    slam_events: slamEvents,
    finisher_events: finisherEvents,
  };
}

/** The themes and the years of published events, in one statement (the event list's filters). */
const THEMES_SQL = `
  select
    (select coalesce(json_agg(t order by t.sort, t.evtcode), '[]') from (select code as evtcode, name as evtname, sort from event_themes) t) as themes,
    (select coalesce(json_agg(y.evtyear order by y.evtyear desc), '[]') from (select distinct extract(year from from_date)::int as evtyear from events where ${PUBLISHED_SQL}) y) as years`;

export async function eventThemes(db: Db): Promise<EventThemes> {
  const [found] = (await db.query<{ themes: Array<{ evtcode: string; evtname: string }>; years: number[] }>(THEMES_SQL, [], { name: 'event-themes' })) as [
    { themes: Array<{ evtcode: string; evtname: string }>; years: number[] },
  ];
  return { evtthemes: found.themes.map(({ evtcode, evtname }) => ({ evtcode, evtname })), evtyears: found.years.map((evtyear) => ({ evtyear })) };
}

/** Events of one theme code (MAR, HALF...) or of one year ("2025"), newest first. */
export async function eventsByThemeOrYear(db: Db, searchtxt: string): Promise<EventRow[]> {
  if (/^\d{4}$/.test(searchtxt)) {
    return db.query<EventRow>(
      `select ${EVENT_COLUMNS} from events where ${PUBLISHED_SQL} and extract(year from from_date)::int = $1 order by from_date desc, id desc`,
      [Number(searchtxt)],
      { name: 'events-of-year' },
    );
  }
  return db.query<EventRow>(
    `select ${EVENT_COLUMNS} from events where ${PUBLISHED_SQL} and upper(theme_code) = upper($1) order by from_date desc, id desc`,
    [searchtxt],
    {
      name: 'events-of-theme',
    },
  );
}
