import { STORAGE_KEYS } from '@finishline/shared';

/** Spec wording kept, spelling corrected ('serach' -> 'search'). */
export const EXPIRED_SESSION_MESSAGE = 'Oops !!..Your search session is expired please search again get the valid images';

/** A search session lasts until the stored expiry (awsImageExpiry); no expiry stored means none to check. */
export function isSearchSessionExpired(now = Date.now()): boolean {
  const expiry = localStorage.getItem(STORAGE_KEYS.awsImageExpiry);
  if (!expiry) return false;
  const time = new Date(expiry).getTime();
  return Number.isFinite(time) && time < now;
}

export function rememberSearchExpiry(expiresAt: string): void {
  localStorage.setItem(STORAGE_KEYS.awsImageExpiry, expiresAt);
}

export function clearSearchExpiry(): void {
  localStorage.removeItem(STORAGE_KEYS.awsImageExpiry);
}
