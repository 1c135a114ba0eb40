import { createElement, useCallback, useEffect, useRef, useState, type CSSProperties, type ReactElement } from 'react';
import { captchaChallengeUrl } from '../api/authApi';
import { captchaNeededOf } from '../api/captchaNeeded';
import type { CaptchaStrength } from '../types/accounts';

/**
 * The self-hosted captcha (ALTCHA widget) for any form: it fetches a challenge from our API, solves
 * the proof of work in the browser when the visitor ticks it, and hands the solved payload to
 * onChange (null while unsolved, after expiry or on error). The server verifies the payload once.
 *
 * Change `resetKey` after a submit: a payload is single use, so the widget must be solved again.
 */
export interface CaptchaFieldProps {
  onChange: (payload: string | null) => void;
  resetKey?: number | string;
  /** Shown under the widget (e.g. the form's "captcha required" message). */
  error?: string | null;
  style?: CSSProperties;
  /** `strong` when the server asked for it (repeated failed sign-ins): a harder challenge, same widget. */
  strength?: CaptchaStrength;
}

/**
 * The widget draws its tick mark over the checkbox; without this a click on the middle of the box
 * can land on the tick mark and not tick the box.
 */
const CLICK_THROUGH_CSS = '.fl-captcha .altcha-checkbox svg, .fl-captcha .altcha-checkbox-spinner { pointer-events: none; }';

interface WidgetElement extends HTMLElement {
  reset?: () => void;
}

interface StateChangeDetail {
  state?: string;
  payload?: string;
}

export function CaptchaField({ onChange, resetKey, error, style, strength = 'standard' }: CaptchaFieldProps): ReactElement {
  const ref = useRef<WidgetElement | null>(null);
  const onChangeRef = useRef(onChange);
  const [ready, setReady] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  // The widget registers itself as a custom element; it is loaded only where a form needs it.
  useEffect(() => {
    let alive = true;
    import('altcha').then(() => alive && setReady(true)).catch(() => alive && setLoadError('The captcha could not be loaded. Please reload the page.'));
    return () => {
      alive = false;
    };
  }, []);

  useEffect(() => {
    const element = ref.current;
    if (!ready || !element) return;
    const onStateChange = (event: Event) => {
      const detail = (event as CustomEvent<StateChangeDetail>).detail ?? {};
      onChangeRef.current(detail.state === 'verified' && detail.payload ? detail.payload : null);
    };
    element.addEventListener('statechange', onStateChange);
    return () => element.removeEventListener('statechange', onStateChange);
  }, [ready, strength]);

  // The unsolved widget of the new strength replaces the old one: no payload until it is solved.
  useEffect(() => onChangeRef.current(null), [strength]);

  useEffect(() => {
    if (resetKey === undefined) return;
    ref.current?.reset?.();
    onChangeRef.current(null);
  }, [resetKey]);

  return createElement(
    'div',
    { className: 'fl-captcha', 'data-testid': 'captcha', 'data-strength': strength, style: { margin: '8px 0 16px', ...style } },
    createElement('style', null, CLICK_THROUGH_CSS),
    ready
      ? createElement('altcha-widget', {
          ref,
          // A new strength is a new element: the widget reads its challenge address once.
          key: strength,
          challenge: captchaChallengeUrl(strength),
          name: 'gCaptchToken',
          type: 'checkbox',
          // No attribution footer: keeps the box compact on a 360px screen.
          configuration: JSON.stringify({ hideFooter: true }),
          style: { '--altcha-max-width': '100%' } as CSSProperties,
        })
      : createElement('div', { style: { color: '#888', fontSize: 13 } }, loadError ?? 'Loading captcha…'),
    error ? createElement('div', { role: 'alert', style: { color: '#d4380d', fontSize: 13, marginTop: 4 } }, error) : null,
  );
}

export interface RequestedCaptcha {
  /** The captcha the form shows, or null while none is asked for. */
  strength: CaptchaStrength | null;
  /** Changes after every try: a payload is single use, so the widget is solved again. */
  resetKey: number;
  /** Call after every try, with the error when it failed: the captcha is reset, and shown (or made strong) when the answer asks for it. */
  afterTry: (error?: unknown) => void;
}

/**
 * The captcha of a form whose server may ask for one, or for a stronger one, after failures (sign-in
 * after failed tries on the account, a further privacy OTP for a BIB). Once asked, it stays.
 */
export function useRequestedCaptcha(initial: CaptchaStrength | null): RequestedCaptcha {
  const [strength, setStrength] = useState<CaptchaStrength | null>(initial);
  const [resetKey, setResetKey] = useState(0);
  const afterTry = useCallback((error?: unknown) => {
    const needed = captchaNeededOf(error);
    if (needed) setStrength((current) => (current === 'strong' ? current : needed));
    setResetKey((n) => n + 1);
  }, []);
  return { strength, resetKey, afterTry };
}
