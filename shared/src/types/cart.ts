import type { PriceInfo, SponsorOffer } from './entities';

/** Pack ids of the spec: premium ('a') and ultra premium ('b'). */
export type PackId = 'b_premium' | 'b_ultraprem';
export type PackageKind = 'a' | 'b';
/** How the cart's photos were found: by BIB, by selfie, or among the unlabeled photos. */
export const SEARCH_KINDS = ['bib', 'selfie', 'unlabeled'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];
export type CollageOrientation = 'Horizontal' | 'Vertical';

/**
 * One line of a cart as the browser sends it for pricing. Only ids travel: every price is looked up
 * and computed by the server.
 * - download/image or download/video: id is the photo or video id.
 * - print: id is the photo printed, printProductId the product (magnet, frame, mug, poster).
 * - collage: id is the first photo, collagePhotoIds the 3 to 5 photos composing it.
 * - pack: id is 'b_premium' or 'b_ultraprem' (the same as packageKind 'a' or 'b').
 */
export interface CartLine {
  type: 'download' | 'print' | 'collage';
  category: 'image' | 'video' | 'pack';
  id: number | PackId;
  printProductId?: number;
  collagePhotoIds?: number[];
  orientation?: CollageOrientation;
}

/** Body of the cart-details and unlabeled-cart-details calls (the spec's "cart data"). */
export interface CartRequest {
  eventId: number;
  /** The cart's single BIB ('unlabeled' for the unlabeled cart). */
  bibNumber: string;
  searchKind: SearchKind;
  packageKind: PackageKind | null;
  lines: CartLine[];
  /** The event's sponsor offer id when the buyer applied it, else null. */
  sponsorofferID: number | null;
  /** Photos ticked for the sponsor discount (capped at the offer's max_orders_allowed). */
  discountedPhotoIds: number[];
}

/** One priced line of the bill. Amounts are whole rupees; `amount` is before GST and discount. */
export interface BillLine {
  kind: 'images' | 'pack' | 'video' | 'print' | 'collage';
  label: string;
  /** Photo or video ids this line covers (all the images of the images line; the collage's photos). */
  photoIds: number[];
  quantity: number;
  amount: number;
  discount: number;
  gst: number;
  /** amount - discount + gst */
  total: number;
  printProductId?: number;
  orientation?: CollageOrientation;
  packId?: PackId;
}

/**
 * The cart-details result (storefront spec "Cart checkout / price"), computed by `computeBill`.
 * All amounts are whole rupees. Prices of the catalogue are before GST; GST (18%) is added per line
 * and rounded to the nearest rupee.
 */
export interface PricedBill {
  priceInfo: PriceInfo;
  lines: BillLine[];
  /** Sum of line amounts before discount and GST. */
  subtotal: number;
  /** Sponsor discount in rupees (before GST). */
  discount: number;
  /** Total payable including GST. */
  total_amount: number;
  gstInfo: Array<{ gst_amount: number; gst_percent: number }>;
  /** Amount (before GST) of the digital images, or of the pack that replaced them. */
  digital_download: number;
  /** Amount (before GST) of the videos. */
  digital_video_download: number;
  collage_count: number;
  /** Amount (before GST) of the journey-map collages. */
  collage_journey_map: number;
  print_count: number;
  photo_print: Array<{ photoId: number; printProductId: number; name: string; print_photo_price: number }>;
  /** Number of digital images selected (also when a pack replaced them). */
  photo_count: number;
  video_count: number;
  /** The pack that replaced the digital images, if any. */
  appliedPackage: PackId | null;
  getSponsorOffersDetails: SponsorOffer[];
  offerInfo: { offerName: string; discount_price: number } | null;
  /** Photos the sponsor discount was applied to (after the cap). */
  discountedPhotoIds: number[];
}

/** What the server returns for a cart: the priced bill plus the event header fields. */
export interface Bill extends PricedBill {
  eventId: number;
  eventName: string;
  eventLogo: string;
  bibNumber: string;
}
