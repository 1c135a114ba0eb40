import { Route } from 'react-router-dom';
import { NotAvailableYet, ProcessingOverlay, RemoteRoutes } from '@finishline/shared/react';
import { CheckoutAuthPage, UserOrderDetailsPage } from './features/checkout/pages/CheckoutPages';
import { OrderConfirmPage } from './features/payment/pages/OrderConfirmPage';
import { OrderSuccessPage } from './features/payment/pages/OrderSuccessPage';
import { OrderHistoryPage } from './features/orders/pages/OrderHistoryPage';
import { OrderDetailsPage } from './features/orders/pages/OrderDetailsPage';
import type { DownloadsUi } from './features/orders/components/OrderView';
import { useDownloads } from './features/downloads/api/useDownloads';
import { PreBookedPhotosModal } from './features/preorder/components/PreBookedPhotosModal';
import { PrintOrdersPage } from './features/fulfilment/pages/PrintOrdersPage';
import { ListYourRacePage } from './features/listRace/pages/ListYourRacePage';
import { OperatorConsolePage } from './features/operator/pages/OperatorConsolePage';

/** Features meet here: the order pages get the downloads feature's hook and overlay, the history the pre-order modal. */
const downloads: DownloadsUi = { useDownloads, Overlay: ProcessingOverlay };

/**
 * The account remote, exposed as './App': checkout, payment return pages, order history and details,
 * downloads and the pre-order mapping modal (opened by /order-history?prebooked=1&race=<event>), and
 * the print queue of fulfilment staff (/print-orders), "List your race" for any signed-in account
 * (/list-your-race) and the operator's console (/operator).
 */
export default function AccountApp() {
  return (
    <RemoteRoutes banner={__FINISHLINE_BUILD_BANNER__}>
      <Route path="/UserOrderdetails" element={<UserOrderDetailsPage />} />
      <Route path="/test" element={<UserOrderDetailsPage />} />
      <Route path="/checkoutPage-authentication" element={<CheckoutAuthPage />} />
      <Route path="/order-confirm" element={<OrderConfirmPage />} />
      <Route path="/order-confirmation" element={<OrderConfirmPage />} />
      <Route path="/ordersuccess" element={<OrderSuccessPage />} />
      <Route path="/order-history" element={<OrderHistoryPage PrebookModal={PreBookedPhotosModal} Overlay={ProcessingOverlay} />} />
      <Route path="/orderDetails" element={<OrderDetailsPage mode="details" downloads={downloads} />} />
      <Route path="/myorders" element={<OrderDetailsPage mode="myorders" downloads={downloads} />} />
      <Route path="/preauthdownload" element={<OrderDetailsPage mode="preauth" downloads={downloads} />} />
      <Route path="/print-orders" element={<PrintOrdersPage />} />
      <Route path="/list-your-race" element={<ListYourRacePage />} />
      <Route path="/operator" element={<OperatorConsolePage />} />
      <Route path="/ec" element={<NotAvailableYet />} />
      <Route path="/PremiumPackageModal" element={<NotAvailableYet />} />
      <Route path="/UltraPremiumPackageModal" element={<NotAvailableYet />} />
      <Route path="/JourneyModal" element={<NotAvailableYet />} />
    </RemoteRoutes>
  );
}
