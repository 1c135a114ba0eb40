import type { CartLine, CartRequest, CollageOrientation } from '../types/cart';
import type { CartItem, ShopState } from '../state/shopStore';
import { COLLAGE_MAX_PHOTOS, COLLAGE_MIN_PHOTOS } from './pricing';
import { isPackId } from './packages';
import { UNLABELED_BIB } from '../types/bibLabels';

/**
 * The shop store's cart as the pricing calls take it. The cart's collage items together form one
 * journey-map collage (the spec appends the stored orientation to their type); a collage of fewer
 * than 3 or more than 5 photos is left out of the request and flagged by `collageIsIncomplete`.
 * Shared so the cart (storefront) and checkout (account) send the very same request.
 */
export function cartLinesOf(items: CartItem[], orientation: CollageOrientation = 'Vertical'): CartLine[] {
  const lines: CartLine[] = [];
  const collagePhotoIds: number[] = [];
  for (const item of items) {
    const type = item.type.startsWith('collage') ? 'collage' : item.type;
    if (item.category === 'pack') {
      if (isPackId(item.id)) lines.push({ type: 'download', category: 'pack', id: item.id });
    } else if (typeof item.id !== 'number') {
      continue;
    } else if (type === 'collage') {
      collagePhotoIds.push(item.id);
    } else if (type === 'print') {
      lines.push({ type: 'print', category: 'image', id: item.id, printProductId: item.printProductId });
    } else {
      lines.push({ type: 'download', category: item.category, id: item.id });
    }
  }
  if (collagePhotoIds.length >= COLLAGE_MIN_PHOTOS && collagePhotoIds.length <= COLLAGE_MAX_PHOTOS) {
    lines.push({ type: 'collage', category: 'image', id: collagePhotoIds[0], collagePhotoIds, orientation });
  }
  return lines;
}

export function collagePhotoCount(items: CartItem[]): number {
  return items.filter((i) => i.type.startsWith('collage')).length;
}

/** True when the cart holds collage photos that cannot make a collage yet (or too many). */
export function collageIsIncomplete(items: CartItem[]): boolean {
  const n = collagePhotoCount(items);
  return n > 0 && (n < COLLAGE_MIN_PHOTOS || n > COLLAGE_MAX_PHOTOS);
}

export function cartRequestFromShop(shop: ShopState): CartRequest | null {
  if (shop.eventId === null || shop.bibNumber === null) return null;
  const searchKind = shop.searchKind ?? 'bib';
  return {
    eventId: shop.eventId,
    bibNumber: searchKind === 'unlabeled' ? UNLABELED_BIB : shop.bibNumber,
    searchKind,
    packageKind: searchKind === 'bib' ? shop.packageKind : null,
    lines: cartLinesOf(shop.cart, shop.collageOrientation),
    sponsorofferID: shop.sponsor.appliedDiscount && shop.products?.sponsorOffer ? shop.products.sponsorOffer.id : null,
    discountedPhotoIds: shop.sponsor.appliedDiscount ? shop.sponsor.discountedPhoto : [],
  };
}
