/**
 * @jest-environment jsdom
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { clearSearchExpiry, isSearchSessionExpired, rememberSearchExpiry } from '../src/storage/searchSession';
import { localStore } from '../src/storage/localStore';
import { STORAGE_KEYS } from '../src/storageKeys';

describe('search session expiry (awsImageExpiry)', () => {
  afterEach(() => localStorage.clear());

  it('is valid until the stored expiry and expired after it', () => {
    const now = Date.parse('2026-02-01T10:00:00Z');
    rememberSearchExpiry('2026-02-01T11:00:00.000Z');
    expect(isSearchSessionExpired(now)).toBe(false);
    expect(isSearchSessionExpired(Date.parse('2026-02-01T11:00:01Z'))).toBe(true);
  });

  it('has nothing to expire without a stored expiry, or after Go back cleared it', () => {
    expect(isSearchSessionExpired()).toBe(false);
    rememberSearchExpiry('2020-01-01T00:00:00.000Z');
    clearSearchExpiry();
    expect(isSearchSessionExpired()).toBe(false);
  });

  it("keeps a pending order's cart usable when asked to (the cart page), not the photo page", () => {
    const now = Date.parse('2026-02-01T10:00:00Z');
    rememberSearchExpiry('2026-02-01T09:00:00.000Z');
    localStore.setFlag(STORAGE_KEYS.isPending, true);
    expect(isSearchSessionExpired(now, { unlessPending: true })).toBe(false);
    expect(isSearchSessionExpired(now)).toBe(true);
    localStore.setFlag(STORAGE_KEYS.isPending, false);
    expect(isSearchSessionExpired(now, { unlessPending: true })).toBe(true);
  });
});
