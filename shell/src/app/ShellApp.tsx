import { Suspense } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Provider as JotaiProvider } from 'jotai';
import { Layout } from 'antd';
import { AntdThemeRoot, BuildBanner } from '@finishline/shared/react';
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
import './touch.css';
import './contrast.css';

/** Any path the shell does not render itself goes to the remote that owns it. */
function RemoteRoute() {
  const { pathname } = useLocation();
  const owner = ownerOf(pathname);
  if (owner === 'shell') return null; // shell paths are matched before this route
  return <RemoteOutlet key={owner} remote={owner} />;
}

export function ShellApp() {
  return (
    // The theme only: antd's App (messages) comes with the shell's pages that use it (lazyPageWithAntdApp).
    <AntdThemeRoot>
      <JotaiProvider store={shellStore}>
        <BrowserRouter>
          <Layout style={{ minHeight: '100vh', background: '#f6f7f9' }}>
            <BuildBanner text={__FINISHLINE_BUILD_BANNER__} />
            <Navbar />
            <FirstPaintGuard />
            <ScrollToTopOnNavigate />
            <Layout.Content>
              {/* The shell's own pages load when first shown (a remote's outlet has its own Suspense). */}
              <Suspense fallback={<PagePlaceholder />}>
                <Routes>
                  {authRoutes}
                  {contactRoutes}
                  {shellPageRoutes}
                  <Route path="*" element={<RemoteRoute />} />
                </Routes>
              </Suspense>
            </Layout.Content>
            <Footer />
            <CookieConsent />
            <PreorderPopup />
          </Layout>
        </BrowserRouter>
      </JotaiProvider>
    </AntdThemeRoot>
  );
}
