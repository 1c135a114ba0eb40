import { STORAGE_KEYS, localStore } from '@finishline/shared';

/** Fired when the visitor answers the cookie dialog, so the pre-order popup can follow it. */
export const COOKIE_CONSENT_EVENT = 'finishline:cookie-consent';

export const hasCookieConsent = () => localStore.get(STORAGE_KEYS.cookies) === 'true';

export function storeCookieConsent(): void {
  localStore.set(STORAGE_KEYS.cookies, 'true');
  window.dispatchEvent(new Event(COOKIE_CONSENT_EVENT));
}
