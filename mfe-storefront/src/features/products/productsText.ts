import type { PriceInfo } from '@finishline/shared';

/**
 * Texts of the photo selection page. The shell's page paints a copy of the page's top before the
 * JavaScript (build/firstRoutePreload.mjs, PRODUCTS_PAINT.text); a Jest test keeps that copy's words
 * equal to these.
 */
export const PRODUCTS_TEXT = {
  addAll: 'Add all to cart',
  emptyCart: 'EMPTY CART',
  certificate: 'Generate Certificate',
  addToCart: 'Add To Cart',
  added: 'Added',
} as const;

/** The spec's sentence; on the Videos tab it counts videos (it said '3 photos' for three videos). */
export function congratulationsText(count: number, kind: 'photos' | 'videos' = 'photos'): string {
  // The spec's sentence, in the singular for one (a finisher has one clip per finish-line camera).
  if (count === 1) return `Congratulations. There is 1 ${kind.slice(0, -1)} in this section`;
  return `Congratulations. There are ${count} ${kind} in this section`;
}

/** While the privacy check holds the BIB's photos back: how many wait behind it (never "0 photos"). */
export function waitingBehindCheckText(count: number, kind: 'photos' | 'videos' = 'photos'): string {
  const noun = count === 1 ? kind.slice(0, -1) : kind;
  return `${count} ${noun} ${count === 1 ? 'is' : 'are'} waiting for you. Enter the one-time password to see ${count === 1 ? 'it' : 'them'}.`;
}

export function priceInfoText(priceInfo: PriceInfo): string {
  return `1 photo ₹${priceInfo.single_photo} · each extra ₹${priceInfo.extra_photo} · 5 or more ₹${priceInfo.five_or_more} · video ₹${priceInfo.video} (+${priceInfo.gst_percent}% GST)`;
}

export const photosTabText = (count: number) => `Photos (${count})`;
export const videosTabText = (count: number) => `Videos (${count})`;
export const photoIdText = (imageid: string) => `Photo ID: ${imageid}`;
