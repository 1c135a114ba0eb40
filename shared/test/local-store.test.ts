/**
 * @jest-environment jsdom
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { localStore } from '../src/storage/localStore';
import { SHOP_STORE_KEY, STORAGE_KEYS } from '../src/storageKeys';
import { emptySignUpForm, storedIsdCode } from '../src/storage/formDefaults';

describe('localStore, the one door to local storage', () => {
  afterEach(() => {
    jest.restoreAllMocks();
    localStorage.clear();
  });

  it('writes under the spec key names exactly, so every remote reads the same value', () => {
    localStore.set(STORAGE_KEYS.isUnlabeled, 'true');
    localStore.set(STORAGE_KEYS.selectedEvent, 'Pune Marathon');
    expect(localStorage.getItem('isUnlabled')).toBe('true');
    expect(localStorage.getItem('Selected Event')).toBe('Pune Marathon');
    expect(localStore.get(STORAGE_KEYS.selectedEvent)).toBe('Pune Marathon');
  });

  it('removes several keys at once and reads absent keys as null', () => {
    localStore.set(STORAGE_KEYS.bibId, '1234');
    localStore.set(SHOP_STORE_KEY, '{}');
    localStore.remove(STORAGE_KEYS.bibId, SHOP_STORE_KEY);
    expect(localStore.get(STORAGE_KEYS.bibId)).toBeNull();
    expect(localStore.get(SHOP_STORE_KEY)).toBeNull();
  });

  it('reads flags as the spec stores them and JSON values, treating a damaged value as absent', () => {
    localStore.setFlag(STORAGE_KEYS.isPending, true);
    expect(localStore.getFlag(STORAGE_KEYS.isPending)).toBe(true);
    localStorage.setItem('isPending', 'yes');
    expect(localStore.getFlag(STORAGE_KEYS.isPending)).toBe(false);
    localStore.setJson(STORAGE_KEYS.config, { DISABLEPRINTS: [7] });
    expect(localStore.getJson(STORAGE_KEYS.config)).toEqual({ DISABLEPRINTS: [7] });
    localStorage.setItem('Config', '{not json');
    expect(localStore.getJson(STORAGE_KEYS.config)).toBeNull();
  });

  it('keeps the page working when the browser refuses storage (full or private mode)', () => {
    jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    jest.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(() => localStore.set(STORAGE_KEYS.bibId, '1')).not.toThrow();
    expect(localStore.get(STORAGE_KEYS.bibId)).toBeNull();
  });

  it('defaults the ISD code of the forms to the stored one, else +91', () => {
    expect(storedIsdCode()).toBe('+91');
    expect(emptySignUpForm().isdCode).toBe('+91');
    localStore.set(STORAGE_KEYS.isdCode, '+44');
    expect(storedIsdCode()).toBe('+44');
    expect(emptySignUpForm()).toMatchObject({ isdCode: '+44', email: '', primaryPhone: '' });
  });
});
