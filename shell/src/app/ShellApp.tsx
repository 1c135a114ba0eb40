import { Suspense } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Provider as JotaiProvider } from 'jotai';
import { BuildBanner, finishlineTheme } from '@finishline/shared/react';
import { Navbar } from '../features/navbar/Navbar';
import { Footer } from '../features/footer/Footer';
import { shellPageRoutes } from '../features/static-pages/shellPageRoutes';
import { authRoutes } from '../features/auth/authRoutes';
import { contactRoutes } from '../features/contact/contactRoutes';
import { CookieConsent } from '../features/first-visit/CookieConsent';
import { PreorderPopup } from '../features/first-visit/PreorderPopup';
import { RemoteOutlet } from './remotes/RemoteOutlet';
import { FirstPaintGuard } from './FirstPaintGuard';
import { ScrollToTopOnNavigate } from './ScrollToTopOnNavigate';
import { PagePlaceholder } from './PagePlaceholder';
import { ownerOf } from './routeTable';
import { shellStore } from './store';
import './chrome.css';
import './touch.css';
import './contrast.css';

/** Any path the shell does not render itself goes to the remote that owns it. */
function RemoteRoute() {
  const { pathname } = useLocation();
  const owner = ownerOf(pathname);
  if (owner === 'shell') return null; // shell paths are matched before this route
  return <RemoteOutlet key={owner} remote={owner} />;
}

/**
 * The page's text font and colour (antd's text tokens with the Finishline font), which the remotes'
 * antd copies, adding no element of their own, inherit.
 */
const TEXT_ROOT_STYLE = {
  color: 'rgba(0, 0, 0, 0.88)',
  fontSize: 14,
  lineHeight: 1.5714285714285714,
  fontFamily: finishlineTheme.token.fontFamily,
} as const;

export function ShellApp() {
  return (
    // No antd here: the shell's chrome is plain React and CSS (chrome.css), so the first load of every
    // page carries no antd of the shell's; its pages and overlays that use antd bring it, with its
    // theme and App (AntdRoot), in their own chunks.
    <div style={TEXT_ROOT_STYLE}>
      <JotaiProvider store={shellStore}>
        <BrowserRouter>
          <div className="fl-layout">
            <BuildBanner text={__FINISHLINE_BUILD_BANNER__} />
            <Navbar />
            <FirstPaintGuard />
            <ScrollToTopOnNavigate />
            <main className="fl-layout-content">
              {/* The shell's own pages load when first shown (a remote's outlet has its own Suspense). */}
              <Suspense fallback={<PagePlaceholder />}>
                <Routes>
                  {authRoutes}
                  {contactRoutes}
                  {shellPageRoutes}
                  <Route path="*" element={<RemoteRoute />} />
                </Routes>
              </Suspense>
            </main>
            <Footer />
            <CookieConsent />
            <PreorderPopup />
          </div>
        </BrowserRouter>
      </JotaiProvider>
    </div>
  );
}
