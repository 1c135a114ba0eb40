import type { Photo, PrintProduct } from '../types/entities';
import type { CartItem, ShopState } from './shopStore';
import { COLLAGE_MAX_PHOTOS } from '../pricing/pricing';

/**
 * Cart actions of the spec (add item, add all photos, remove by sequence, remove by id, clear all,
 * remove collage), as pure updates of the shop state: the storefront's pages and the account
 * remote's checkout apply them with the shared shopAtom. One cart holds one BIB.
 */

export type CartKind = 'download' | 'print' | 'collage';

const sameItem = (item: CartItem, id: number | string, type: CartKind, printProductId?: number) =>
  item.id === id && item.type.startsWith(type) && (type !== 'print' || item.printProductId === printProductId);

export function isInCart(cart: CartItem[], id: number, type: CartKind, printProductId?: number): boolean {
  return cart.some((item) => sameItem(item, id, type, printProductId));
}

function itemOf(photo: Photo, type: CartKind, seq: number, product?: PrintProduct): CartItem {
  return {
    ...photo,
    type,
    seq,
    status: 'Added',
    ...(product ? { printProductId: product.id, product: String(product.id), productName: product.name, price: product.price } : {}),
  };
}

export function addItem(shop: ShopState, photo: Photo, type: CartKind, product?: PrintProduct): ShopState {
  if (isInCart(shop.cart, photo.id, type, product?.id)) return shop;
  if (type === 'collage' && shop.cart.filter((i) => i.type.startsWith('collage')).length >= COLLAGE_MAX_PHOTOS) return shop;
  const added = { ...shop, cart: [...shop.cart, itemOf(photo, type, shop.nextSeq, product)], nextSeq: shop.nextSeq + 1 };
  // With the offer accepted, a photo added later gets the discount too while the BIB's cap has room.
  return shop.sponsor.appliedDiscount ? fillSponsorPhotos(added) : added;
}

/** Digital image downloads of the cart, in the order they were added. */
const digitalImageIds = (cart: CartItem[]): number[] =>
  cart.filter((i) => i.type === 'download' && i.category === 'image' && typeof i.id === 'number').map((i) => i.id as number);

/** Photos this BIB may still get discounted, as the server told the search (0 without an offer). */
export function sponsorPhotosLeft(shop: ShopState): number {
  return Math.max(0, shop.products?.sponsorOffer?.max_orders_allowed ?? 0);
}

/** Tops the discounted list up with the cart's digital images, in cart order, up to the cap. */
function fillSponsorPhotos(shop: ShopState): ShopState {
  const cap = sponsorPhotosLeft(shop);
  const chosen = shop.sponsor.discountedPhoto.filter((id) => digitalImageIds(shop.cart).includes(id));
  for (const id of digitalImageIds(shop.cart)) {
    if (chosen.length >= cap) break;
    if (!chosen.includes(id)) chosen.push(id);
  }
  return { ...shop, sponsor: { ...shop.sponsor, discountedPhoto: chosen } };
}

/**
 * Accepting the sponsor offer is one decision: the discount goes at once to the cart's digital images
 * (up to what is left of the BIB's cap), so the bill changes as soon as the box is ticked. The
 * per-photo ticks then only move the discount between photos. The server applies the same cap again.
 */
export function acceptSponsorOffer(shop: ShopState): ShopState {
  return fillSponsorPhotos({ ...shop, sponsor: { appliedDiscount: true, discountedPhoto: shop.sponsor.appliedDiscount ? shop.sponsor.discountedPhoto : [] } });
}

/** Declining or removing the offer: no discount, no discounted photos. */
export function withdrawSponsorOffer(shop: ShopState): ShopState {
  return { ...shop, sponsor: { appliedDiscount: false, discountedPhoto: [] } };
}

/** Removes one item; removing a download also drops it from the sponsor's discounted list. */
export function removeItem(shop: ShopState, id: number | string, type: CartKind, printProductId?: number): ShopState {
  const cart = shop.cart.filter((item) => !sameItem(item, id, type, printProductId));
  const discountedPhoto = type === 'download' ? shop.sponsor.discountedPhoto.filter((p) => p !== id) : shop.sponsor.discountedPhoto;
  return { ...shop, cart, sponsor: { ...shop.sponsor, discountedPhoto } };
}

export function removeBySeq(shop: ShopState, seq: number): ShopState {
  const item = shop.cart.find((i) => i.seq === seq);
  return item ? removeItem(shop, item.id, item.type.startsWith('collage') ? 'collage' : (item.type as CartKind), item.printProductId) : shop;
}

export function toggleItem(shop: ShopState, photo: Photo, type: CartKind, product?: PrintProduct): ShopState {
  return isInCart(shop.cart, photo.id, type, product?.id) ? removeItem(shop, photo.id, type, product?.id) : addItem(shop, photo, type, product);
}

/** Add all to cart: every photo (not videos) of the page as a download. */
export function addAllPhotos(shop: ShopState, photos: Photo[]): ShopState {
  return photos.reduce((next, photo) => addItem(next, photo, 'download'), shop);
}

export function allPhotosInCart(cart: CartItem[], photos: Photo[]): boolean {
  return photos.length > 0 && photos.every((p) => isInCart(cart, p.id, 'download'));
}

/** Clear All Photos: removes the digital image downloads (videos, prints and collages stay). */
export function clearDigitalPhotos(shop: ShopState): ShopState {
  const cart = shop.cart.filter((i) => !(i.type === 'download' && i.category === 'image'));
  return { ...shop, cart, sponsor: { appliedDiscount: shop.sponsor.appliedDiscount, discountedPhoto: [] } };
}

export function removeCollage(shop: ShopState): ShopState {
  return { ...shop, cart: shop.cart.filter((i) => !i.type.startsWith('collage')) };
}

/** EMPTY CART: nothing left, no discount applied. */
export function emptyCart(shop: ShopState): ShopState {
  return { ...shop, cart: [], packageKind: null, sponsor: { appliedDiscount: false, discountedPhoto: [] } };
}

export interface CartCounts {
  images: number;
  videos: number;
  prints: number;
  collages: number;
}

export function cartCounts(cart: CartItem[]): CartCounts {
  return {
    images: cart.filter((i) => i.type === 'download' && i.category === 'image').length,
    videos: cart.filter((i) => i.type === 'download' && i.category === 'video').length,
    prints: cart.filter((i) => i.type === 'print').length,
    collages: cart.filter((i) => i.type.startsWith('collage')).length,
  };
}
