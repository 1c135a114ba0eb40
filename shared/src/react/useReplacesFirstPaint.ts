import { useEffect, useLayoutEffect, useRef } from 'react';
import { removeFirstPaint } from '../api/preloaded';

/**
 * For the picture that replaces the page's early copy (FIRST_PAINT_ID: the hero on the home page, the
 * grid's first photo on /products, painted by the shell's page before the JavaScript): the copy stays
 * until this picture is shown, then goes in the same frame when the file is already in memory (no
 * blink, nothing moves), else on its load; on an error too, so a broken file never leaves the copy
 * over the page, and when the picture leaves the page. Spread the result on the <img>.
 */
export function useReplacesFirstPaint(active = true) {
  const ref = useRef<HTMLImageElement>(null);
  useLayoutEffect(() => {
    if (active && ref.current?.complete) removeFirstPaint();
  });
  useEffect(() => (active ? removeFirstPaint : undefined), [active]);
  return { ref, onLoad: active ? removeFirstPaint : undefined, onError: active ? removeFirstPaint : undefined };
}
