import type { ReactNode } from 'react';
import { Route } from 'react-router-dom';
import { RemoteRoutes } from '@finishline/shared/react';
import { PartnerNav, type PartnerNavItem } from './app/PartnerNav';
import { RegistrationPage } from './features/registration/pages/RegistrationPage';
import { MySharePage } from './features/share/pages/MySharePage';

/**
 * The partner remote, exposed as './App': the photographer's pages, each in src/features/<feature>/,
 * under one partner menu. The upload pages (Upload, My Photos) add their entries and routes here.
 */
const NAV: PartnerNavItem[] = [
  { to: '/registration', label: 'Registration' },
  { to: '/show_revenue', label: 'My Share' },
];

const withNav = (page: ReactNode) => (
  <>
    <PartnerNav items={NAV} />
    {page}
  </>
);

export default function PartnerApp() {
  return (
    <RemoteRoutes banner={__FINISHLINE_BUILD_BANNER__}>
      <Route path="/registration" element={withNav(<RegistrationPage />)} />
      <Route path="/show_revenue" element={withNav(<MySharePage />)} />
    </RemoteRoutes>
  );
}
