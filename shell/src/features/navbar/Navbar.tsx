import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { Badge, Button, Drawer, Grid } from 'antd';
import { cartCountAtom, getRuntimeConfig, isSignedInValue, STORAGE_KEYS } from '@finishline/shared';

const MENU: Array<{ label: string; to: string }> = [
  { label: 'Home', to: '/' },
  { label: 'Events', to: '/events' },
  { label: 'FAQ', to: '/faqs' },
  { label: 'Contact Us', to: '/contact-us' },
];

/** Spec: the header becomes sticky after 250px of scrolling. */
const STICKY_AFTER_PX = 250;

/**
 * A simple navbar (menu, My Cart with count, Sign In). The full version with the signed-in
 * dropdown is a later issue; this keeps to what works today.
 */
export function Navbar() {
  const navigate = useNavigate();
  const cartCount = useAtomValue(cartCountAtom);
  const screens = Grid.useBreakpoint();
  const [sticky, setSticky] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const signedInName = isSignedInValue(localStorage.getItem(STORAGE_KEYS.isSignedIn)) ? localStorage.getItem(STORAGE_KEYS.name) : null;

  useEffect(() => {
    const onScroll = () => setSticky(window.scrollY > STICKY_AFTER_PX);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  const go = (to: string) => {
    setDrawerOpen(false);
    // Events opens the external events site in a new window (spec).
    if (to === '/events') window.open(getRuntimeConfig().eventsSiteUrl, '_blank', 'noopener');
    else navigate(to);
  };

  const menu = MENU.map((item) => (
    <Button key={item.to} type="text" onClick={() => go(item.to)} style={{ fontWeight: 500 }}>
      {item.label}
    </Button>
  ));

  return (
    <header
      data-testid="navbar"
      style={{
        position: sticky ? 'sticky' : 'relative',
        top: 0,
        zIndex: 100,
        background: '#fff',
        boxShadow: sticky ? '0 2px 8px rgba(0,0,0,0.08)' : '0 1px 0 #eee',
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        padding: '8px 16px',
      }}
    >
      <Link to="/" style={{ fontWeight: 800, fontSize: 20, color: '#e8572a', marginRight: 'auto', textDecoration: 'none' }}>
        Finishline
      </Link>
      {screens.md ? menu : null}
      <Badge count={cartCount} size="small">
        <Button onClick={() => go('/cart')}>My Cart</Button>
      </Badge>
      <Button type="primary" onClick={() => go('/sign-in')}>
        {signedInName ?? 'Sign In'}
      </Button>
      {!screens.md ? (
        <>
          <Button aria-label="Menu" onClick={() => setDrawerOpen(true)}>
            ☰
          </Button>
          <Drawer open={drawerOpen} onClose={() => setDrawerOpen(false)} title="Menu" size="default" placement="right">
            <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start' }}>{menu}</div>
          </Drawer>
        </>
      ) : null}
    </header>
  );
}
