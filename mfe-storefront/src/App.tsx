import { Suspense } from 'react';
import { Route, Routes, useNavigate } from 'react-router-dom';
import { Button, Skeleton } from 'antd';
import { useAtomValue } from 'jotai';
import { shopAtom, type BibSearchResult, type CartCounts, type EventSummary } from '@finishline/shared';
import { AntdRoot, BuildBanner, lazyPage } from '@finishline/shared/react';
import { HomePage } from './features/home/pages/HomePage';
import { BibSearchForm } from './features/search/components/BibSearchForm';
import { ProductsPage, type ReportSlotProps } from './features/products/pages/ProductsPage';
import { OtpDrawer } from './features/otp/components/OtpDrawer';
import { ReportActions } from './features/report/components/ReportActions';
import { CartBottomBar, unlabeledCartSummaryText } from './features/products/components/CartBottomBar';
import { useCartBill } from './features/cart/api/useCartBill';
import { useBibSearch } from './features/search/api/useBibSearch';
import type { CartBarSlot } from './features/unlabeled/pages/UnlabeledPage';

/*
 * `/` and `/products` (the pages a first visit lands on) are in the exposed App's own files, which
 * the shell's page preloads. The rest load when first shown, so a first visit does not download
 * the cart, the unlabeled photos, the pre-order form (react-hook-form, yup), the selfie search or
 * the advanced search.
 */
const CartPage = lazyPage(() => import('./features/cart/pages/CartPage'), 'CartPage');
const UnlabeledPage = lazyPage(() => import('./features/unlabeled/pages/UnlabeledPage'), 'UnlabeledPage');
const PreorderPage = lazyPage(() => import('./features/preorder/pages/PreorderPage'), 'PreorderPage');
const SelfieSearchTab = lazyPage(() => import('./features/selfie/components/SelfieSearchTab'), 'SelfieSearchTab');
const AdvancedSearch = lazyPage(() => import('./features/advanced-search/components/AdvancedSearch'), 'AdvancedSearch');
/** The cart page's sponsor offer travels with the cart page's chunk. */
const CartWithSponsor = lazyPage(async () => {
  const [{ CartPage: Page }, { sponsorUi }] = await Promise.all([
    import('./features/cart/pages/CartPage'),
    import('./features/sponsor/components/SponsorOffer'),
  ]);
  return { CartWithSponsor: () => <Page sponsorUi={sponsorUi} /> };
}, 'CartWithSponsor');

/** The hero hosts the BIB search; features meet here rather than importing each other. */
const renderBibSearch = (event: EventSummary) => <BibSearchForm event={event} />;
const renderPrivacyCheck = (products: BibSearchResult, onVerified: () => Promise<void>) => <OtpDrawer products={products} onVerified={onVerified} />;
const renderReport = (props: ReportSlotProps) => <ReportActions {...props} />;
const renderSelfieSearch = (event: EventSummary) => (
  <Suspense fallback={<Skeleton active paragraph={{ rows: 1 }} />}>
    <SelfieSearchTab event={event} />
  </Suspense>
);

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
  return (
    <CartBottomBar
      counts={counts}
      total={bill.server?.total_amount ?? null}
      onProceed={onProceed}
      sentence={unlabeledCartSummaryText(counts)}
      proceedLabel="Proceed to Checkout"
    />
  );
}
const renderUnlabeledCartBar: CartBarSlot = (counts, onProceed) => <UnlabeledCartBar counts={counts} onProceed={onProceed} />;

const renderAdvancedSearch = () => (
  <Suspense fallback={<Skeleton active paragraph={{ rows: 2 }} />}>
    <AdvancedSearch renderOpenPhotos={(event, bib) => <ViewBibPhotos event={event} bib={bib} />} />
  </Suspense>
);

/**
 * The storefront remote, exposed as './App'. Its <Routes> hold every storefront page; the
 * catch-all is the home page (spec). Screens of later issues say they are not available yet.
 */
export default function StorefrontApp() {
  const navigate = useNavigate();
  // Contract with the account remote: /order-history?prebooked=1&race=<event> opens its Pre-Booked Photos (pre-order mapping) modal.
  const openPreBooked = (event: EventSummary) => navigate(`/order-history?prebooked=1&race=${encodeURIComponent(event.event_name)}`);
  const home = (
    <HomePage
      renderBibSearch={renderBibSearch}
      renderSelfieSearch={renderSelfieSearch}
      renderAdvancedSearch={renderAdvancedSearch}
      onPreBookedPhotos={openPreBooked}
    />
  );
  const products = <ProductsPage renderPrivacyCheck={renderPrivacyCheck} renderReport={renderReport} />;
  return (
    // Its own antd providers: antd is not shared with the shell (see AntdRoot).
    <AntdRoot component={false}>
      <BuildBanner text={__FINISHLINE_BUILD_BANNER__} />
      {/* A page loading for the first time shows a skeleton inside the shell's layout. */}
      <Suspense fallback={<Skeleton active style={{ maxWidth: 960, margin: '24px auto', padding: '0 16px' }} />}>
        <Routes>
          <Route path="/" element={home} />
          <Route path="/home" element={home} />
          <Route path="/products" element={products} />
          {/* Selfie results use the same photo selection screen as a BIB search (spec). */}
          <Route path="/searchbyselfie" element={products} />
          <Route path="/unlabeled-events" element={<UnlabeledPage renderCartBar={renderUnlabeledCartBar} />} />
          <Route path="/cart" element={<CartWithSponsor />} />
          <Route path="/unlabeled-cart" element={<CartPage unlabeled />} />
          <Route path="/preorder" element={<PreorderPage />} />
          <Route path="*" element={home} />
        </Routes>
      </Suspense>
    </AntdRoot>
  );
}
