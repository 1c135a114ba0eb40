import { STORAGE_KEYS, localStore } from '@finishline/shared';

/**
 * Where sign-in goes on success (spec): to /myorders when redirected from an order, to /cart when the
 * current page was Cart or NotLoggedIn, else home. Pages that send a visitor to sign in pass
 * `{ state: { redirectTo: '/myorders?orderid=...' } }`.
 */
export function afterSignInPath(state: unknown, currPage: string | null): string {
  const redirectTo = (state as { redirectTo?: unknown } | null)?.redirectTo;
  if (typeof redirectTo === 'string' && redirectTo.startsWith('/myorders')) return redirectTo;
  if (currPage === 'Cart' || currPage === 'NotLoggedIn') return '/cart';
  if (typeof redirectTo === 'string' && redirectTo.startsWith('/') && !redirectTo.startsWith('//')) return redirectTo;
  return '/';
}

export const readCurrPage = () => localStore.get(STORAGE_KEYS.currPage);
