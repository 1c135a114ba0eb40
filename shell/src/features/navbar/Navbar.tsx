import { cloneElement, forwardRef, Suspense, useEffect, useState, type ComponentPropsWithoutRef } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import type { MenuProps } from 'antd';
import { cartCountAtom, getRuntimeConfig, PARTNER_PAGES } from '@finishline/shared';
import { lazyPage, useMediaQuery } from '@finishline/shared/react';
import { useLocalSession, signOutEverywhere } from './useLocalSession';
import { PurchaseMarquee } from './PurchaseMarquee';

// antd's Drawer and Dropdown (with its Menu and Tooltip) are not part of the shell's first load: the
// drawer loads when the phone's menu is first opened, the dropdown when a signed-in header shows.
const MenuDrawer = lazyPage(() => import('./MenuDrawer'), 'MenuDrawer');
const AccountDropdown = lazyPage(() => import('./AccountDropdown'), 'AccountDropdown');

const MENU: Array<{ label: string; to: string }> = [
  { label: 'Home', to: '/' },
  { label: 'Events', to: '/events' },
  { label: 'FAQ', to: '/faqs' },
  { label: 'Contact Us', to: '/contact-us' },
];

/**
 * A plain button drawn as antd's (shell/src/app/chrome.css): the header is in every page's first
 * load, which then carries no antd of the shell's.
 */
// forwardRef: antd's Dropdown (the account menu) holds its trigger by a ref.
const ChromeButton = forwardRef<
  HTMLButtonElement,
  ComponentPropsWithoutRef<'button'> & { kind?: 'default' | 'primary' | 'text'; small?: boolean; danger?: boolean }
>(function ChromeButton({ kind = 'default', small = false, danger = false, className, ...rest }, ref) {
  const classes = ['fl-btn', `fl-btn-${kind}`, small ? 'fl-btn-sm' : '', danger ? 'fl-btn-danger' : '', className ?? ''];
  return <button ref={ref} type="button" className={classes.filter(Boolean).join(' ')} {...rest} />;
});

/** antd's Badge shows at most 99. */
const shownCount = (count: number) => (count > 99 ? '99+' : String(count));

/** Spec: the header becomes sticky after 250px of scrolling. */
export const STICKY_AFTER_PX = 250;

/** The entries of the signed-in dropdown a role allows (the server still checks every page's role). */
export function accountMenuEntries(roles: {
  isPartner: boolean;
  isOrganiser: boolean;
  isFulfilment?: boolean;
  isOperator?: boolean;
  emailVerified?: boolean;
}): Array<{ key: string; label: string; to?: string }> {
  return [
    { key: 'orders', label: 'Orders History', to: '/order-history' },
    // Until the account proves its address, orders placed with it without signing in stay out of its history.
    ...(roles.emailVerified === false ? [{ key: 'verify-email', label: 'Confirm Email', to: '/verify-email' }] : []),
    { key: 'change-password', label: 'Change Password', to: '/change-password' },
    // Every photographer's page, named as the page is (the spec's one "Show Revenue" entry left the rest behind a click).
    ...(roles.isPartner ? PARTNER_PAGES.map((page) => ({ ...page })) : []),
    // Any account may ask to organise races; an organiser has the dashboard instead.
    ...(roles.isOrganiser
      ? [{ key: 'dashboard', label: 'Event Dashboard', to: '/organization_dashboard' }]
      : [{ key: 'list-your-race', label: 'List your race', to: '/list-your-race' }]),
    ...(roles.isFulfilment ? [{ key: 'print-orders', label: 'Print Orders', to: '/print-orders' }] : []),
    ...(roles.isOperator ? [{ key: 'operator', label: 'Operator Console', to: '/operator' }] : []),
    { key: 'logout', label: 'Log out' },
  ];
}

/** Menu, My Cart with its count, Sign In or the user's name with the account dropdown; marquee when provided. */
export function Navbar() {
  const navigate = useNavigate();
  const cartCount = useAtomValue(cartCountAtom);
  const session = useLocalSession();
  // Below antd's md breakpoint the header is compact and the menu is a drawer.
  const compact = !useMediaQuery('(min-width: 768px)');
  const [sticky, setSticky] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Rendered from its first opening on, so it keeps antd's closing animation afterwards.
  const [drawerUsed, setDrawerUsed] = useState(false);
  if (drawerOpen && !drawerUsed) setDrawerUsed(true);
  const [accountClicked, setAccountClicked] = useState(false);

  useEffect(() => {
    const onScroll = () => setSticky(window.scrollY > STICKY_AFTER_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  const go = (to: string) => {
    setDrawerOpen(false);
    // Events opens the external events site in a new window (spec).
    if (to === '/events') window.open(getRuntimeConfig().eventsSiteUrl, '_blank', 'noopener');
    else navigate(to);
  };

  const entries = accountMenuEntries(session);
  const accountMenu: MenuProps = {
    items: entries.map((entry) => ({
      key: entry.key,
      label: <span data-testid={`account-menu-${entry.key}`}>{entry.label}</span>,
      danger: entry.key === 'logout',
    })),
    onClick: async ({ key }) => {
      const entry = entries.find((e) => e.key === key);
      if (key === 'logout') {
        await signOutEverywhere();
        navigate('/');
      } else if (entry?.to) navigate(entry.to);
    },
  };

  const menu = MENU.map((item) => (
    <ChromeButton key={item.to} kind="text" onClick={() => go(item.to)} style={{ fontWeight: 500 }}>
      {item.label}
    </ChromeButton>
  ));
  // The phone's drawer holds what the desktop bar holds: the menu, then the account's entries for
  // the role signed in (or Sign In).
  const signOut = async () => {
    setDrawerOpen(false);
    await signOutEverywhere();
    navigate('/');
  };
  const drawerAccount = session.signedIn
    ? entries.map((entry) => (
        <ChromeButton
          key={entry.key}
          kind="text"
          danger={entry.key === 'logout'}
          onClick={() => (entry.to ? go(entry.to) : void signOut())}
          data-testid={`drawer-menu-${entry.key}`}
        >
          {entry.label}
        </ChromeButton>
      ))
    : [
        <ChromeButton key="sign-in" kind="text" onClick={() => go('/sign-in')}>
          Sign In
        </ChromeButton>,
      ];
  const accountButton = (
    <ChromeButton
      kind="primary"
      data-testid="account-button"
      small={compact}
      style={{ maxWidth: compact ? 110 : 200, overflow: 'hidden', textOverflow: 'ellipsis' }}
    >
      {session.name || 'My account'} ▾
    </ChromeButton>
  );

  return (
    <header
      className="fl-navbar"
      data-testid="navbar"
      data-sticky={sticky ? 'true' : 'false'}
      style={{
        position: sticky ? 'sticky' : 'relative',
        top: 0,
        zIndex: 100,
        background: '#fff',
        boxShadow: sticky ? '0 2px 8px rgba(0,0,0,0.08)' : '0 1px 0 #eee',
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: compact ? 4 : 8, padding: compact ? '4px 8px' : '8px 16px', flexWrap: 'nowrap' }}>
        <Link
          to="/"
          className="fl-logo-link"
          style={{ fontWeight: 800, fontSize: compact ? 18 : 20, color: '#c2410c', marginRight: 'auto', textDecoration: 'none', whiteSpace: 'nowrap' }}
        >
          Finishline
        </Link>
        {compact ? null : <nav aria-label="Main menu">{menu}</nav>}
        {/* The count sits inside the button, so it never covers the Sign In button beside it. */}
        <ChromeButton onClick={() => go('/cart')} small={compact} className="fl-cart-button">
          My Cart
          {cartCount > 0 ? (
            <span className="fl-count" data-testid="cart-count" title={String(cartCount)}>
              {shownCount(cartCount)}
            </span>
          ) : null}
        </ChromeButton>
        {session.signedIn ? (
          // Until the dropdown's file arrives, the same button holds the place; a click on it opens the menu once it is there.
          <Suspense fallback={cloneElement(accountButton, { onClick: () => setAccountClicked(true) })}>
            <AccountDropdown menu={accountMenu} initiallyOpen={accountClicked}>
              {accountButton}
            </AccountDropdown>
          </Suspense>
        ) : (
          <ChromeButton kind="primary" onClick={() => go('/sign-in')} small={compact}>
            Sign In
          </ChromeButton>
        )}
        {compact ? (
          <>
            <ChromeButton aria-label="Menu" small onClick={() => setDrawerOpen(true)}>
              ☰
            </ChromeButton>
            {drawerUsed ? (
              <Suspense fallback={null}>
                <MenuDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} menu={menu} account={drawerAccount} signedIn={session.signedIn} />
              </Suspense>
            ) : null}
          </>
        ) : null}
      </div>
      <PurchaseMarquee />
    </header>
  );
}
