/**
 * The one door to the browser's local storage for the shell and every remote. Keys are typed by the
 * spec's names (STORAGE_KEYS) so no key is spelt inline, and every call survives a browser that
 * refuses storage (private mode, disabled cookies) or a run without a window (the server, tests in
 * node): reads then answer null and writes are dropped, as if nothing had been remembered.
 * Lint forbids `localStorage` everywhere else.
 */
import type { RELEASE_BUCKET_KEY, REPORT_LIMIT_KEY, REPORT_PENDING_KEY, SHOP_STORE_KEY, StorageKey } from '../storageKeys';

/** Every key the browser may hold: the spec's keys, the versioned shop store, the shell's release bucket and report limit. */
export type LocalStoreKey = StorageKey | typeof SHOP_STORE_KEY | typeof RELEASE_BUCKET_KEY | typeof REPORT_LIMIT_KEY | typeof REPORT_PENDING_KEY;

/** The Web Storage object, or null where there is none or it may not be touched. */
export function browserStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function attempt(write: (storage: Storage) => void): void {
  const storage = browserStorage();
  if (!storage) return;
  try {
    write(storage);
  } catch {
    // A full or refused storage loses this value; the page keeps working without it.
  }
}

export const localStore = {
  get(key: LocalStoreKey): string | null {
    try {
      return browserStorage()?.getItem(key) ?? null;
    } catch {
      return null;
    }
  },
  set(key: LocalStoreKey, value: string): void {
    attempt((storage) => storage.setItem(key, value));
  },
  remove(...keys: LocalStoreKey[]): void {
    attempt((storage) => keys.forEach((key) => storage.removeItem(key)));
  },
  /** 'true' or 'false' as the spec stores flags; anything else reads as false. */
  getFlag(key: StorageKey): boolean {
    return localStore.get(key) === 'true';
  },
  setFlag(key: StorageKey, value: boolean): void {
    localStore.set(key, String(value));
  },
  /** A JSON value, or null when absent or unreadable (an old or hand-edited value is not an error). */
  getJson<T>(key: StorageKey): T | null {
    const raw = localStore.get(key);
    if (raw === null) return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  },
  setJson(key: StorageKey, value: unknown): void {
    localStore.set(key, JSON.stringify(value));
  },
};
