import { matchesBibFormat, type BibSearchResult, type SponsorOffer } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import type { Db } from '../../db/db';
import { AppError } from '../../http/envelope';
import { notReportedSql, READY_PHOTO_SQL, searchLinksExpireAt, shownPhoto, type ShownPhotoRow } from '../../rules/photos';
import { printOfferOf } from '../../rules/prints';
import { lockedBibs, maskEmail, normaliseBib } from '../../rules/privacy';
import { sponsorOfferLeftFor } from '../../rules/sponsorOffer';
import { findEvent, priceInfoOf, type EventRow } from '../events';
import { purchaseNotification } from '../orders';
import { achievementsEligibility } from '../certificates';

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

/** The event, its prices and packages, its prints, the sponsor offer given and the latest purchase. */
export async function eventShopInfo(ctx: AppContext, event: EventRow, offer: SponsorOffer | null): Promise<EventShopInfo> {
  const [prints, notification] = await Promise.all([printOfferOf(ctx, event.id), purchaseNotification(ctx.db)]);
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

/** Photos and videos of one BIB as this viewer sees them: without hidden or reported ones. */
export async function visiblePhotosOfBib(db: Db, eventId: number, bib: string, viewerUserId: number | null = null): Promise<ShownPhotoRow[]> {
  return db.query<ShownPhotoRow>(
    `select p.id, p.image_id, p.kind, p.preview_key, p.thumb_key, p.seq
       from photo_bibs b join photos p on p.id = b.photo_id
      where b.event_id = $1 and b.bib_number = $2 and ${READY_PHOTO_SQL}
        and ${notReportedSql('$2', '$3')}
      order by p.seq, p.id`,
    [eventId, normaliseBib(bib), viewerUserId],
  );
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
  const event = await findEvent(ctx.db, input.eventID);
  if (!event) throw new AppError(400, 'We could not find this event. Please choose an event from the list.');
  if (!event.issearchable) throw new AppError(400, `Photos of ${event.name} are not available for search yet.`);
  const bib = normaliseBib(input.bibNumber);
  // The organiser's BIB format: a number that cannot be a BIB of this event is not searched at all.
  if (event.bib_pattern && !matchesBibFormat(event.bib_pattern, bib)) {
    throw new AppError(400, `This is not a BIB number of ${event.name}. Please check the number on your BIB and try again.`);
  }
  const rows = await visiblePhotosOfBib(ctx.db, event.id, bib, caller.userId ?? null);
  if (rows.length === 0) {
    throw new AppError(404, `No photos found for BIB ${bib} in ${event.name}. Please check the number and try again.`);
  }

  const isPrivacyCheckEnabled = event.privacy_check;
  const showPhotos = (await lockedBibs(ctx.db, event, [bib], caller.sessionId)).length === 0;
  const isVerified = isPrivacyCheckEnabled && showPhotos;

  const expiresAt = searchLinksExpireAt(ctx);
  const visible = showPhotos ? rows : [];
  const media = await Promise.all(visible.map((row) => shownPhoto(ctx, row, { bibNumber: bib, event }, expiresAt)));

  const [participants, offer, eligibility] = await Promise.all([
    ctx.db.query<{ email: string | null }>('select email from participants where event_id = $1 and bib_number = $2', [event.id, bib]),
    sponsorOfferLeftFor(ctx.db, event.id, bib),
    achievementsEligibility(ctx, event.id, bib, caller.sessionId),
  ]);
  const participant = participants[0];

  return {
    ...(await eventShopInfo(ctx, event, offer)),
    bibNumber: bib,
    photo: media.filter((m) => m.category === 'image'),
    video: media.filter((m) => m.category === 'video'),
    achievementsEligibility: eligibility,
    awsImageExpary: expiresAt.toISOString(),
    total_image_count: rows.filter((r) => r.kind === 'image').length,
    total_video_count: rows.filter((r) => r.kind === 'video').length,
    isPrivacyCheckEnabled,
    isVerified,
    participantExists: participant?.email ? [{ email1: maskEmail(participant.email) }] : [],
    show_prempack: event.show_prempack,
    show_ultrapack: event.show_ultrapack,
  };
}
