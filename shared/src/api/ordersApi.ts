import { API_ROUTES } from './routes';
import { get, post } from '@finishline/shared/runtime';
import { preloadedOr } from './preloaded';
import type {
  CreateOrderRequest,
  DownloadImageRequest,
  DownloadOrderRequest,
  OrderDetail,
  OrderDetailRequest,
  OrderHistoryRequest,
  OrderHistoryResult,
  PaymentForm,
  PreauthParams,
  PreorderInfoResult,
  PreorderLinkRequest,
  PreorderLinkResult,
  PreorderRequest,
  PurchaseNotificationResult,
} from '../types/orders';

/** Typed calls of checkout, orders, downloads and pre-orders (spec section 7). */
export const ordersApi = {
  createOrder: (body: CreateOrderRequest) => post<PaymentForm>(API_ROUTES.createOrder, body),
  orderHistory: (body: OrderHistoryRequest) => post<OrderHistoryResult>(API_ROUTES.orderHistory, body),
  orderDetail: (body: OrderDetailRequest) => post<OrderDetail>(API_ROUTES.orderDetail, body),
  myOrder: (orderid: string) => post<OrderDetail>(`${API_ROUTES.myOrder}?orderid=${encodeURIComponent(orderid)}`),
  preauthDownload: (params: PreauthParams) => get<OrderDetail>(API_ROUTES.preauthDownload, { ...params }),
  downloadOrder: (body: DownloadOrderRequest) => post<string>(API_ROUTES.downloadOrder, body),
  downloadImage: (body: DownloadImageRequest) => post<string>(API_ROUTES.downloadImage, body),
  preorderInfo: (eventId: number) => post<PreorderInfoResult>(`${API_ROUTES.preorderInfo}?eventId=${eventId}`),
  createPreorder: (body: PreorderRequest) => post<PaymentForm>(API_ROUTES.createPreorder, body),
  generatePreorderLink: (body: PreorderLinkRequest) => post<PreorderLinkResult>(API_ROUTES.preorderLink, body),
  /** Taken from the page's early request when there is one (build/firstRoutePreload.mjs). */
  purchaseNotification: () => preloadedOr('notification', () => get<PurchaseNotificationResult>(API_ROUTES.purchaseNotification)),
};
