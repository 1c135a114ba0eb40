import { useState } from 'react';
import { hasCookieConsent, storeCookieConsent } from './cookieConsent';
import './first-visit.css';

/**
 * Spec: shown at first unless the stored cookie flag is 'true'; both Cancel and Accept Cookies store
 * consent. It is a non-modal notice along the bottom edge, not a dialog over the page: a first visit
 * can choose an event and search before answering (the store holds nothing that needs consent first).
 * On a phone it is one row (the explanation is left to the Privacy Policy link), so with the stuck
 * header it keeps within 15% of the screen.
 */
export function CookieConsent() {
  const [open, setOpen] = useState(() => !hasCookieConsent());
  if (!open) return null;
  const consent = () => {
    storeCookieConsent();
    setOpen(false);
  };
  return (
    <div className="fl-cookie-notice" role="dialog" aria-modal="false" aria-labelledby="fl-cookie-title" data-testid="cookie-notice">
      <p className="fl-cookie-text">
        <strong id="fl-cookie-title">We use cookies</strong>
        <span className="fl-cookie-detail"> to keep you signed in and remember your cart and event. No advertising trackers.</span>{' '}
        <a href="/privacypolicy" className="fl-touch-link">
          Privacy Policy
        </a>
      </p>
      <div className="fl-cookie-buttons">
        <button type="button" className="fl-btn fl-btn-default" onClick={consent}>
          Cancel
        </button>
        <button type="button" className="fl-btn fl-btn-primary" onClick={consent}>
          Accept Cookies
        </button>
      </div>
    </div>
  );
}
