import { useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { removeFirstPaint } from '@finishline/shared';

/**
 * The page's early hero (painted by index.html's inline script on the home page before any
 * JavaScript file has run) lies where the storefront's hero will render, under the header. It stays
 * put (moving it would shift the page) until the storefront's hero shows its picture; this removes it
 * as soon as the visitor goes to another page first. A remote that fails removes it too.
 */
export function FirstPaintGuard() {
  const { pathname } = useLocation();
  const firstPath = useRef(pathname);
  useLayoutEffect(() => {
    if (pathname !== firstPath.current) removeFirstPaint();
  }, [pathname]);
  return null;
}
