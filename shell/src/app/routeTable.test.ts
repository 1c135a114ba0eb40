import { ownerOf, ROUTE_TABLE } from './routeTable';

describe('route table', () => {
  it('maps each route of the spec to its owning deployment', () => {
    expect(ownerOf('/sign-in')).toBe('shell');
    expect(ownerOf('/faqs')).toBe('shell');
    expect(ownerOf('/events')).toBe('shell');
    expect(ownerOf('/')).toBe('storefront');
    expect(ownerOf('/products')).toBe('storefront');
    expect(ownerOf('/unlabeled-cart')).toBe('storefront');
    expect(ownerOf('/UserOrderdetails')).toBe('account');
    expect(ownerOf('/order-history')).toBe('account');
    expect(ownerOf('/registration')).toBe('partner');
    expect(ownerOf('/show_revenue')).toBe('partner');
    expect(ownerOf('/organization_dashboard')).toBe('organiser');
    expect(ownerOf('/eventcertificate')).toBe('certificate');
  });

  it('matches regardless of case, as the router does', () => {
    expect(ownerOf('/userorderdetails')).toBe('account');
    expect(ownerOf('/Products')).toBe('storefront');
  });

  it('gives unknown paths to the storefront, whose catch-all is the home page', () => {
    expect(ownerOf('/no-such-page')).toBe('storefront');
    expect(ownerOf('/products/extra')).toBe('storefront');
  });

  it('lists every path once', () => {
    const paths = ROUTE_TABLE.map((route) => route.path.toLowerCase());
    expect(new Set(paths).size).toBe(paths.length);
    // The spec's 39 routes, the supply line's /upload and /photos, the videographer's /videos, /verify-email, the print queue's /print-orders,
    // /list-your-race and the operator's /operator.
    expect(paths).toHaveLength(46);
  });
});
