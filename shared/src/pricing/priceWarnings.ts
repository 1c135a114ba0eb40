import type { EventPricing } from '../types/organiser';
import { BUNDLE_MIN_PHOTOS, digitalImagesPrice, GST_PERCENT } from './pricing';

const rupees = (n: number) => `₹${n.toLocaleString('en-IN')}`;

/**
 * Prices of one event that contradict each other, in words an organiser can act on: a bundle or a
 * package dearer than the photos it replaces, or the ultra premium package (premium plus
 * certificates) cheaper than the premium one. Warnings, not errors: the organiser may mean it.
 */
export function priceContradictions(
  p: Pick<
    EventPricing,
    | 'single_photo_price'
    | 'extra_photo_price'
    | 'bundle_price'
    | 'threshold_photo_count'
    | 'premium_pack_price'
    | 'ultra_premium_pack_price'
    | 'show_prempack'
    | 'show_ultrapack'
  >,
): string[] {
  const warnings: string[] = [];
  const parts = p.single_photo_price + (BUNDLE_MIN_PHOTOS - 1) * p.extra_photo_price;
  if (p.bundle_price > parts) {
    warnings.push(
      `"${BUNDLE_MIN_PHOTOS} or more photos" (${rupees(p.bundle_price)}) costs more than one photo plus ${BUNDLE_MIN_PHOTOS - 1} extras (${rupees(parts)}).`,
    );
  }
  const priceInfo = {
    single_photo: p.single_photo_price,
    extra_photo: p.extra_photo_price,
    five_or_more: p.bundle_price,
    video: 0,
    collage: 0,
    gst_percent: GST_PERCENT,
  };
  const atThreshold = digitalImagesPrice(Math.max(1, p.threshold_photo_count), priceInfo);
  const photos = `the ${p.threshold_photo_count} photos it applies from (${rupees(atThreshold)})`;
  if (p.show_prempack && p.premium_pack_price > atThreshold) warnings.push(`The premium package (${rupees(p.premium_pack_price)}) costs more than ${photos}.`);
  if (p.show_prempack && p.show_ultrapack && p.ultra_premium_pack_price < p.premium_pack_price) {
    warnings.push(
      `The ultra premium package (${rupees(p.ultra_premium_pack_price)}) costs less than the premium package (${rupees(p.premium_pack_price)}), though it holds more.`,
    );
  }
  return warnings;
}
