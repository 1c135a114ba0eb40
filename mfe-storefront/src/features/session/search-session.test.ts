import { afterEach, describe, expect, it } from '@jest/globals';
import { clearSearchExpiry, isSearchSessionExpired, rememberSearchExpiry } from './searchSession';

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
});
