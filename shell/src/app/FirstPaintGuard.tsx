import { useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { removeFirstPaint } from '@finishline/shared';

/**
 * The page's early copy (painted by index.html's inline script before any JavaScript file has run:
 * the hero on the home page, the top and first photos on /products) lies where the storefront will
 * render the same, under the header. It stays put (moving it would shift the page) until the
 * storefront shows its own picture; this removes it as soon as the visitor goes to another page
 * first. A remote that fails removes it too.
 */
export function FirstPaintGuard() {
  const { pathname } = useLocation();
  const firstPath = useRef(pathname);
  useLayoutEffect(() => {
    if (pathname !== firstPath.current) removeFirstPaint();
  }, [pathname]);
  return null;
}
