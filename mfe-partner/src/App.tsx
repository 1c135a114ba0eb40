import { Route } from 'react-router-dom';
import { NotAvailableYet, RemoteRoutes } from '@finishline/shared/react';
import { SupplyEventPicker } from './app/SupplyEventPicker';
import { UploadPage } from './features/upload/pages/UploadPage';
import { ReviewPage } from './features/review/pages/ReviewPage';

/**
 * The partner remote, exposed as './App'. Its pages live in src/features/<feature>/; the event
 * choice both supply screens share is composed in here (features never import each other).
 * A route not built yet says plainly that it is not available yet.
 */
export default function PartnerApp() {
  return (
    <RemoteRoutes banner={__FINISHLINE_BUILD_BANNER__}>
      <Route path="/registration" element={<NotAvailableYet />} />
      <Route path="/show_revenue" element={<NotAvailableYet />} />
      <Route path="/upload" element={<UploadPage eventPicker={(value, onChange) => <SupplyEventPicker value={value} onChange={onChange} redirectTo="/upload" />} />} />
      <Route path="/photos" element={<ReviewPage eventPicker={(value, onChange) => <SupplyEventPicker value={value} onChange={onChange} redirectTo="/photos" />} />} />
    </RemoteRoutes>
  );
}
