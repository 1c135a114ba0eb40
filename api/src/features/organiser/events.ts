import crypto from 'node:crypto';
import sharp from 'sharp';
import {
  COURSE_MAP_MAX_BYTES,
  COURSE_MAP_MESSAGE,
  EVENT_LOGO_MAX_BYTES,
  EVENT_SWITCH_LABELS,
  type EventChange,
  type EventFormInput,
  type EventSwitch,
  type OrganiserEvent,
  type OrganiserEventForm,
  type OrganiserEventListRow,
  type OrganiserSponsorOffer,
} from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import type { Db } from '../../db/db';
import { AppError, badRequest } from '../../http/envelope';
import { disabledPrintEventIds, setPrintsDisabled } from '../../rules/prints';
import type { EventRow } from '../events';

/**
 * The organiser's own events: read, create (unpublished), edit, publish, flip a switch, set the logo.
 * Every change is recorded in event_changes with who made it and when. Callers have checked that
 * the organiser runs the event (requireEventOrganiser) or holds the role (create).
 */

/** The event's row as its organiser's screens read it: the public row and what only they see. */
interface EventRecord extends EventRow {
  course_map_key: string | null;
  partner_registration: boolean;
  published: boolean;
  published_at: Date | null;
  participants: number;
  photos: number;
}

/** Columns of events the form edits directly (switches and prints_disabled apart). */
const PLAIN_FIELDS = [
  'name',
  'from_date',
  'to_date',
  'location',
  'theme_code',
  'bib_pattern',
  'single_photo_price',
  'extra_photo_price',
  'bundle_price',
  'video_price',
  'collage_price',
  'threshold_photo_count',
  'premium_pack_price',
  'ultra_premium_pack_price',
  'show_prempack',
  'show_ultrapack',
  'preorder_price',
  'preorder_cut_price',
] as const;
const COLUMN_SWITCHES = ['issearchable', 'selfiesearch', 'showunlabeled', 'preorder_allowed', 'privacy_check', 'partner_registration'] as const;

export const EVENT_NAME_TAKEN_MESSAGE = 'An event with this name exists already. Please choose another name.';
export const UNKNOWN_THEME_MESSAGE = 'Please choose a theme from the list.';
export const UNKNOWN_PRINT_MESSAGE = 'Please choose print products from the catalogue.';

async function eventRecord(db: Db, eventId: number): Promise<EventRecord> {
  const rows = await db.query<EventRecord>(
    `select e.id, e.name, e.logo_key, e.course_map_key, to_char(e.from_date, 'YYYY-MM-DD') as from_date, to_char(e.to_date, 'YYYY-MM-DD') as to_date,
            e.location, e.theme_code, e.bib_pattern, e.single_photo_price, e.extra_photo_price, e.bundle_price, e.video_price,
            e.collage_price, e.threshold_photo_count, e.premium_pack_price, e.ultra_premium_pack_price, e.show_prempack,
            e.show_ultrapack, e.preorder_price, e.preorder_cut_price, e.issearchable, e.selfiesearch, e.showunlabeled,
            e.preorder_allowed, e.privacy_check, e.partner_registration, e.is_featured, e.slam_key, e.published, e.published_at,
            (select count(*) from participants pa where pa.event_id = e.id)::int as participants,
            (select count(*) from photos p where p.event_id = e.id and p.status = 'ready')::int as photos
       from events e where e.id = $1`,
    [eventId],
  );
  if (!rows[0]) throw new AppError(404, 'We could not find this event.');
  return rows[0];
}

async function activeOffer(db: Db, eventId: number): Promise<(OrganiserSponsorOffer & { id: number }) | null> {
  const rows = await db.query<OrganiserSponsorOffer & { id: number; [k: string]: unknown }>(
    `select id, coupon_name, sponsor_name, description, discount_type, discount_amount::float8 as discount_amount, max_orders_allowed
       from sponsor_offers where event_id = $1 and active order by id limit 1`,
    [eventId],
  );
  return rows[0] ?? null;
}

/** The event as its organiser edits it. */
export async function organiserEvent(ctx: AppContext, eventId: number): Promise<OrganiserEvent> {
  const db = ctx.db;
  const [e, offer, disabled, catalogue] = await Promise.all([
    eventRecord(db, eventId),
    activeOffer(db, eventId),
    disabledPrintEventIds(db),
    db.query<{ print_product_id: number; name: string; catalogue_price: number; price: number; own: boolean }>(
      `select pp.id as print_product_id, pp.name, pp.price as catalogue_price, coalesce(ep.price, pp.price) as price, ep.price is not null as own
         from print_products pp left join event_print_prices ep on ep.print_product_id = pp.id and ep.event_id = $1
        order by pp.sort, pp.id`,
      [eventId],
    ),
  ]);
  const { id, logo_key, course_map_key, published, published_at, participants, photos, ...fields } = e;
  const sponsor = offer
    ? {
        coupon_name: offer.coupon_name,
        sponsor_name: offer.sponsor_name,
        description: offer.description,
        discount_type: offer.discount_type,
        discount_amount: Number(offer.discount_amount),
        max_orders_allowed: offer.max_orders_allowed,
      }
    : null;
  return {
    ...(fields as unknown as Omit<OrganiserEventForm, 'print_prices' | 'sponsor_offer' | 'prints_disabled'>),
    event_id: id,
    event_logo: logo_key ? ctx.storage.publicUrl(logo_key) : '',
    course_map: course_map_key ? ctx.storage.publicUrl(course_map_key) : '',
    published,
    published_at: published_at ? new Date(published_at).toISOString() : null,
    print_prices: catalogue.filter((c) => c.own).map((c) => ({ print_product_id: c.print_product_id, price: c.price })),
    print_catalogue: catalogue.map(({ own: _own, ...c }) => c),
    sponsor_offer: sponsor,
    prints_disabled: disabled.includes(id),
    participants,
    photos,
  };
}

/** The organiser's events, newest first (the spec's eventslist, with whether each is published). */
export async function organiserEvents(db: Db, organiserId: number): Promise<OrganiserEventListRow[]> {
  return db.query<OrganiserEventListRow & { [k: string]: unknown }>(
    `select id as event_id, name as event_name, to_char(from_date, 'YYYY-MM-DD') as event_from_date, to_char(to_date, 'YYYY-MM-DD') as event_to_date,
            location as event_location, issearchable::int as issearchable, published::int as published
       from events where organiser_user_id = $1 order by from_date desc, id desc`,
    [organiserId],
  );
}

async function recordChange(tx: Db, eventId: number, field: string, oldValue: unknown, newValue: unknown, userId: number): Promise<void> {
  const text = (v: unknown) => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));
  await tx.query('insert into event_changes (event_id, field, old_value, new_value, changed_by) values ($1, $2, $3, $4, $5)', [
    eventId,
    field,
    text(oldValue),
    text(newValue),
    userId,
  ]);
}

function normalised(form: EventFormInput): OrganiserEventForm {
  return {
    ...form,
    theme_code: form.theme_code || null,
    bib_pattern: form.bib_pattern?.trim() ? form.bib_pattern.trim() : null,
    preorder_price: form.preorder_price ?? null,
    preorder_cut_price: form.preorder_cut_price ?? null,
    print_prices: [...(form.print_prices ?? [])].sort((a, b) => a.print_product_id - b.print_product_id),
    sponsor_offer: form.sponsor_offer
      ? { ...form.sponsor_offer, description: form.sponsor_offer.description ?? '', discount_amount: Number(form.sponsor_offer.discount_amount) }
      : null,
  } as OrganiserEventForm;
}

async function checkReferences(tx: Db, form: OrganiserEventForm): Promise<void> {
  if (form.theme_code) {
    const themes = await tx.query('select 1 from event_themes where code = $1', [form.theme_code]);
    if (themes.length === 0) throw badRequest(UNKNOWN_THEME_MESSAGE);
  }
  const ids = [...new Set(form.print_prices.map((p) => p.print_product_id))];
  if (ids.length !== form.print_prices.length) throw badRequest(UNKNOWN_PRINT_MESSAGE);
  if (ids.length > 0) {
    const found = await tx.query<{ n: number }>('select count(*)::int as n from print_products where id = any($1::int[])', [ids]);
    if (found[0]?.n !== ids.length) throw badRequest(UNKNOWN_PRINT_MESSAGE);
  }
}

const isUniqueViolation = (error: unknown) => typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';

async function writeOffer(tx: Db, eventId: number, offer: OrganiserSponsorOffer | null): Promise<void> {
  const current = await activeOffer(tx, eventId);
  if (!offer) {
    if (current) await tx.query('update sponsor_offers set active = false where event_id = $1 and active', [eventId]);
    return;
  }
  const values = [offer.coupon_name, offer.sponsor_name, offer.description ?? '', offer.discount_type, offer.discount_amount, offer.max_orders_allowed];
  if (current) {
    // The same offer row stays: the photos its earlier orders discounted keep counting against its cap.
    await tx.query(
      `update sponsor_offers set coupon_name = $2, sponsor_name = $3, description = $4, discount_type = $5, discount_amount = $6, max_orders_allowed = $7 where id = $1`,
      [current.id, ...values],
    );
  } else {
    await tx.query(
      `insert into sponsor_offers (event_id, coupon_name, sponsor_name, description, discount_type, discount_amount, max_orders_allowed) values ($1, $2, $3, $4, $5, $6, $7)`,
      [eventId, ...values],
    );
  }
}

async function writePrintPrices(tx: Db, eventId: number, prices: OrganiserEventForm['print_prices']): Promise<void> {
  await tx.query('delete from event_print_prices where event_id = $1', [eventId]);
  for (const p of prices) {
    await tx.query('insert into event_print_prices (event_id, print_product_id, price) values ($1, $2, $3)', [eventId, p.print_product_id, p.price]);
  }
}

const offerText = (o: OrganiserSponsorOffer | null) =>
  o
    ? `${o.sponsor_name} ${o.coupon_name}: ${o.discount_type === 'percent' ? `${o.discount_amount}%` : `₹${o.discount_amount}`} off, up to ${o.max_orders_allowed} photos`
    : null;

/** A new event of this organiser: hidden from the public until published. */
export async function createEvent(ctx: AppContext, input: EventFormInput, organiserId: number): Promise<OrganiserEvent> {
  const form = normalised(input);
  let eventId: number;
  try {
    eventId = await ctx.db.transaction(async (tx) => {
      await checkReferences(tx, form);
      const rows = await tx.query<{ id: number }>(
        `insert into events (name, from_date, to_date, location, theme_code, bib_pattern, single_photo_price, extra_photo_price, bundle_price,
           video_price, collage_price, threshold_photo_count, premium_pack_price, ultra_premium_pack_price, show_prempack, show_ultrapack,
           preorder_price, preorder_cut_price, issearchable, selfiesearch, showunlabeled, preorder_allowed, privacy_check,
           partner_registration, organiser_user_id, published)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, false)
         returning id`,
        [...PLAIN_FIELDS.map((f) => form[f]), ...COLUMN_SWITCHES.map((f) => form[f]), organiserId],
      );
      const id = rows[0]!.id;
      await writePrintPrices(tx, id, form.print_prices);
      await writeOffer(tx, id, form.sponsor_offer);
      if (form.prints_disabled) await setPrintsDisabled(tx, id, true);
      await recordChange(tx, id, 'created', null, form.name, organiserId);
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest(EVENT_NAME_TAKEN_MESSAGE);
    throw error;
  }
  return organiserEvent(ctx, eventId);
}

/** Saves the organiser's form, recording each field that changed (old and new value). */
export async function updateEvent(ctx: AppContext, eventId: number, input: EventFormInput, organiserId: number): Promise<OrganiserEvent> {
  const form = normalised(input);
  const before = await organiserEvent(ctx, eventId);
  try {
    await ctx.db.transaction(async (tx) => {
      await checkReferences(tx, form);
      const changedColumns = [...PLAIN_FIELDS, ...COLUMN_SWITCHES].filter((f) => before[f] !== form[f]);
      if (changedColumns.length > 0) {
        await tx.query(`update events set ${changedColumns.map((f, i) => `${f} = $${i + 2}`).join(', ')}, updated_at = now() where id = $1`, [
          eventId,
          ...changedColumns.map((f) => form[f]),
        ]);
        for (const f of changedColumns) await recordChange(tx, eventId, f, before[f], form[f], organiserId);
      }
      if (JSON.stringify(before.print_prices) !== JSON.stringify(form.print_prices)) {
        await writePrintPrices(tx, eventId, form.print_prices);
        const names = new Map(before.print_catalogue.map((c) => [c.print_product_id, c]));
        for (const c of names.values()) {
          const was = before.print_prices.find((p) => p.print_product_id === c.print_product_id)?.price ?? c.catalogue_price;
          const now = form.print_prices.find((p) => p.print_product_id === c.print_product_id)?.price ?? c.catalogue_price;
          if (was !== now) await recordChange(tx, eventId, `print price: ${c.name}`, was, now, organiserId);
        }
      }
      if (offerText(before.sponsor_offer) !== offerText(form.sponsor_offer) || before.sponsor_offer?.description !== form.sponsor_offer?.description) {
        await writeOffer(tx, eventId, form.sponsor_offer);
        await recordChange(tx, eventId, 'sponsor offer', offerText(before.sponsor_offer), offerText(form.sponsor_offer), organiserId);
      }
      if (before.prints_disabled !== form.prints_disabled) {
        await setPrintsDisabled(tx, eventId, form.prints_disabled);
        await recordChange(tx, eventId, 'prints_disabled', before.prints_disabled, form.prints_disabled, organiserId);
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest(EVENT_NAME_TAKEN_MESSAGE);
    throw error;
  }
  return organiserEvent(ctx, eventId);
}

/** Makes the event public (home page, event list, search). Publishing is for good: an event with buyers cannot vanish. */
export async function publishEvent(ctx: AppContext, eventId: number, organiserId: number): Promise<OrganiserEvent> {
  await ctx.db.transaction(async (tx) => {
    const rows = await tx.query('update events set published = true, published_at = now(), updated_at = now() where id = $1 and not published returning id', [
      eventId,
    ]);
    if (rows.length > 0) await recordChange(tx, eventId, 'published', false, true, organiserId);
  });
  return organiserEvent(ctx, eventId);
}

/** One switch of the event, recorded with who and when. */
export async function setSwitch(ctx: AppContext, eventId: number, name: EventSwitch, on: boolean, organiserId: number): Promise<OrganiserEvent> {
  await ctx.db.transaction(async (tx) => {
    if (name === 'prints_disabled') {
      const before = (await disabledPrintEventIds(tx)).includes(eventId);
      if (before === on) return;
      await setPrintsDisabled(tx, eventId, on);
    } else {
      const rows = await tx.query(`update events set ${name} = $2, updated_at = now() where id = $1 and ${name} is distinct from $2 returning id`, [
        eventId,
        on,
      ]);
      if (rows.length === 0) return;
    }
    await recordChange(tx, eventId, name, !on, on, organiserId);
  });
  return organiserEvent(ctx, eventId);
}

/** An image of the event (its logo, its course map): PNG or JPEG as base64, kept as a PNG among the public assets. */
interface EventImage {
  column: 'logo_key' | 'course_map_key';
  /** The event_changes field. */
  field: string;
  maxBytes: number;
  /** The longest side kept, in px. */
  side: number;
  folder: string;
  message: string;
}

async function setEventImage(ctx: AppContext, eventId: number, base64: string, organiserId: number, image: EventImage): Promise<OrganiserEvent> {
  const bytes = Buffer.from(base64.replace(/^data:[^,]*,/, ''), 'base64');
  if (bytes.length === 0 || bytes.length > image.maxBytes) throw badRequest(image.message);
  let png: Buffer;
  try {
    const meta = await sharp(bytes).metadata();
    if (meta.format !== 'png' && meta.format !== 'jpeg') throw new Error('format');
    png = await sharp(bytes).rotate().resize(image.side, image.side, { fit: 'inside', withoutEnlargement: true }).png().toBuffer();
  } catch {
    throw badRequest(image.message);
  }
  const key = `public/${image.folder}/${eventId}-${crypto.createHash('sha256').update(png).digest('hex').slice(0, 12)}.png`;
  await ctx.storage.put(key, png, 'image/png');
  await ctx.db.transaction(async (tx) => {
    const before = await tx.query<Record<string, string | null>>(`select ${image.column} from events where id = $1`, [eventId]);
    await tx.query(`update events set ${image.column} = $2, updated_at = now() where id = $1`, [eventId, key]);
    await recordChange(tx, eventId, image.field, before[0]?.[image.column] ?? null, key, organiserId);
  });
  return organiserEvent(ctx, eventId);
}

/** The event's logo: a PNG or JPEG of at most 1 MB, stored as a 400 px PNG among the public assets. */
export const setLogo = (ctx: AppContext, eventId: number, base64: string, organiserId: number) =>
  setEventImage(ctx, eventId, base64, organiserId, {
    column: 'logo_key',
    field: 'logo',
    maxBytes: EVENT_LOGO_MAX_BYTES,
    side: 400,
    folder: 'logos/events',
    message: 'Please choose a PNG or JPEG logo of at most 1 MB.',
  });

/**
 * The race's course map, drawn at the foot of its journey-map collages (print files and the cart's
 * preview): a PNG or JPEG of at most 5 MB, kept as a PNG of at most 4000 px a side among the public
 * assets (a route map is public knowledge, and the preview shows it to anyone).
 */
export const setCourseMap = (ctx: AppContext, eventId: number, base64: string, organiserId: number) =>
  setEventImage(ctx, eventId, base64, organiserId, {
    column: 'course_map_key',
    field: 'course_map',
    maxBytes: COURSE_MAP_MAX_BYTES,
    side: 4000,
    folder: 'course-maps',
    message: COURSE_MAP_MESSAGE,
  });

/** The event's audit trail, newest first (the last 500 changes). */
export async function eventChanges(db: Db, eventId: number): Promise<EventChange[]> {
  const rows = await db.query<{ field: string; old_value: string | null; new_value: string | null; changed_by: string | null; changed_at: Date }>(
    `select c.field, c.old_value, c.new_value, coalesce(u.first_name || ' ' || u.last_name || ' (' || u.email || ')', 'a former account') as changed_by, c.changed_at
       from event_changes c left join users u on u.id = c.changed_by
      where c.event_id = $1 order by c.changed_at desc, c.id desc limit 500`,
    [eventId],
  );
  return rows.map((r) => ({
    field: (EVENT_SWITCH_LABELS as Record<string, string>)[r.field] ?? r.field,
    old_value: r.old_value,
    new_value: r.new_value,
    changed_by: r.changed_by ?? 'a former account',
    changed_at: new Date(r.changed_at).toISOString(),
  }));
}

export { recordChange };
