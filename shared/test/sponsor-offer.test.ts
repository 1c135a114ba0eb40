import { describe, expect, it } from '@jest/globals';
import { acceptSponsorOffer, addItem, removeItem, withdrawSponsorOffer } from '../src/state/cartActions';
import { cartRequestFromShop } from '../src/pricing/cartRequest';
import { computeBill, DEFAULT_PRICE_INFO, packageOffers } from '../src/pricing/pricing';
import { EMPTY_SHOP, type ShopState } from '../src/state/shopStore';
import type { Photo, SponsorOffer } from '../src/types/entities';
import type { BibSearchResult } from '../src/types/search';

const OFFER: SponsorOffer = {
  id: 9,
  coupon_name: 'RUN20',
  sponsor_name: 'Acme',
  description: '',
  discount_amount: 20,
  max_orders_allowed: 3,
  discount_type: 'percent',
};

const photo = (id: number, category: Photo['category'] = 'image'): Photo => ({
  id,
  imageid: `P${id}`,
  s3: '',
  image: '',
  category,
  type: 'download',
  bibNumber: 'TT1',
});

function shopWith(photoIds: number[], offer: SponsorOffer | null = OFFER): ShopState {
  const products = {
    priceInfo: DEFAULT_PRICE_INFO,
    threshold_photo_count: 10,
    show_prempack: false,
    show_ultrapack: false,
    ultra_premium_pack: 799,
    bundlePriceInfo: { price: 500, Premium_Pack: 449 },
    printProductInfo: [],
    sponsorOffer: offer,
  } as unknown as BibSearchResult;
  const base: ShopState = { ...EMPTY_SHOP, eventId: 1, bibNumber: 'TT1', searchKind: 'bib', products };
  return photoIds.reduce((shop, id) => addItem(shop, photo(id), 'download'), base);
}

const totalOf = (shop: ShopState) => computeBill({ cart: cartRequestFromShop(shop)!, catalog: shop.products! }).total_amount;

describe('accepting the sponsor offer is one decision', () => {
  it('discounts the cart photos at once, up to what is left of the cap, so the bill drops when the box is ticked', () => {
    const shop = shopWith([1, 2, 3, 4]);
    const before = totalOf(shop);
    const accepted = acceptSponsorOffer(shop);
    expect(accepted.sponsor).toEqual({ appliedDiscount: true, discountedPhoto: [1, 2, 3] });
    // 4 photos 250, 62.5 each, 20% of 3 = 37.5 -> 38 off; 212 + GST 38 = 250 (before: 250 + 45 = 295)
    expect(before).toBe(295);
    expect(totalOf(accepted)).toBe(250);
  });

  it('gives a photo added later the discount while the cap has room, never past it', () => {
    let shop = acceptSponsorOffer(shopWith([1, 2]));
    shop = addItem(shop, photo(3), 'download');
    shop = addItem(shop, photo(4), 'download');
    shop = addItem(shop, photo(5, 'video'), 'download');
    expect(shop.sponsor.discountedPhoto).toEqual([1, 2, 3]);
  });

  it('gives nothing when the BIB has used its cap, and withdrawing clears the list', () => {
    const used = acceptSponsorOffer(shopWith([1, 2], { ...OFFER, max_orders_allowed: 0 }));
    expect(used.sponsor.discountedPhoto).toEqual([]);
    const withdrawn = withdrawSponsorOffer(acceptSponsorOffer(shopWith([1, 2])));
    expect(withdrawn.sponsor).toEqual({ appliedDiscount: false, discountedPhoto: [] });
  });

  it('keeps a photo the buyer moved the discount away from out of the list when accepting again', () => {
    const accepted = acceptSponsorOffer(shopWith([1, 2, 3, 4]));
    const moved = { ...accepted, sponsor: { ...accepted.sponsor, discountedPhoto: [2, 3, 4] } };
    expect(acceptSponsorOffer(moved).sponsor.discountedPhoto).toEqual([2, 3, 4]);
    expect(removeItem(moved, 3, 'download').sponsor.discountedPhoto).toEqual([2, 4]);
  });
});

describe('packages say what they hold and what they save against the photos chosen', () => {
  const catalog = {
    ...shopWith([]).products!,
    show_prempack: true,
    show_ultrapack: true,
    threshold_photo_count: 3,
    bundlePriceInfo: { price: 500, Premium_Pack: 449 },
    ultra_premium_pack: 799,
  };
  it('compares each package with the price of the chosen photos', () => {
    const [premium, ultra] = packageOffers(catalog, 5); // 5 photos cost 500
    expect(premium).toMatchObject({ kind: 'a', name: 'Premium', price: 449, photosPrice: 500, saving: 51, applies: true });
    expect(ultra).toMatchObject({ kind: 'b', price: 799, saving: -299, applies: true });
    expect(ultra.includes).toContain('timed certificates');
    expect(packageOffers(catalog, 2)[0]).toMatchObject({ photosPrice: 150, applies: false });
    expect(packageOffers({ ...catalog, show_ultrapack: false }, 2)).toHaveLength(1);
  });
});
