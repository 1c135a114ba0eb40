import { describe, expect, it } from '@jest/globals';
import {
  addAllPhotos,
  addItem,
  allPhotosInCart,
  cartCounts,
  clearDigitalPhotos,
  emptyCart,
  removeBySeq,
  removeCollage,
  toggleItem,
} from '../src/state/cartActions';
import { cartRequestFromShop, collageIsIncomplete } from '../src/pricing/cartRequest';
import type { ShopState } from '../src/state/shopStore';
import type { Photo, PrintProduct } from '../src/types/entities';

const photo = (id: number, category: 'image' | 'video' = 'image'): Photo => ({
  id,
  imageid: `P${id}`,
  s3: '',
  image: '',
  category,
  type: 'download',
  bibNumber: 'TT1',
});
const mug: PrintProduct = { id: 3, name: 'Coffee mug', image: '', price: 259, pricewthgst: 306 };
const base: ShopState = {
  version: 1,
  eventId: 7,
  eventName: 'Run',
  bibNumber: 'TT1',
  searchKind: 'bib',
  products: null,
  cart: [],
  nextSeq: 1,
  packageKind: null,
  sponsor: { appliedDiscount: false, discountedPhoto: [] },
};

describe('cart actions and the cart request sent for pricing', () => {
  it('adds, toggles and removes by sequence, numbering each add', () => {
    let shop = addItem(base, photo(1), 'download');
    shop = addItem(shop, photo(1), 'download'); // twice counts once
    shop = addItem(shop, photo(2, 'video'), 'download');
    shop = addItem(shop, photo(1), 'print', mug);
    expect(shop.cart.map((i) => i.seq)).toEqual([1, 2, 3]);
    expect(cartCounts(shop.cart)).toEqual({ images: 1, videos: 1, prints: 1, collages: 0 });
    shop = removeBySeq(shop, 2);
    expect(cartCounts(shop.cart).videos).toBe(0);
    shop = toggleItem(shop, photo(1), 'download');
    expect(cartCounts(shop.cart)).toEqual({ images: 0, videos: 0, prints: 1, collages: 0 });
  });

  it('adds all photos, knows when all are in, clears photos and empties the cart', () => {
    const photos = [photo(1), photo(2), photo(3)];
    let shop = addAllPhotos(addItem(base, photo(9, 'video'), 'download'), photos);
    expect(allPhotosInCart(shop.cart, photos)).toBe(true);
    shop = { ...shop, sponsor: { appliedDiscount: true, discountedPhoto: [1, 2] } };
    const cleared = clearDigitalPhotos(shop);
    expect(cartCounts(cleared.cart)).toEqual({ images: 0, videos: 1, prints: 0, collages: 0 });
    expect(cleared.sponsor.discountedPhoto).toEqual([]);
    expect(emptyCart(shop).cart).toEqual([]);
  });

  it('makes one collage of 3 to 5 collage items with the stored orientation', () => {
    let shop = base;
    for (const id of [1, 2]) shop = addItem(shop, photo(id), 'collage');
    expect(collageIsIncomplete(shop.cart)).toBe(true);
    expect(cartRequestFromShop(shop)?.lines).toEqual([]);
    for (const id of [3, 4, 5, 6]) shop = addItem(shop, photo(id), 'collage');
    expect(cartCounts(shop.cart).collages).toBe(5); // the 6th is refused
    const request = cartRequestFromShop({ ...shop, collageOrientation: 'Horizontal' });
    expect(request?.lines).toEqual([{ type: 'collage', category: 'image', id: 1, collagePhotoIds: [1, 2, 3, 4, 5], orientation: 'Horizontal' }]);
    expect(removeCollage(shop).cart).toEqual([]);
  });

  it('sends the sponsor offer only when applied and no package for unlabeled carts', () => {
    const shop = addItem(
      { ...base, packageKind: 'b', searchKind: 'unlabeled', sponsor: { appliedDiscount: false, discountedPhoto: [1] } },
      photo(1),
      'download',
    );
    const request = cartRequestFromShop(shop);
    expect(request).toMatchObject({ bibNumber: 'unlabeled', packageKind: null, sponsorofferID: null, discountedPhotoIds: [] });
  });
});
