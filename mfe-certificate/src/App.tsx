import { Route } from 'react-router-dom';
import { RemoteRoutes } from '@finishline/shared/react';
import { CertificateBuilderPage } from './features/builder/pages/CertificateBuilderPage';

/** The certificate remote, exposed as './App': the achievement certificate builder at /eventcertificate. */
export default function CertificateApp() {
  return (
    <RemoteRoutes banner={__FINISHLINE_BUILD_BANNER__}>
      <Route path="/eventcertificate" element={<CertificateBuilderPage />} />
    </RemoteRoutes>
  );
}
