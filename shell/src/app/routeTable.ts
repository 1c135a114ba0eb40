import { matchPath } from 'react-router-dom';
import type { RemoteName } from '@finishline/shared';

export type RouteOwner = 'shell' | RemoteName;

export interface RouteEntry {
  path: string;
  owner: RouteOwner;
}

/**
 * Every route of both spec documents and the deployment that owns it. The shell renders its own
 * pages; any other path is handed to the owning remote, whose <Routes> hold its pages. Paths not
 * listed fall to the storefront, whose catch-all is the home page (spec: "The catch-all route
 * shows the home page").
 */
export const ROUTE_TABLE: readonly RouteEntry[] = [
  // shell
  { path: '/sign-in', owner: 'shell' },
  { path: '/sign-up', owner: 'shell' },
  { path: '/forgot-password', owner: 'shell' },
  { path: '/reset-password', owner: 'shell' },
  { path: '/change-password', owner: 'shell' },
  // proving the account's email address (its guest orders show once it is proven)
  { path: '/verify-email', owner: 'shell' },
  { path: '/contact-us', owner: 'shell' },
  { path: '/faqs', owner: 'shell' },
  { path: '/terms-and-conditions', owner: 'shell' },
  { path: '/privacypolicy', owner: 'shell' },
  { path: '/errorone', owner: 'shell' },
  { path: '/errortwo', owner: 'shell' },
  { path: '/unauthorizeduser', owner: 'shell' },
  { path: '/events', owner: 'shell' },
  // storefront
  { path: '/', owner: 'storefront' },
  { path: '/home', owner: 'storefront' },
  { path: '/products', owner: 'storefront' },
  { path: '/searchbyselfie', owner: 'storefront' },
  { path: '/unlabeled-events', owner: 'storefront' },
  { path: '/cart', owner: 'storefront' },
  { path: '/unlabeled-cart', owner: 'storefront' },
  { path: '/preorder', owner: 'storefront' },
  // account
  { path: '/UserOrderdetails', owner: 'account' },
  { path: '/checkoutPage-authentication', owner: 'account' },
  { path: '/test', owner: 'account' },
  { path: '/order-confirm', owner: 'account' },
  { path: '/order-confirmation', owner: 'account' },
  { path: '/ordersuccess', owner: 'account' },
  { path: '/order-history', owner: 'account' },
  { path: '/orderDetails', owner: 'account' },
  { path: '/print-orders', owner: 'account' },
  { path: '/list-your-race', owner: 'account' },
  { path: '/operator', owner: 'account' },
  { path: '/myorders', owner: 'account' },
  { path: '/preauthdownload', owner: 'account' },
  { path: '/ec', owner: 'account' },
  { path: '/PremiumPackageModal', owner: 'account' },
  { path: '/UltraPremiumPackageModal', owner: 'account' },
  { path: '/JourneyModal', owner: 'account' },
  // partner
  { path: '/registration', owner: 'partner' },
  { path: '/show_revenue', owner: 'partner' },
  // the photographer supply line (issue 13): upload, and the review of their own photos
  { path: '/upload', owner: 'partner' },
  { path: '/photos', owner: 'partner' },
  // finish-line videos (issue 36): upload, the camera's clock, clip lengths, the flagged clips
  { path: '/videos', owner: 'partner' },
  // organiser
  { path: '/organization_dashboard', owner: 'organiser' },
  // certificate
  { path: '/eventcertificate', owner: 'certificate' },
];

export const SHELL_PATHS = ROUTE_TABLE.filter((route) => route.owner === 'shell').map((route) => route.path);

/** The owner of a path; unknown paths belong to the storefront (home page). Matching ignores case, as the router does. */
export function ownerOf(pathname: string): RouteOwner {
  const entry = ROUTE_TABLE.find((route) => matchPath({ path: route.path, caseSensitive: false, end: true }, pathname));
  return entry ? entry.owner : 'storefront';
}
