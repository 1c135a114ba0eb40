import { describe, expect, it } from '@jest/globals';
import {
  COLLAGE_RULE_MESSAGE,
  DEFAULT_PRICE_INFO,
  computeBill,
  digitalImagesPrice,
  gstOf,
  roundRupees,
  withGst,
  type PricingCatalog,
} from '../src/pricing/pricing';
import type { CartLine, CartRequest } from '../src/types/cart';
import type { PrintProduct, SponsorOffer } from '../src/types/entities';

const PRINTS: PrintProduct[] = [
  { id: 1, name: 'Magnet 4x6 inches', image: '', price: 739, pricewthgst: 872 },
  { id: 2, name: 'Frame 10x10 inches', image: '', price: 319, pricewthgst: 376 },
  { id: 3, name: 'Coffee mug', image: '', price: 259, pricewthgst: 306 },
  { id: 4, name: 'Wall poster 13x10 inches', image: '', price: 350, pricewthgst: 413 },
];
const OFFER: SponsorOffer = {
  id: 9,
  coupon_name: 'RUN20',
  sponsor_name: 'Acme',
  description: '',
  discount_amount: 20,
  max_orders_allowed: 2,
  discount_type: 'percent',
};

function catalog(overrides: Partial<PricingCatalog> = {}): PricingCatalog {
  return {
    priceInfo: DEFAULT_PRICE_INFO,
    threshold_photo_count: 10,
    show_prempack: true,
    show_ultrapack: true,
    ultra_premium_pack: 799,
    bundlePriceInfo: { price: 500, Premium_Pack: 449 },
    printProductInfo: PRINTS,
    sponsorOffer: OFFER,
    ...overrides,
  };
}

const images = (n: number): CartLine[] => Array.from({ length: n }, (_, i) => ({ type: 'download', category: 'image', id: i + 1 }));

function cart(
  lines: CartLine[],
  overrides: Partial<CartRequest> = {},
): Pick<CartRequest, 'searchKind' | 'packageKind' | 'lines' | 'sponsorofferID' | 'discountedPhotoIds'> {
  return { searchKind: 'bib', packageKind: null, lines, sponsorofferID: null, discountedPhotoIds: [], ...overrides };
}

describe('digital image copy pricing: 1 photo 100, each extra 50, 5 or more 500, plus GST', () => {
  it.each([
    [0, 0, 0, 0],
    [1, 100, 18, 118],
    [2, 150, 27, 177],
    [3, 200, 36, 236],
    [4, 250, 45, 295],
    [5, 500, 90, 590],
    [6, 500, 90, 590],
    [40, 500, 90, 590],
  ])('%i photos cost %i + GST %i = %i', (n, amount, gst, total) => {
    expect(digitalImagesPrice(n)).toBe(amount);
    const bill = computeBill({ cart: cart(images(n)), catalog: catalog() });
    expect(bill.subtotal).toBe(amount);
    expect(bill.gstInfo[0].gst_amount).toBe(gst);
    expect(bill.total_amount).toBe(total);
    expect(bill.photo_count).toBe(n);
    expect(bill.digital_download).toBe(amount);
  });

  it('counts a photo added twice once', () => {
    const bill = computeBill({ cart: cart([...images(2), ...images(2)]), catalog: catalog() });
    expect(bill.photo_count).toBe(2);
    expect(bill.subtotal).toBe(150);
  });
});

describe('rounding to the nearest rupee', () => {
  it.each([
    [739, 133, 872],
    [319, 57, 376],
    [259, 47, 306],
    [350, 63, 413],
    [1179, 212, 1391],
    [150, 27, 177],
  ])('GST of %i is %i, total %i (spec print prices with GST)', (price, gst, total) => {
    expect(gstOf(price)).toBe(gst);
    expect(withGst(price)).toBe(total);
  });

  it('rounds halves up and below-halves down', () => {
    expect(roundRupees(12.5)).toBe(13);
    expect(roundRupees(12.49)).toBe(12);
    expect(gstOf(25)).toBe(5); // 4.5 -> 5
    expect(gstOf(36)).toBe(6); // 6.48 -> 6
  });
});

describe('videos, prints and collages', () => {
  it('prices a video at 150 plus GST each', () => {
    const bill = computeBill({
      cart: cart([
        { type: 'download', category: 'video', id: 50 },
        { type: 'download', category: 'video', id: 51 },
      ]),
      catalog: catalog(),
    });
    expect(bill.digital_video_download).toBe(300);
    expect(bill.video_count).toBe(2);
    expect(bill.total_amount).toBe(354);
  });

  it('prices each print at the product price plus GST, matching the listed price with GST', () => {
    const lines: CartLine[] = PRINTS.map((p) => ({ type: 'print', category: 'image', id: 7, printProductId: p.id }));
    const bill = computeBill({ cart: cart(lines), catalog: catalog() });
    expect(bill.print_count).toBe(4);
    expect(bill.lines.map((l) => l.total)).toEqual([872, 376, 306, 413]);
    expect(bill.photo_print.map((p) => p.print_photo_price)).toEqual([739, 319, 259, 350]);
    expect(bill.total_amount).toBe(872 + 376 + 306 + 413);
  });

  it('refuses a print product the catalogue does not offer (prints hidden)', () => {
    expect(() =>
      computeBill({ cart: cart([{ type: 'print', category: 'image', id: 7, printProductId: 1 }]), catalog: catalog({ printProductInfo: [] }) }),
    ).toThrow('This print product is not available');
  });

  it.each([
    [[1, 2], false],
    [[1, 2, 3], true],
    [[1, 2, 3, 4, 5], true],
    [[1, 2, 3, 4, 5, 6], false],
    [[1, 1, 2], false],
  ])('collage of %j photos accepted: %s', (photoIds, ok) => {
    const run = () =>
      computeBill({
        cart: cart([{ type: 'collage', category: 'image', id: photoIds[0], collagePhotoIds: photoIds, orientation: 'Horizontal' }]),
        catalog: catalog(),
      });
    if (ok) {
      const bill = run();
      expect(bill.collage_count).toBe(1);
      expect(bill.collage_journey_map).toBe(1179);
      expect(bill.total_amount).toBe(1391);
      expect(bill.lines[0].orientation).toBe('Horizontal');
    } else {
      expect(run).toThrow(COLLAGE_RULE_MESSAGE);
    }
  });
});

describe('packages replace the digital images at the threshold', () => {
  const extras: CartLine[] = [
    { type: 'download', category: 'video', id: 90 },
    { type: 'print', category: 'image', id: 1, printProductId: 3 },
  ];

  it.each([
    ['a', 9, null, 500],
    ['a', 10, 'b_premium', 449],
    ['b', 9, null, 500],
    ['b', 10, 'b_ultraprem', 799],
    ['b', 11, 'b_ultraprem', 799],
  ] as const)('package %s with %i images -> %s at %i', (kind, n, pack, digital) => {
    const bill = computeBill({ cart: cart([...images(n), ...extras], { packageKind: kind }), catalog: catalog() });
    expect(bill.appliedPackage).toBe(pack);
    expect(bill.digital_download).toBe(digital);
    expect(bill.photo_count).toBe(n);
    // videos and prints stay beside the pack
    expect(bill.digital_video_download).toBe(150);
    expect(bill.print_count).toBe(1);
    expect(bill.total_amount).toBe(withGst(digital) + withGst(150) + withGst(259));
    expect(bill.lines.filter((l) => l.kind === 'images' || l.kind === 'pack')).toHaveLength(1);
  });

  it.each(['selfie', 'unlabeled'] as const)('never applies to a %s search', (searchKind) => {
    const bill = computeBill({ cart: cart(images(12), { packageKind: 'b', searchKind }), catalog: catalog() });
    expect(bill.appliedPackage).toBeNull();
    expect(bill.digital_download).toBe(500);
  });

  it('applies only a pack the event offers', () => {
    const bill = computeBill({ cart: cart(images(12), { packageKind: 'b' }), catalog: catalog({ show_ultrapack: false }) });
    expect(bill.appliedPackage).toBeNull();
  });

  it('reads the package from a pack line too', () => {
    const bill = computeBill({ cart: cart([...images(10), { type: 'download', category: 'pack', id: 'b_premium' }]), catalog: catalog() });
    expect(bill.appliedPackage).toBe('b_premium');
  });
});

describe('sponsor discount on the ticked photos, capped at max_orders_allowed', () => {
  it.each([
    // 4 photos = 250, 62.5 each; 20% = 12.5 each
    [[1], 13],
    [[1, 2], 25],
    [[1, 2, 3], 25], // capped at 2
    [[1, 2, 3, 4], 25],
  ])('ticked %j -> discount %i', (ticked, discount) => {
    const bill = computeBill({ cart: cart(images(4), { sponsorofferID: 9, discountedPhotoIds: ticked }), catalog: catalog() });
    expect(bill.discount).toBe(discount);
    expect(bill.discountedPhotoIds).toEqual(ticked.slice(0, 2));
    expect(bill.gstInfo[0].gst_amount).toBe(gstOf(250 - discount));
    expect(bill.total_amount).toBe(250 - discount + gstOf(250 - discount));
    expect(bill.offerInfo).toEqual({ offerName: 'RUN20', discount_price: discount });
  });

  it('ignores ticks on photos not in the cart and gives nothing without the offer applied', () => {
    const ticked = computeBill({ cart: cart(images(2), { sponsorofferID: 9, discountedPhotoIds: [77] }), catalog: catalog() });
    expect(ticked.discount).toBe(0);
    const notApplied = computeBill({ cart: cart(images(2), { discountedPhotoIds: [1] }), catalog: catalog() });
    expect(notApplied.discount).toBe(0);
    expect(notApplied.offerInfo).toBeNull();
    expect(notApplied.getSponsorOffersDetails).toEqual([OFFER]);
  });

  it('caps a flat discount at the photo worth', () => {
    const flat = { ...OFFER, discount_type: 'flat' as const, discount_amount: 80, max_orders_allowed: 5 };
    const bill = computeBill({ cart: cart(images(5), { sponsorofferID: 9, discountedPhotoIds: [1, 2] }), catalog: catalog({ sponsorOffer: flat }) });
    expect(bill.discount).toBe(160); // 500/5 = 100 worth each, 80 off each
    const big = computeBill({
      cart: cart(images(5), { sponsorofferID: 9, discountedPhotoIds: [1] }),
      catalog: catalog({ sponsorOffer: { ...flat, discount_amount: 300 } }),
    });
    expect(big.discount).toBe(100);
  });

  it('refuses an offer of another event', () => {
    expect(() => computeBill({ cart: cart(images(1), { sponsorofferID: 3 }), catalog: catalog() })).toThrow('This sponsor offer is not available');
    expect(() => computeBill({ cart: cart(images(1), { sponsorofferID: 9 }), catalog: catalog({ sponsorOffer: null }) })).toThrow();
  });
});
