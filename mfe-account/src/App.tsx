import { Route, Routes } from 'react-router-dom';
import { BuildBanner, NotAvailableYet } from '@finishline/shared/react';

/**
 * The account remote, exposed as './App'. Its pages are added here as later issues build them, each in
 * src/features/<feature>/; until then a route says plainly that it is not available yet.
 */
export default function AccountApp() {
  return (
    <>
      <BuildBanner text={__FINISHLINE_BUILD_BANNER__} />
      <Routes>
        <Route path="/UserOrderdetails" element={<NotAvailableYet />} />
        <Route path="/checkoutPage-authentication" element={<NotAvailableYet />} />
        <Route path="/test" element={<NotAvailableYet />} />
        <Route path="/order-confirm" element={<NotAvailableYet />} />
        <Route path="/order-confirmation" element={<NotAvailableYet />} />
        <Route path="/ordersuccess" element={<NotAvailableYet />} />
        <Route path="/order-history" element={<NotAvailableYet />} />
        <Route path="/orderDetails" element={<NotAvailableYet />} />
        <Route path="/myorders" element={<NotAvailableYet />} />
        <Route path="/preauthdownload" element={<NotAvailableYet />} />
        <Route path="/ec" element={<NotAvailableYet />} />
        <Route path="/PremiumPackageModal" element={<NotAvailableYet />} />
        <Route path="/UltraPremiumPackageModal" element={<NotAvailableYet />} />
        <Route path="/JourneyModal" element={<NotAvailableYet />} />
        <Route path="*" element={<NotAvailableYet />} />
      </Routes>
    </>
  );
}
