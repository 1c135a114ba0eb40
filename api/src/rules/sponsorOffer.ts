import type { OrganiserSponsorOffer, SponsorOffer } from '@finishline/shared/pure';
import type { Db } from '../db/db';
import { AppError } from '../http/envelope';

/**
 * The sponsor offer of an event and its cap, shared by the searches that show it, the bill that
 * applies it and the order that claims its discounted photos.
 */

/** The event's active offer as the storefront shows it, or null. */
export async function sponsorOfferOf(db: Db, eventId: number): Promise<SponsorOffer | null> {
  const rows = await db.query<SponsorOfferRow>(sponsorOfferSql('$1'), [eventId]);
  const row = rows[0];
  return row ? { ...row, discount_amount: Number(row.discount_amount) } : null;
}

export type SponsorOfferRow = OrganiserSponsorOffer & { id: number; [column: string]: unknown };

/** The event's active offer as a row (eventParam: the event id's placeholder). */
export const sponsorOfferSql = (eventParam: string): string =>
  `select id, coupon_name, sponsor_name, description, discount_type, discount_amount, max_orders_allowed
     from sponsor_offers where event_id = ${eventParam} and active order by id limit 1`;

/**
 * SQL: the event's active offer as a JSON row with `used`, the photos this BIB already took (the
 * placeholders of event, BIB and SPONSOR_PENDING_HOLD_MINUTES); read it with offerLeftFromRow.
 */
export const sponsorOfferLeftSql = (eventParam: string, bibParam: string, holdParam: string): string =>
  `(select row_to_json(o) from (select s.*, (${sponsorPhotosUsedSql('s.id', eventParam, bibParam, holdParam)}) as used from (${sponsorOfferSql(eventParam)}) s) o)`;

export type SponsorOfferLeftRow = SponsorOfferRow & { used: number };

/** The offer as the BIB sees it, from a row read with sponsorOfferLeftSql (null: no active offer). */
export function offerLeftFromRow(found: SponsorOfferLeftRow | null): SponsorOffer | null {
  if (!found) return null;
  const { used, ...row } = found;
  return offerLeftAfter(row, used);
}

/** The offer as a BIB sees it once `used` of its discounted photos are taken. */
export function offerLeftAfter(offer: SponsorOffer, used: number): SponsorOffer {
  return { ...offer, discount_amount: Number(offer.discount_amount), max_orders_allowed: Math.max(0, offer.max_orders_allowed - Number(used)) };
}

/**
 * A Pending order holds its discounted photos this long (a PayU payment page times out well before),
 * so two parallel checkouts cannot both take the last ones; an abandoned one frees them afterwards.
 */
export const SPONSOR_PENDING_HOLD_MINUTES = 30;

export const SPONSOR_CAP_USED_MESSAGE = 'The sponsor offer has already been used for this BIB. Please review your cart; the discount has changed.';

/** Photos of this BIB the offer already discounted in paid orders and in recent pending ones. */
export async function sponsorPhotosUsed(db: Db, offerId: number, eventId: number, bib: string): Promise<number> {
  const rows = await db.query<{ used: number | string | null }>(sponsorPhotosUsedSql('$1', '$2', '$3', '$4'), [
    offerId,
    eventId,
    bib,
    SPONSOR_PENDING_HOLD_MINUTES,
  ]);
  return Number(rows[0]?.used ?? 0);
}

/** The SQL of sponsorPhotosUsed, with the placeholders (or columns) of its four inputs. */
export const sponsorPhotosUsedSql = (offer: string, event: string, bib: string, holdMinutes: string): string =>
  `select coalesce(sum(sponsor_photo_count), 0) as used from orders
    where sponsor_offer_id = ${offer} and event_id = ${event} and bib_number = ${bib}
      and (status in ('Paid', 'Downloaded') or (status = 'Pending' and created_at > now() - make_interval(mins => ${holdMinutes})))`;

/**
 * Inside the order's transaction: locks the offer row so parallel orders of one BIB take their
 * discounted photos one after the other, then refuses an order that would pass the cap.
 */
export async function claimSponsorPhotos(tx: Db, claim: { offerId: number; eventId: number; bib: string; count: number }): Promise<void> {
  const offer = await tx.query<{ max_orders_allowed: number }>('select max_orders_allowed from sponsor_offers where id = $1 for update', [claim.offerId]);
  const cap = offer[0]?.max_orders_allowed ?? 0;
  const used = await sponsorPhotosUsed(tx, claim.offerId, claim.eventId, claim.bib);
  if (used + claim.count > cap) throw new AppError(409, SPONSOR_CAP_USED_MESSAGE);
}
