import { Route, Routes } from 'react-router-dom';
import { BuildBanner, NotAvailableYet } from '@finishline/shared/react';

/**
 * The partner remote, exposed as './App'. Its pages are added here as later issues build them, each in
 * src/features/<feature>/; until then a route says plainly that it is not available yet.
 */
export default function PartnerApp() {
  return (
    <>
      <BuildBanner text={__FINISHLINE_BUILD_BANNER__} />
      <Routes>
        <Route path="/registration" element={<NotAvailableYet />} />
        <Route path="/show_revenue" element={<NotAvailableYet />} />
        <Route path="*" element={<NotAvailableYet />} />
      </Routes>
    </>
  );
}
