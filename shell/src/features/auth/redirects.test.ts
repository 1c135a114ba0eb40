import { afterSignInPath } from './redirects';

describe('where sign-in goes on success (spec)', () => {
  it('goes to the order when redirected from one', () => {
    expect(afterSignInPath({ redirectTo: '/myorders?orderid=FL-1001' }, null)).toBe('/myorders?orderid=FL-1001');
  });
  it('goes to the cart when the current page was Cart or NotLoggedIn', () => {
    expect(afterSignInPath(null, 'Cart')).toBe('/cart');
    expect(afterSignInPath(undefined, 'NotLoggedIn')).toBe('/cart');
  });
  it('otherwise goes home, or back to an internal page that asked for sign-in', () => {
    expect(afterSignInPath(null, 'Products')).toBe('/');
    expect(afterSignInPath({ redirectTo: '/change-password' }, null)).toBe('/change-password');
    expect(afterSignInPath({ redirectTo: '//evil.example' }, null)).toBe('/');
    expect(afterSignInPath({ redirectTo: 'https://evil.example' }, null)).toBe('/');
  });
});
