import { Route } from 'react-router-dom';
import { NotAvailableYet, RemoteRoutes } from '@finishline/shared/react';

/**
 * The partner remote, exposed as './App'. Its pages are added here as later issues build them, each in
 * src/features/<feature>/; until then a route says plainly that it is not available yet.
 */
export default function PartnerApp() {
  return (
    <RemoteRoutes banner={__FINISHLINE_BUILD_BANNER__}>
      <Route path="/registration" element={<NotAvailableYet />} />
      <Route path="/show_revenue" element={<NotAvailableYet />} />
    </RemoteRoutes>
  );
}
