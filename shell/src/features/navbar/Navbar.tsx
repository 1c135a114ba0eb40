import { cloneElement, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { Badge, Button, Grid, type MenuProps } from 'antd';
import { cartCountAtom, getRuntimeConfig, PARTNER_PAGES } from '@finishline/shared';
import { lazyPage } from '@finishline/shared/react';
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
  const screens = Grid.useBreakpoint();
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
    <Button key={item.to} type="text" onClick={() => go(item.to)} style={{ fontWeight: 500 }}>
      {item.label}
    </Button>
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
        <Button
          key={entry.key}
          type="text"
          danger={entry.key === 'logout'}
          onClick={() => (entry.to ? go(entry.to) : void signOut())}
          data-testid={`drawer-menu-${entry.key}`}
        >
          {entry.label}
        </Button>
      ))
    : [
        <Button key="sign-in" type="text" onClick={() => go('/sign-in')}>
          Sign In
        </Button>,
      ];
  const compact = !screens.md;
  const accountButton = (
    <Button
      type="primary"
      data-testid="account-button"
      size={compact ? 'small' : 'middle'}
      style={{ maxWidth: compact ? 110 : 200, overflow: 'hidden', textOverflow: 'ellipsis' }}
    >
      {session.name || 'My account'} ▾
    </Button>
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
        <Button onClick={() => go('/cart')} size={compact ? 'small' : 'middle'} className="fl-cart-button">
          My Cart
          {cartCount > 0 ? <Badge count={cartCount} size="small" data-testid="cart-count" color="#b8401b" /> : null}
        </Button>
        {session.signedIn ? (
          // Until the dropdown's file arrives, the same button holds the place; a click on it opens the menu once it is there.
          <Suspense fallback={cloneElement(accountButton, { onClick: () => setAccountClicked(true) })}>
            <AccountDropdown menu={accountMenu} initiallyOpen={accountClicked}>
              {accountButton}
            </AccountDropdown>
          </Suspense>
        ) : (
          <Button type="primary" onClick={() => go('/sign-in')} size={compact ? 'small' : 'middle'}>
            Sign In
          </Button>
        )}
        {compact ? (
          <>
            <Button aria-label="Menu" size="small" onClick={() => setDrawerOpen(true)}>
              ☰
            </Button>
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
