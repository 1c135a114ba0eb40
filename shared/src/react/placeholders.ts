/** Honest placeholders: written with createElement so this module stays a plain .ts file. */
import { createElement, type ReactElement } from 'react';

/**
 * The honest page for a route whose screen a later release builds: says so plainly instead of
 * pretending to work.
 */
export function NotAvailableYet({ title }: { title?: string }): ReactElement {
  return createElement(
    'section',
    { className: 'fl-not-available', role: 'status', style: { padding: '64px 16px', textAlign: 'center' as const } },
    createElement('h1', { style: { fontSize: 24, marginBottom: 8 } }, 'This page is not available yet'),
    title ? createElement('p', { style: { color: '#666' } }, title) : null,
    createElement('a', { href: '/' }, 'Back to the home page'),
  );
}

/** Shows a build's banner text (set at build time) so a redeploy is visible; renders nothing when empty. */
export function BuildBanner({ text }: { text: string }): ReactElement | null {
  if (!text) return null;
  return createElement(
    'div',
    { 'data-testid': 'build-banner', style: { background: '#fff4e5', color: '#8a4b00', padding: '4px 12px', fontSize: 13, textAlign: 'center' as const } },
    text,
  );
}
