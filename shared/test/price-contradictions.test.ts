import { describe, expect, it } from '@jest/globals';
import { packagesReachable, priceContradictions } from '../src/pure';

const prices = {
  single_photo_price: 100,
  extra_photo_price: 50,
  bundle_price: 250,
  threshold_photo_count: 10,
  premium_pack_price: 199,
  ultra_premium_pack_price: 349,
  show_prempack: true,
  show_ultrapack: true,
};

describe("an organiser's prices that contradict each other", () => {
  it('the new-event defaults agree with each other', () => {
    expect(priceContradictions(prices)).toEqual([]);
  });

  it('"5 or more" dearer than one photo plus four extras (the old copy prices)', () => {
    expect(priceContradictions({ ...prices, bundle_price: 500, premium_pack_price: 449, ultra_premium_pack_price: 799 })).toEqual([
      '"5 or more photos" (₹500) costs more than one photo plus 4 extras (₹300).',
    ]);
  });

  it('a package dearer than the photos it replaces, and ultra premium cheaper than premium', () => {
    expect(priceContradictions({ ...prices, premium_pack_price: 449, ultra_premium_pack_price: 399 })).toEqual([
      'The premium package (₹449) costs more than the 10 photos it applies from (₹250).',
      'The ultra premium package (₹399) costs less than the premium package (₹449), though it holds more.',
    ]);
    // A package not offered cannot contradict anything.
    expect(priceContradictions({ ...prices, premium_pack_price: 449, ultra_premium_pack_price: 399, show_prempack: false })).toEqual([]);
  });

  it('a package is offered only to a BIB with enough photos to reach it', () => {
    expect(packagesReachable({ threshold_photo_count: 10, total_image_count: 2 })).toBe(false);
    expect(packagesReachable({ threshold_photo_count: 10, total_image_count: 10 })).toBe(true);
  });
});
