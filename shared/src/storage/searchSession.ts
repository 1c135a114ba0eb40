import { STORAGE_KEYS } from '../storageKeys';
import { localStore } from './localStore';

/** Spec wording kept, spelling corrected ('serach' -> 'search'). */
export const EXPIRED_SESSION_MESSAGE = 'Oops !!..Your search session is expired please search again get the valid images';

/**
 * A search session lasts until the stored expiry (awsImageExpiry); no expiry stored means none to
 * check. The cart also honours the pending flag (spec: a pending order's cart stays usable).
 */
export function isSearchSessionExpired(now = Date.now(), { unlessPending = false }: { unlessPending?: boolean } = {}): boolean {
  if (unlessPending && localStore.getFlag(STORAGE_KEYS.isPending)) return false;
  const expiry = localStore.get(STORAGE_KEYS.awsImageExpiry);
  if (!expiry) return false;
  const time = new Date(expiry).getTime();
  return Number.isFinite(time) && time < now;
}

export function rememberSearchExpiry(expiresAt: string): void {
  localStore.set(STORAGE_KEYS.awsImageExpiry, expiresAt);
}

export function clearSearchExpiry(): void {
  localStore.remove(STORAGE_KEYS.awsImageExpiry);
}
