/**
 * Pricing rules of the shop: the server's authority and the browser's display both call
 * `computeBill`, so the two can never disagree. Pure: no I/O, no clock.
 *
 * GST decision (documented in docs/pricing.md too):
 * - Every catalogue price is BEFORE GST: photo copy prices ("plus GST"), videos, packs, collages
 *   (1179, shown in the cart as 1179 + 212) and the print products' `price` (739, 319, 259, 350).
 * - GST (18%) is added per bill line on the amount after the sponsor discount, rounded to the
 *   nearest rupee. For the spec's prints this reproduces the listed prices with GST exactly
 *   (872, 376, 306, 413), which the tests check.
 * - Digital images are priced as one group: 1 photo 100, each extra photo 50, 5 or more photos
 *   500 flat (the site copy, taken literally: 4 photos cost 250 and 5 cost 500).
 * - Videos: the event's video price each (150 by default).
 * - Packages (bib searches only): once the selected digital images reach threshold_photo_count,
 *   the images are replaced by one pack line, premium at bundlePriceInfo.Premium_Pack or ultra
 *   premium at ultra_premium_pack; videos, prints and collages stay.
 * - Sponsor discount: on the ticked digital images only, at most max_orders_allowed of them (the
 *   server passes what is left of the BIB's cap after its earlier orders); each
 *   ticked image is worth the images line divided by its photo count. Percent offers take that
 *   percentage, flat offers take their rupees (never more than the image's worth). A pack has no
 *   per-image lines, so the sponsor discount does not apply to it.
 */
import type { PriceInfo, PrintProduct } from '../types/entities';
import type { BillLine, CartLine, CartRequest, PackId, PricedBill } from '../types/cart';
import type { BibSearchResult } from '../types/search';
import { isPackId, PACKAGES, packIdOf, packNameOf } from './packages';

export const GST_PERCENT = 18;
/** From this many digital images on, the flat bundle price applies. */
export const BUNDLE_MIN_PHOTOS = 5;
export const COLLAGE_MIN_PHOTOS = 3;
export const COLLAGE_MAX_PHOTOS = 5;
export const COLLAGE_RULE_MESSAGE = 'Minimum 3 photos and maximum 5 are mandatory to make collage';
export const COLLAGE_CART_WARNING = '*Minimum 3 photos are mandatory to make collage';
/** Under the runner's collage preview in the cart: what the preview is and what the print will be. */
export const collagePreviewNote = (orientation: 'Vertical' | 'Horizontal') =>
  `A preview from the watermarked photos. Your collage is printed ${orientation === 'Vertical' ? 'portrait, 2 ft x 3 ft' : 'landscape, 3 ft x 2 ft'}, from the original photos, without watermarks.`;
export const DEFAULT_VIDEO_PRICE = 150;
export const DEFAULT_COLLAGE_PRICE = 1179;

/** The spec's copy pricing, used when an event carries no prices of its own. */
export const DEFAULT_PRICE_INFO: PriceInfo = {
  single_photo: 100,
  extra_photo: 50,
  five_or_more: 500,
  video: DEFAULT_VIDEO_PRICE,
  collage: DEFAULT_COLLAGE_PRICE,
  gst_percent: GST_PERCENT,
};

/** What pricing needs from the products state; BibSearchResult carries every field. */
export type PricingCatalog = Pick<
  BibSearchResult,
  'priceInfo' | 'threshold_photo_count' | 'show_prempack' | 'show_ultrapack' | 'ultra_premium_pack' | 'bundlePriceInfo' | 'printProductInfo' | 'sponsorOffer'
>;

export interface BillInput {
  cart: Pick<CartRequest, 'searchKind' | 'packageKind' | 'lines' | 'sponsorofferID' | 'discountedPhotoIds'>;
  catalog: PricingCatalog;
}

/** A cart that cannot be priced as sent; the message is meant for the buyer. */
export class PricingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PricingError';
  }
}

/** Nearest rupee, halves up; amounts are never negative here. */
export function roundRupees(value: number): number {
  return Math.round(value + 1e-9);
}

export function gstOf(amount: number, gstPercent = GST_PERCENT): number {
  return roundRupees((amount * gstPercent) / 100);
}

export function withGst(amount: number, gstPercent = GST_PERCENT): number {
  return amount + gstOf(amount, gstPercent);
}

/** Group price of n digital images: 1 -> 100, each extra +50, 5 or more -> 500 flat. */
export function digitalImagesPrice(count: number, priceInfo: PriceInfo = DEFAULT_PRICE_INFO): number {
  if (count <= 0) return 0;
  if (count >= BUNDLE_MIN_PHOTOS) return priceInfo.five_or_more;
  return priceInfo.single_photo + (count - 1) * priceInfo.extra_photo;
}

export function packPrice(pack: PackId, catalog: PricingCatalog): number {
  return pack === PACKAGES.a.id ? catalog.bundlePriceInfo.Premium_Pack : catalog.ultra_premium_pack;
}

/**
 * The pack that replaces the digital images, or null: only for bib searches, only for a pack the
 * event offers, and only once the selected images reach the threshold.
 */
export function applicablePackage(cart: Pick<CartRequest, 'searchKind' | 'packageKind' | 'lines'>, catalog: PricingCatalog, imageCount: number): PackId | null {
  const fromLine = cart.lines.find((l) => l.category === 'pack')?.id;
  const pack: PackId | null = cart.packageKind ? packIdOf(cart.packageKind) : isPackId(fromLine) ? fromLine : null;
  if (!pack || cart.searchKind !== 'bib') return null;
  const offered = pack === PACKAGES.a.id ? catalog.show_prempack : catalog.show_ultrapack;
  if (!offered || catalog.threshold_photo_count <= 0) return null;
  return imageCount >= catalog.threshold_photo_count ? pack : null;
}

export function collageSizeIsValid(photoIds: readonly number[]): boolean {
  const unique = new Set(photoIds).size;
  return unique === photoIds.length && unique >= COLLAGE_MIN_PHOTOS && unique <= COLLAGE_MAX_PHOTOS;
}

function line(partial: Omit<BillLine, 'discount' | 'gst' | 'total'>, gstPercent: number, discount = 0): BillLine {
  const taxable = Math.max(0, partial.amount - discount);
  const gst = gstOf(taxable, gstPercent);
  return { ...partial, discount, gst, total: taxable + gst };
}

const photoId = (l: CartLine): number => {
  if (typeof l.id !== 'number') throw new PricingError('This cart holds an item we do not recognise. Please remove it and add it again.');
  return l.id;
};

/** Prices a cart. Throws PricingError for what cannot be priced (unknown print, bad collage, foreign offer). */
export function computeBill({ cart, catalog }: BillInput): PricedBill {
  const gstPercent = catalog.priceInfo.gst_percent;
  const images: number[] = [];
  const videos: number[] = [];
  const prints: Array<{ photoId: number; product: PrintProduct }> = [];
  const collages: CartLine[] = [];
  const seen = new Set<string>();

  for (const l of cart.lines) {
    if (l.category === 'pack') continue;
    if (l.type === 'download') {
      const id = photoId(l);
      const key = `${l.category}:${id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      (l.category === 'video' ? videos : images).push(id);
    } else if (l.type === 'print') {
      const id = photoId(l);
      const product = catalog.printProductInfo.find((p) => p.id === l.printProductId);
      if (!product) throw new PricingError('This print product is not available. Please choose another one.');
      const key = `print:${id}:${product.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      prints.push({ photoId: id, product });
    } else {
      if (!collageSizeIsValid(l.collagePhotoIds ?? [])) throw new PricingError(COLLAGE_RULE_MESSAGE);
      collages.push(l);
    }
  }

  const pack = applicablePackage(cart, catalog, images.length);
  const offer = catalog.sponsorOffer;
  if (cart.sponsorofferID !== null && cart.sponsorofferID !== undefined && (!offer || offer.id !== cart.sponsorofferID)) {
    throw new PricingError('This sponsor offer is not available for this event.');
  }
  const offerApplied = offer !== null && cart.sponsorofferID === offer.id;

  const lines: BillLine[] = [];
  let discountedPhotoIds: number[] = [];
  if (pack) {
    lines.push(
      line({ kind: 'pack', label: `${packNameOf(pack)} package`, photoIds: images, quantity: 1, amount: packPrice(pack, catalog), packId: pack }, gstPercent),
    );
  } else if (images.length > 0) {
    const amount = digitalImagesPrice(images.length, catalog.priceInfo);
    let discount = 0;
    if (offerApplied && offer) {
      const inCart = new Set(images);
      discountedPhotoIds = [...new Set(cart.discountedPhotoIds)].filter((id) => inCart.has(id)).slice(0, Math.max(0, offer.max_orders_allowed));
      const perImage = amount / images.length;
      const perImageDiscount =
        offer.discount_type === 'flat' ? Math.min(offer.discount_amount, perImage) : (perImage * Math.min(offer.discount_amount, 100)) / 100;
      discount = Math.min(amount, roundRupees(perImageDiscount * discountedPhotoIds.length));
    }
    lines.push(
      line(
        { kind: 'images', label: `${images.length} digital photo${images.length === 1 ? '' : 's'}`, photoIds: images, quantity: images.length, amount },
        gstPercent,
        discount,
      ),
    );
  }
  for (const id of videos) {
    lines.push(line({ kind: 'video', label: 'Video download', photoIds: [id], quantity: 1, amount: catalog.priceInfo.video }, gstPercent));
  }
  for (const p of prints) {
    lines.push(
      line({ kind: 'print', label: p.product.name, photoIds: [p.photoId], quantity: 1, amount: p.product.price, printProductId: p.product.id }, gstPercent),
    );
  }
  for (const c of collages) {
    lines.push(
      line(
        {
          kind: 'collage',
          label: `Journey map collage (${c.orientation ?? 'Vertical'})`,
          photoIds: c.collagePhotoIds ?? [],
          quantity: 1,
          amount: catalog.priceInfo.collage,
          orientation: c.orientation ?? 'Vertical',
        },
        gstPercent,
      ),
    );
  }

  const sum = (pick: (l: BillLine) => number, kinds?: BillLine['kind'][]) =>
    lines.filter((l) => !kinds || kinds.includes(l.kind)).reduce((s, l) => s + pick(l), 0);
  const discount = sum((l) => l.discount);
  return {
    priceInfo: catalog.priceInfo,
    lines,
    subtotal: sum((l) => l.amount),
    discount,
    total_amount: sum((l) => l.total),
    gstInfo: [{ gst_amount: sum((l) => l.gst), gst_percent: gstPercent }],
    digital_download: sum((l) => l.amount, ['images', 'pack']),
    digital_video_download: sum((l) => l.amount, ['video']),
    collage_count: collages.length,
    collage_journey_map: sum((l) => l.amount, ['collage']),
    print_count: prints.length,
    photo_print: prints.map((p) => ({ photoId: p.photoId, printProductId: p.product.id, name: p.product.name, print_photo_price: p.product.price })),
    photo_count: images.length,
    video_count: videos.length,
    appliedPackage: pack,
    getSponsorOffersDetails: offer ? [offer] : [],
    offerInfo: offerApplied && offer ? { offerName: offer.coupon_name, discount_price: discount } : null,
    discountedPhotoIds,
  };
}

/** What a package holds and how it compares with the photos chosen, for the cart's package choice. */
export interface PackageOffer {
  kind: 'a' | 'b';
  name: string;
  /** Before GST. */
  price: number;
  includes: string;
  /** Price of the chosen photos without the package (before GST). */
  photosPrice: number;
  /** photosPrice - price: positive is a saving, negative costs more. */
  saving: number;
  /** The package replaces the photo prices only from this many photos on. */
  threshold: number;
  applies: boolean;
}

/** The packages the event offers, each with its contents and its saving against the photos chosen. */
/**
 * Whether a package can ever apply to this search: a BIB with fewer photos than the package's
 * threshold never reaches it, so the cart does not offer it ("applies from 10 photos" to a runner
 * with 2).
 */
export function packagesReachable(catalog: Pick<BibSearchResult, 'threshold_photo_count' | 'total_image_count'>): boolean {
  return catalog.total_image_count >= catalog.threshold_photo_count;
}

export function packageOffers(catalog: PricingCatalog, chosenPhotos: number): PackageOffer[] {
  const photosPrice = digitalImagesPrice(chosenPhotos, catalog.priceInfo);
  const threshold = catalog.threshold_photo_count;
  const offers: PackageOffer[] = [];
  const add = (kind: 'a' | 'b', price: number, includes: string) =>
    offers.push({
      kind,
      name: PACKAGES[kind].name,
      price,
      includes,
      photosPrice,
      saving: photosPrice - price,
      threshold,
      applies: threshold > 0 && chosenPhotos >= threshold,
    });
  if (catalog.show_prempack) add('a', catalog.bundlePriceInfo.Premium_Pack, 'Every photo you chose as a digital download, for one price');
  if (catalog.show_ultrapack) add('b', catalog.ultra_premium_pack, 'Every photo you chose plus your timed certificates (in the certs folder of the download)');
  return offers;
}
