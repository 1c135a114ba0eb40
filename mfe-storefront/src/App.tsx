import { Route, Routes, useNavigate } from 'react-router-dom';
import { Button } from 'antd';
import { useAtomValue } from 'jotai';
import { shopAtom, type BibSearchResult, type CartCounts, type EventSummary } from '@finishline/shared';
import { AntdRoot, BuildBanner } from '@finishline/shared/react';
import { HomePage } from './features/home/pages/HomePage';
import { BibSearchForm } from './features/search/components/BibSearchForm';
import { ProductsPage, type ReportSlotProps } from './features/products/pages/ProductsPage';
import { OtpDrawer } from './features/otp/components/OtpDrawer';
import { ReportActions } from './features/report/components/ReportActions';
import { CartBottomBar, unlabeledCartSummaryText } from './features/products/components/CartBottomBar';
import { CartPage } from './features/cart/pages/CartPage';
import { useCartBill } from './features/cart/api/useCartBill';
import { sponsorUi } from './features/sponsor/components/SponsorOffer';
import { useBibSearch } from './features/search/api/useBibSearch';
import { SelfieSearchTab } from './features/selfie/components/SelfieSearchTab';
import { AdvancedSearch } from './features/advanced-search/components/AdvancedSearch';
import { UnlabeledPage, type CartBarSlot } from './features/unlabeled/pages/UnlabeledPage';
import { PreorderPage } from './features/preorder/pages/PreorderPage';

/** The hero hosts the BIB search; features meet here rather than importing each other. */
const renderBibSearch = (event: EventSummary) => <BibSearchForm event={event} />;
const renderPrivacyCheck = (products: BibSearchResult, onVerified: () => Promise<void>) => <OtpDrawer products={products} onVerified={onVerified} />;
const renderReport = (props: ReportSlotProps) => <ReportActions {...props} />;
const renderSelfieSearch = (event: EventSummary) => <SelfieSearchTab event={event} />;

/** Advanced search opens a BIB's photos with the ordinary BIB search. */
function ViewBibPhotos({ event, bib }: { event: EventSummary; bib: string }) {
  const { search, processing } = useBibSearch(event);
  return (
    <Button size="small" type="link" loading={processing} onClick={() => void search(bib)}>
      View photos
    </Button>
  );
}
/** The unlabeled photos' bottom bar: the photos page's bar, its total the server's bill for the unlabeled cart. */
function UnlabeledCartBar({ counts, onProceed }: { counts: CartCounts; onProceed: () => void }) {
  const bill = useCartBill(useAtomValue(shopAtom), true);
  return <CartBottomBar counts={counts} total={bill.server?.total_amount ?? null} onProceed={onProceed} sentence={unlabeledCartSummaryText(counts)} proceedLabel="Proceed to Checkout" />;
}
const renderUnlabeledCartBar: CartBarSlot = (counts, onProceed) => <UnlabeledCartBar counts={counts} onProceed={onProceed} />;

const renderAdvancedSearch = () => <AdvancedSearch renderOpenPhotos={(event, bib) => <ViewBibPhotos event={event} bib={bib} />} />;

/**
 * The storefront remote, exposed as './App'. Its <Routes> hold every storefront page; the
 * catch-all is the home page (spec). Screens of later issues say they are not available yet.
 */
export default function StorefrontApp() {
  const navigate = useNavigate();
  // Contract with the account remote: /order-history?prebooked=1&race=<event> opens its Pre-Booked Photos (pre-order mapping) modal.
  const openPreBooked = (event: EventSummary) => navigate(`/order-history?prebooked=1&race=${encodeURIComponent(event.event_name)}`);
  const home = (
    <HomePage renderBibSearch={renderBibSearch} renderSelfieSearch={renderSelfieSearch} renderAdvancedSearch={renderAdvancedSearch} onPreBookedPhotos={openPreBooked} />
  );
  const products = <ProductsPage renderPrivacyCheck={renderPrivacyCheck} renderReport={renderReport} />;
  return (
    // Its own antd providers: antd is not shared with the shell (see AntdRoot).
    <AntdRoot component={false}>
      <BuildBanner text={__FINISHLINE_BUILD_BANNER__} />
      <Routes>
        <Route path="/" element={home} />
        <Route path="/home" element={home} />
        <Route path="/products" element={products} />
        {/* Selfie results use the same photo selection screen as a BIB search (spec). */}
        <Route path="/searchbyselfie" element={products} />
        <Route path="/unlabeled-events" element={<UnlabeledPage renderCartBar={renderUnlabeledCartBar} />} />
        <Route path="/cart" element={<CartPage sponsorUi={sponsorUi} />} />
        <Route path="/unlabeled-cart" element={<CartPage unlabeled />} />
        <Route path="/preorder" element={<PreorderPage />} />
        <Route path="*" element={home} />
      </Routes>
    </AntdRoot>
  );
}
