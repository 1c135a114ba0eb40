import { matchesBibFormat, type BibSearchResult, type PrintProduct, type SponsorOffer } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import type { Db } from '../../db/db';
import { AppError } from '../../http/envelope';
import { notReportedSql, READY_PHOTO_SQL, SHOWN_PHOTO_COLUMNS, searchLinksExpireAt, shownPhoto, type ShownPhotoRow } from '../../rules/photos';
import { DISABLE_PRINTS_SETTING, disabledPrintsSql, printOfferOf, printOfferFrom, printProductsJsonSql, type PrintProductRow } from '../../rules/prints';
import { bibReleased, maskEmail, normaliseBib, verifiedBibSql } from '../../rules/privacy';
import { offerLeftFromRow, SPONSOR_PENDING_HOLD_MINUTES, sponsorOfferLeftSql, type SponsorOfferLeftRow } from '../../rules/sponsorOffer';
import { priceInfoOf, publishedEventJsonSql, type EventRow } from '../events';
import { PURCHASE_NOTIFICATION_SETTING, notificationFrom, publicNotificationSql, purchaseNotification } from '../orders';
import { achievementsEligibility, IN_ACTIVE_ACHIEVEMENT_SQL } from '../certificates';
import { photosLinkedByFace } from '../faces';

/** What every search result of an event carries beside its photos, for the BIB and the selfie search alike. */
export type EventShopInfo = Pick<
  BibSearchResult,
  | 'eventId'
  | 'eventName'
  | 'eventLogo'
  | 'priceInfo'
  | 'threshold_photo_count'
  | 'ultra_premium_pack'
  | 'bundlePriceInfo'
  | 'printProductInfo'
  | 'printsDisabled'
  | 'sponsorOfferAvailableFlag'
  | 'sponsorOffer'
  | 'purchase_notification'
>;

/** The shop info from what was read: the event, its print offer, the sponsor offer given and the latest purchase. */
function shopInfoOf(
  ctx: AppContext,
  event: EventRow,
  prints: { printsDisabled: boolean; printProductInfo: PrintProduct[] },
  offer: SponsorOffer | null,
  notification: string | null,
): EventShopInfo {
  return {
    eventId: event.id,
    eventName: event.name,
    eventLogo: event.logo_key ? ctx.storage.publicUrl(event.logo_key) : '',
    priceInfo: priceInfoOf(event),
    threshold_photo_count: event.threshold_photo_count,
    ultra_premium_pack: event.ultra_premium_pack_price,
    bundlePriceInfo: { price: event.bundle_price, Premium_Pack: event.premium_pack_price },
    ...prints,
    sponsorOfferAvailableFlag: offer !== null,
    sponsorOffer: offer,
    purchase_notification: notification,
  };
}

/** The event, its prices and packages, its prints, the sponsor offer given and the latest purchase. */
export async function eventShopInfo(ctx: AppContext, event: EventRow, offer: SponsorOffer | null): Promise<EventShopInfo> {
  const [prints, notification] = await Promise.all([printOfferOf(ctx, event.id), purchaseNotification(ctx.db)]);
  return shopInfoOf(ctx, event, prints, offer, notification);
}

/** The SQL of a BIB's photos and videos as this viewer sees them: without hidden or reported ones. */
const visiblePhotosSql = (eventParam: string, bibParam: string, viewerParam: string) =>
  `select ${SHOWN_PHOTO_COLUMNS}
     from photo_bibs b join photos p on p.id = b.photo_id
    where b.event_id = ${eventParam} and b.bib_number = ${bibParam} and ${READY_PHOTO_SQL}
      and ${notReportedSql(bibParam, viewerParam)}`;

/** Photos and videos of one BIB as this viewer sees them: without hidden or reported ones. */
export async function visiblePhotosOfBib(db: Db, eventId: number, bib: string, viewerUserId: number | null = null): Promise<ShownPhotoRow[]> {
  return db.query<ShownPhotoRow>(`${visiblePhotosSql('$1', '$2', '$3')} order by p.seq, p.id`, [eventId, normaliseBib(bib), viewerUserId]);
}

/**
 * The BIB's photos found by face (bib hidden or unread, the runner's face as learnt from the tagged
 * photos: faces/bibFaceLinks.ts), as this viewer sees them: ready, not reported for this BIB. Only
 * where the event has selfie search on (its faces are indexed for it); nearest first.
 */
async function photosFoundByFace(db: Db, event: EventRow, bib: string, tagged: ShownPhotoRow[], viewerUserId: number | null): Promise<ShownPhotoRow[]> {
  if (!event.selfiesearch) return [];
  const linked = await photosLinkedByFace(
    db,
    event.id,
    bib,
    tagged.map((r) => r.id as number),
  );
  if (linked.length === 0) return [];
  const rows = await db.query<ShownPhotoRow>(
    `select ${SHOWN_PHOTO_COLUMNS} from photos p
      where p.event_id = $1 and p.id = any($2::int[]) and p.kind = 'image' and ${READY_PHOTO_SQL} and ${notReportedSql('$3', '$4')}`,
    [event.id, linked, bib, viewerUserId],
  );
  const rank = new Map(linked.map((id, i) => [id, i]));
  return rows.sort((a, b) => rank.get(a.id as number)! - rank.get(b.id as number)!);
}

/**
 * Everything one BIB search reads, in one statement (one round trip, prepared once per connection):
 * the event, the BIB's visible photos, its participant, whether this session verified the BIB, the
 * sponsor offer with the photos this BIB already took, whether an active achievement holds the event,
 * DISABLEPRINTS, the purchase notification and the print catalogue. $1 event, $2 BIB, $3 viewer,
 * $4 session, $5 DISABLEPRINTS key, $6 notification key, $7 sponsor hold minutes. Each part is the
 * SQL its rule owns; the event is read every time (never cached), so an organiser's switch (privacy
 * check, searchable) holds from the next search on every API process.
 */
const BIB_SEARCH_SQL = `
  select
    ${publishedEventJsonSql('$1')} as event,
    (select coalesce(json_agg(v order by v.seq, v.id), '[]') from (${visiblePhotosSql('$1', '$2', '$3')}) v) as photos,
    (select row_to_json(t) from (select email, finish_time is not null as finished from participants where event_id = $1 and bib_number = $2) t) as participant,
    ${verifiedBibSql('$4', '$1', '$2')} as verified,
    ${sponsorOfferLeftSql('$1', '$2', '$7')} as offer,
    ${IN_ACTIVE_ACHIEVEMENT_SQL('$1')} as in_achievement,
    ${disabledPrintsSql('$5')} as disabled_prints,
    ${publicNotificationSql('$6')} as notification,
    ${printProductsJsonSql('$1')} as prints`;

/**
 * Embedded PGlite only (Db's cacheMs): the same search's rows answer again for up to a second, until
 * any other statement runs (an organiser's switch, new photos or tags, an order, an OTP check all
 * write through the one Db, so the next search reads afresh). A second is how late a change of time
 * alone can show: a pending order's sponsor hold running out. Signed links are made per answer.
 */
const SEARCH_CACHE_MS = 1000;

interface BibSearchRow {
  [column: string]: unknown;
  event: EventRow | null;
  photos: ShownPhotoRow[];
  participant: { email: string | null; finished: boolean } | null;
  verified: boolean;
  offer: SponsorOfferLeftRow | null;
  in_achievement: boolean;
  disabled_prints: unknown;
  notification: unknown;
  prints: PrintProductRow[];
}

export interface BibSearchCaller {
  sessionId: number | null;
  /** The signed-in viewer: photos they reported as "not me" stay out of their results. */
  userId?: number | null;
}

/**
 * Search by BIB (storefront spec section 7). Preview and thumbnail URLs are signed until
 * awsImageExpary; originals never leave storage here. With the privacy check on, photos stay
 * withheld until the BIB is verified by OTP in the caller's session.
 */
export async function searchByBib(ctx: AppContext, input: { eventID: number; bibNumber: string }, caller: BibSearchCaller): Promise<BibSearchResult> {
  const bib = normaliseBib(input.bibNumber);
  const [found] = await ctx.db.query<BibSearchRow>(
    BIB_SEARCH_SQL,
    [input.eventID, bib, caller.userId ?? null, caller.sessionId, DISABLE_PRINTS_SETTING, PURCHASE_NOTIFICATION_SETTING, SPONSOR_PENDING_HOLD_MINUTES],
    { name: 'bib-search', cacheMs: SEARCH_CACHE_MS },
  );
  const event = found?.event;
  if (!found || !event) throw new AppError(400, 'We could not find this event. Please choose an event from the list.');
  if (!event.issearchable) throw new AppError(400, `Photos of ${event.name} are not available for search yet.`);
  // The organiser's BIB format: a number that cannot be a BIB of this event is not searched at all.
  if (event.bib_pattern && !matchesBibFormat(event.bib_pattern, bib)) {
    throw new AppError(400, `This is not a BIB number of ${event.name}. Please check the number on your BIB and try again.`);
  }
  const rows = found.photos;
  if (rows.length === 0) {
    throw new AppError(404, `No photos found for BIB ${bib} in ${event.name}. Please check the number and try again.`);
  }

  const isPrivacyCheckEnabled = event.privacy_check;
  const showPhotos = bibReleased(event, bib, caller.sessionId, found.verified);
  const isVerified = isPrivacyCheckEnabled && showPhotos;

  const expiresAt = searchLinksExpireAt(ctx);
  const visible = showPhotos ? rows : [];
  const byFace = showPhotos ? await photosFoundByFace(ctx.db, event, bib, rows, caller.userId ?? null) : [];
  const offer = offerLeftFromRow(found.offer);
  // Only a finisher of an event an active achievement holds can be eligible: the rest need no more queries.
  const [media, faceMedia, eligibility] = await Promise.all([
    Promise.all(visible.map((row) => shownPhoto(ctx, row, { bibNumber: bib, event }, expiresAt))),
    Promise.all(byFace.map(async (row) => ({ ...(await shownPhoto(ctx, row, { bibNumber: bib, event }, expiresAt)), foundBy: 'face' as const }))),
    found.participant?.finished && found.in_achievement
      ? achievementsEligibility(ctx, event.id, bib, caller.sessionId)
      : { certificate_eligible: false, certificate_url: null, achievement_id: null },
  ]);
  const email = found.participant?.email;

  return {
    ...shopInfoOf(ctx, event, printOfferFrom(ctx, event.id, found.disabled_prints, found.prints), offer, notificationFrom(found.notification)),
    bibNumber: bib,
    // Found by number first, then those found by face (marked so on the card).
    photo: [...media.filter((m) => m.category === 'image'), ...faceMedia],
    video: media.filter((m) => m.category === 'video'),
    achievementsEligibility: eligibility,
    awsImageExpary: expiresAt.toISOString(),
    total_image_count: rows.filter((r) => r.kind === 'image').length + faceMedia.length,
    total_video_count: rows.filter((r) => r.kind === 'video').length,
    isPrivacyCheckEnabled,
    isVerified,
    participantExists: email ? [{ email1: maskEmail(email) }] : [],
    show_prempack: event.show_prempack,
    show_ultrapack: event.show_ultrapack,
  };
}
