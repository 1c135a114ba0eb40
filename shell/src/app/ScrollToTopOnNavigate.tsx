import { useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

/**
 * A new page opens at its top, as a full page load would (checkout opened from the bottom of the cart
 * halfway down, its heading, tabs and name field off a phone's screen). Back and forward keep the
 * browser's own restoring; a change of the query or hash alone moves nothing.
 */
export function ScrollToTopOnNavigate() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  useLayoutEffect(() => {
    if (navigationType !== 'POP') window.scrollTo(0, 0);
  }, [pathname, navigationType]);
  return null;
}
