import type { BibSearchResult, Photo, PrintProduct, SponsorOffer } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import type { Db } from '../../db/db';
import type { ObjectStorage } from '../../storage/storage';
import { AppError } from '../../http/envelope';
import { findEvent, type EventRow, priceInfoOf } from '../events/queries';
import { disabledPrintEventIds } from '../events/masterConfig';
import { lockedBibs, maskEmail, normaliseBib } from './privacy';
import { notReportedSql } from '../feedback/visibility';
import { sponsorPhotosUsed } from '../cart/sponsorCap';


interface PhotoRow {
  [column: string]: unknown;
  id: number;
  image_id: string;
  kind: 'image' | 'video';
  preview_key: string;
  thumb_key: string;
  seq: number;
}

/** Photos and videos of one BIB as this viewer sees them: without hidden or reported ones. */
export async function visiblePhotosOfBib(db: Db, eventId: number, bib: string, viewerUserId: number | null = null): Promise<PhotoRow[]> {
  return db.query<PhotoRow>(
    `select p.id, p.image_id, p.kind, p.preview_key, p.thumb_key, p.seq
       from photos p
      where p.event_id = $1 and p.bib_number = $2
        and ${notReportedSql('$2', '$3')}
      order by p.seq, p.id`,
    [eventId, normaliseBib(bib), viewerUserId],
  );
}

export async function printProducts(db: Db, storage: ObjectStorage): Promise<PrintProduct[]> {
  const rows = await db.query<{ id: number; name: string; image_key: string; price: number; price_with_gst: number }>(
    'select id, name, image_key, price, price_with_gst from print_products order by sort, id',
  );
  return rows.map((r) => {
    const image = storage.publicUrl(r.image_key);
    return { id: r.id, prod_id: r.id, name: r.name, image, price: r.price, pricewthgst: r.price_with_gst, s3: image };
  });
}

export async function sponsorOfferOf(db: Db, eventId: number): Promise<SponsorOffer | null> {
  const rows = await db.query<{
    id: number;
    coupon_name: string;
    sponsor_name: string;
    description: string;
    discount_type: 'percent' | 'flat';
    discount_amount: number;
    max_orders_allowed: number;
  }>(
    `select id, coupon_name, sponsor_name, description, discount_type, discount_amount, max_orders_allowed
       from sponsor_offers where event_id = $1 and active order by id limit 1`,
    [eventId],
  );
  const row = rows[0];
  return row ? { ...row, discount_amount: Number(row.discount_amount) } : null;
}

async function purchaseNotification(db: Db): Promise<string | null> {
  const rows = await db.query<{ value: unknown }>(`select value from app_settings where key = 'purchase_notification'`);
  return typeof rows[0]?.value === 'string' && rows[0].value ? rows[0].value : null;
}

async function toPhoto(storage: ObjectStorage, row: PhotoRow, bib: string, event: EventRow, expiresAt: Date): Promise<Photo> {
  const [preview, thumb] = await Promise.all([storage.signedUrl(row.preview_key, expiresAt), storage.signedUrl(row.thumb_key, expiresAt)]);
  const isVideo = row.kind === 'video';
  return {
    id: row.id,
    imageid: row.image_id,
    s3: preview,
    image: thumb,
    category: row.kind,
    type: 'download',
    bibNumber: bib,
    ...(isVideo ? { videopath: preview } : {}),
    price: isVideo ? event.video_price : event.single_photo_price,
    seq: row.seq,
  };
}

export interface BibSearchCaller {
  sessionId: number | null;
  /** The signed-in viewer: photos they reported as "not me" stay out of their results. */
  userId?: number | null;
}

/** The event's offer with the photos this BIB may still get discounted (the cap holds per BIB). */
export async function sponsorOfferLeftFor(db: Db, eventId: number, bib: string): Promise<SponsorOffer | null> {
  const offer = await sponsorOfferOf(db, eventId);
  return offer && { ...offer, max_orders_allowed: Math.max(0, offer.max_orders_allowed - (await sponsorPhotosUsed(db, offer.id, eventId, bib))) };
}

/**
 * Search by BIB (storefront spec section 7). Preview and thumbnail URLs are signed until
 * awsImageExpary; originals never leave storage here. With the privacy check on, photos stay
 * withheld until the BIB is verified by OTP in the caller's session.
 */
export async function searchByBib(ctx: AppContext, input: { eventID: number; bibNumber: string }, caller: BibSearchCaller): Promise<BibSearchResult> {
  const event = await findEvent(ctx.db, input.eventID);
  if (!event) throw new AppError(400, 'We could not find this event. Please choose an event from the list.');
  if (!event.issearchable) throw new AppError(400, `Photos of ${event.name} are not available for search yet.`);
  const bib = normaliseBib(input.bibNumber);
  const rows = await visiblePhotosOfBib(ctx.db, event.id, bib, caller.userId ?? null);
  if (rows.length === 0) {
    throw new AppError(404, `No photos found for BIB ${bib} in ${event.name}. Please check the number and try again.`);
  }

  const isPrivacyCheckEnabled = event.privacy_check;
  const showPhotos = (await lockedBibs(ctx.db, event, [bib], caller.sessionId)).length === 0;
  const isVerified = isPrivacyCheckEnabled && showPhotos;

  const expiresAt = new Date(Date.now() + ctx.config.searchSessionMinutes * 60_000);
  const visible = showPhotos ? rows : [];
  const media = await Promise.all(visible.map((row) => toPhoto(ctx.storage, row, bib, event, expiresAt)));

  const [participants, offer, disabledPrints, notification] = await Promise.all([
    ctx.db.query<{ email: string | null; has_finish_time: boolean }>(
      'select email, finish_time is not null as has_finish_time from participants where event_id = $1 and bib_number = $2',
      [event.id, bib],
    ),
    sponsorOfferLeftFor(ctx.db, event.id, bib),
    disabledPrintEventIds(ctx.db),
    purchaseNotification(ctx.db),
  ]);
  const participant = participants[0];
  const printsDisabled = disabledPrints.includes(event.id);

  return {
    eventId: event.id,
    eventName: event.name,
    eventLogo: event.logo_key ? ctx.storage.publicUrl(event.logo_key) : '',
    bibNumber: bib,
    photo: media.filter((m) => m.category === 'image'),
    video: media.filter((m) => m.category === 'video'),
    priceInfo: priceInfoOf(event),
    achievementsEligibility: {
      certificate_eligible: Boolean(participant?.has_finish_time),
      certificate_url: null,
      achievement_id: null,
    },
    awsImageExpary: expiresAt.toISOString(),
    total_image_count: rows.filter((r) => r.kind === 'image').length,
    total_video_count: rows.filter((r) => r.kind === 'video').length,
    isPrivacyCheckEnabled,
    isVerified,
    participantExists: participant?.email ? [{ email1: maskEmail(participant.email) }] : [],
    threshold_photo_count: event.threshold_photo_count,
    show_prempack: event.show_prempack,
    show_ultrapack: event.show_ultrapack,
    ultra_premium_pack: event.ultra_premium_pack_price,
    bundlePriceInfo: { price: event.bundle_price, Premium_Pack: event.premium_pack_price },
    printProductInfo: printsDisabled ? [] : await printProducts(ctx.db, ctx.storage),
    printsDisabled,
    sponsorOfferAvailableFlag: offer !== null,
    sponsorOffer: offer,
    purchase_notification: notification,
  };
}
