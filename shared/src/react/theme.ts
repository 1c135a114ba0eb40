import { useEffect, useState } from 'react';

/** The antd theme: set once by the shell (and by each remote's standalone harness). */
export const finishlineTheme = {
  token: {
    // The brand orange dark enough for white text and for text on white (WCAG AA, 5.2:1).
    colorPrimary: '#c2410c',
    colorLink: '#c2410c',
    // antd's grey for descriptions (dates on event cards) is 4.0:1 on white; this one is 7:1.
    colorTextDescription: '#595959',
    // antd's red (#ff4d4f) is 3.6:1 with white; danger buttons and errors need AA.
    colorError: '#c62828',
    colorInfo: '#1f6feb',
    borderRadius: 8,
    fontFamily: "'Inter', 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  },
  components: {
    // An empty table's words ("No matching records found") are drawn in the disabled grey (2.0:1 on
    // white, too faint to read); in tables that grey is the readable description grey instead.
    Table: { colorTextDisabled: '#595959' },
  },
} as const;

const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

const hasMatchMedia = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function';

/** Whether a media query matches, following it while the page is open (false where there is no matchMedia). */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => hasMatchMedia() && window.matchMedia(query).matches);
  useEffect(() => {
    if (!hasMatchMedia()) return;
    const list = window.matchMedia(query);
    const follow = () => setMatches(list.matches);
    follow();
    list.addEventListener('change', follow);
    return () => list.removeEventListener('change', follow);
  }, [query]);
  return matches;
}

/** Whether the visitor asked the system for less motion, following the setting while the page is open. */
export function usePrefersReducedMotion(): boolean {
  return useMediaQuery(REDUCED_MOTION_QUERY);
}

/**
 * The theme for the visitor's device: a visitor who asked the system for less motion gets dialogs,
 * drawers and messages without their zoom and slide animations (antd's `motion` token).
 */
export function useFinishlineTheme() {
  return usePrefersReducedMotion() ? { ...finishlineTheme, token: { ...finishlineTheme.token, motion: false } } : finishlineTheme;
}
