import { useEffect, useState } from 'react';

/** The antd theme: set once by the shell (and by each remote's standalone harness). */
export const finishlineTheme = {
  token: {
    colorPrimary: '#e8572a',
    colorLink: '#e8572a',
    colorInfo: '#1f6feb',
    borderRadius: 8,
    fontFamily: "'Inter', 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  },
} as const;

const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

const prefersReducedMotion = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(REDUCED_MOTION_QUERY).matches;

/**
 * The theme for the visitor's device: a visitor who asked the system for less motion gets dialogs,
 * drawers and messages without their zoom and slide animations (antd's `motion` token), and the
 * setting follows the system while the page is open.
 */
export function useFinishlineTheme() {
  const [reducedMotion, setReducedMotion] = useState(prefersReducedMotion);
  useEffect(() => {
    if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(REDUCED_MOTION_QUERY);
    const follow = () => setReducedMotion(query.matches);
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, []);
  return reducedMotion ? { token: { ...finishlineTheme.token, motion: false } } : finishlineTheme;
}
