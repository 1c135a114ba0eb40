import { Route } from 'react-router-dom';
import { RemoteRoutes } from '@finishline/shared/react';
import { OrganiserPage } from './app/OrganiserPage';

/**
 * The organiser remote, exposed as './App': the Event Dashboard at /organization_dashboard, with the
 * organiser's events, their revenue and live ledger, settings, participants, photographers and
 * moderation (src/features/<feature>/, composed by src/app/OrganiserPage.tsx).
 */
export default function OrganiserApp() {
  return (
    <RemoteRoutes banner={__FINISHLINE_BUILD_BANNER__}>
      <Route path="/organization_dashboard" element={<OrganiserPage />} />
    </RemoteRoutes>
  );
}
