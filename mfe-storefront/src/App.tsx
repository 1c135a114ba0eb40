import { Route, Routes } from 'react-router-dom';
import type { EventSummary } from '@finishline/shared';
import { BuildBanner, NotAvailableYet } from '@finishline/shared/react';
import { HomePage } from './features/home/pages/HomePage';
import { BibSearchForm } from './features/search/components/BibSearchForm';
import { ProductsPage } from './features/products/pages/ProductsPage';

/** The hero hosts the BIB search; features meet here rather than importing each other. */
const renderBibSearch = (event: EventSummary) => <BibSearchForm event={event} />;

/**
 * The storefront remote, exposed as './App'. Its <Routes> hold every storefront page; the
 * catch-all is the home page (spec). Screens of later issues say they are not available yet.
 */
export default function StorefrontApp() {
  const home = <HomePage renderBibSearch={renderBibSearch} />;
  return (
    <>
      <BuildBanner text={__FINISHLINE_BUILD_BANNER__} />
      <Routes>
        <Route path="/" element={home} />
        <Route path="/home" element={home} />
        <Route path="/products" element={<ProductsPage />} />
        <Route path="/searchbyselfie" element={<NotAvailableYet title="Selfie search results" />} />
        <Route path="/unlabeled-events" element={<NotAvailableYet title="Unlabeled photos" />} />
        <Route path="/cart" element={<NotAvailableYet title="Cart" />} />
        <Route path="/unlabeled-cart" element={<NotAvailableYet title="Cart" />} />
        <Route path="/preorder" element={<NotAvailableYet title="Pre-order" />} />
        <Route path="*" element={home} />
      </Routes>
    </>
  );
}
