import { Route, Routes } from 'react-router-dom';
import type { BibSearchResult, EventSummary } from '@finishline/shared';
import { BuildBanner, NotAvailableYet } from '@finishline/shared/react';
import { HomePage } from './features/home/pages/HomePage';
import { BibSearchForm } from './features/search/components/BibSearchForm';
import { ProductsPage, type ReportSlotProps } from './features/products/pages/ProductsPage';
import { OtpDrawer } from './features/otp/components/OtpDrawer';
import { ReportActions } from './features/report/components/ReportActions';
import { CartPage } from './features/cart/pages/CartPage';
import { sponsorUi } from './features/sponsor/components/SponsorOffer';

/** The hero hosts the BIB search; features meet here rather than importing each other. */
const renderBibSearch = (event: EventSummary) => <BibSearchForm event={event} />;
const renderPrivacyCheck = (products: BibSearchResult, onVerified: () => Promise<void>) => <OtpDrawer products={products} onVerified={onVerified} />;
const renderReport = (props: ReportSlotProps) => <ReportActions {...props} />;

/**
 * The storefront remote, exposed as './App'. Its <Routes> hold every storefront page; the
 * catch-all is the home page (spec). Screens of later issues say they are not available yet.
 */
export default function StorefrontApp() {
  const home = <HomePage renderBibSearch={renderBibSearch} />;
  const products = <ProductsPage renderPrivacyCheck={renderPrivacyCheck} renderReport={renderReport} />;
  return (
    <>
      <BuildBanner text={__FINISHLINE_BUILD_BANNER__} />
      <Routes>
        <Route path="/" element={home} />
        <Route path="/home" element={home} />
        <Route path="/products" element={products} />
        <Route path="/searchbyselfie" element={<NotAvailableYet title="Selfie search results" />} />
        <Route path="/unlabeled-events" element={<NotAvailableYet title="Unlabeled photos" />} />
        <Route path="/cart" element={<CartPage sponsorUi={sponsorUi} />} />
        <Route path="/unlabeled-cart" element={<CartPage unlabeled />} />
        <Route path="/preorder" element={<NotAvailableYet title="Pre-order" />} />
        <Route path="*" element={home} />
      </Routes>
    </>
  );
}
