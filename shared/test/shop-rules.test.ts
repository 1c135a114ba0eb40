import { describe, expect, it } from '@jest/globals';
import { isPackId, PACKAGES, packageKindOf, packIdOf, packNameOf } from '../src/pricing/packages';
import { PRINT_COUNTRY_CODE, printPriceWithGst, printsDeliverableTo } from '../src/pricing/prints';
import { DEFAULT_ISD_CODE } from '../src/schemas/accounts';
import { cartLineSchema } from '../src/schemas/cart';
import { createOrderRequestSchema } from '../src/schemas/checkout';
import { COLLAGE_MAX_PHOTOS, COLLAGE_RULE_MESSAGE } from '../src/pricing/pricing';
import type { PrintProduct } from '../src/types/entities';

describe('the package choice, one table for its two spellings', () => {
  it('maps the choice to its pack line and back, and names it', () => {
    expect(packIdOf('a')).toBe('b_premium');
    expect(packIdOf('b')).toBe('b_ultraprem');
    expect(packageKindOf('b_ultraprem')).toBe('b');
    expect(packageKindOf(PACKAGES.a.id)).toBe('a');
    expect(packNameOf('b_premium')).toBe('Premium');
    expect(packNameOf('b_ultraprem')).toBe('Ultra premium');
  });

  it('knows a pack id from a photo id or anything else', () => {
    expect(isPackId('b_premium')).toBe(true);
    expect(isPackId('premium')).toBe(false);
    expect(isPackId(42)).toBe(false);
    expect(isPackId(null)).toBe(false);
  });
});

describe('prints', () => {
  it('are for the default ISD code only (+91)', () => {
    expect(PRINT_COUNTRY_CODE).toBe('+91');
    expect(PRINT_COUNTRY_CODE).toBe(DEFAULT_ISD_CODE);
    expect(printsDeliverableTo('+91')).toBe(true);
    expect(printsDeliverableTo('+1')).toBe(false);
    expect(printsDeliverableTo(null)).toBe(false);
  });

  it.each([
    ['Magnet 4x6 inches', 739, 872],
    ['Frame 10x10 inches', 319, 376],
    ['Coffee mug', 259, 306],
    ['Wall poster 13x10 inches', 350, 413],
  ])('%s: the price with GST shown is computed (%i -> %i), whatever a stored copy says', (name, price, expected) => {
    const product: PrintProduct = { id: 1, name, image: '', price, pricewthgst: 0 };
    expect(printPriceWithGst(product)).toBe(expected);
  });
});

describe('one cart line schema for the cart calls and the order', () => {
  const collage = (photos: number) => ({ type: 'collage', category: 'image', id: 1, collagePhotoIds: Array.from({ length: photos }, (_, i) => i + 1) });

  it(`caps a collage at ${COLLAGE_MAX_PHOTOS} photos with the spec's message`, async () => {
    await expect(cartLineSchema.validate(collage(COLLAGE_MAX_PHOTOS))).resolves.toBeTruthy();
    await expect(cartLineSchema.validate(collage(COLLAGE_MAX_PHOTOS + 1))).rejects.toThrow(COLLAGE_RULE_MESSAGE);
  });

  it('is the schema the order body uses', async () => {
    const order = {
      eventID: 1,
      bibNumber: '1234',
      cartInfo: { searchKind: 'bib', packageKind: null, lines: [collage(COLLAGE_MAX_PHOTOS + 1)], discountedPhotoIds: [] },
    };
    await expect(createOrderRequestSchema.validate(order)).rejects.toThrow(COLLAGE_RULE_MESSAGE);
    order.cartInfo.lines = [collage(3)];
    await expect(createOrderRequestSchema.validate(order)).resolves.toBeTruthy();
  });
});
