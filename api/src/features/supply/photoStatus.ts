import type { SupplyPhotoStatus } from '@finishline/shared/pure';

/** What the photographer reads of a stored photo: a ready photo is tagged when it has a BIB, else unlabeled. */
export function supplyStatusOf(stored: string, hasBibs: boolean): SupplyPhotoStatus {
  if (stored === 'processing' || stored === 'failed') return stored;
  return hasBibs ? 'tagged' : 'unlabeled';
}
