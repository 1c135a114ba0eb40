import type { OrderStatus } from './entities';
import type { CartRequest } from './cart';
import type { OrderPrintLine } from './fulfilment';

/**
 * Checkout, payment, orders, downloads and pre-orders (accounts-orders-partners spec, sections 3 and 7).
 * Amounts are rupees including GST.
 */

/** The cart part of create-order: the server re-prices it (buildBill) and never reads a client amount. */
export type OrderCartInfo = Pick<CartRequest, 'searchKind' | 'packageKind' | 'lines' | 'discountedPhotoIds'>;

/** Create-order payload (spec section 3). `amount` is accepted for compatibility and ignored. */
export interface CreateOrderRequest {
  userID?: number | null;
  name: string;
  email: string;
  phone_number: string;
  gender?: string;
  /** Asked (and stored) only when the order ships a print or a collage. */
  shipping_address?: string;
  /** Asked (and stored) only when the order ships a print or a collage: 6 digits, not starting with 0. */
  pincode?: string;
  isdCode?: string;
  print_instruction?: string;
  eventID: number;
  bibNumber: string;
  photoID?: string;
  sponsorofferID?: number | null;
  amount?: number;
  cartInfo: OrderCartInfo;
  /** Guest checkout: 1, with a solved captcha. */
  newUserFlg?: number;
  captcha?: string;
}

/** Create-order result: the fields of the hidden form posted to the payment provider. */
export interface PaymentForm {
  /** Rupees as PayU text ("590.00"); "0.00" for a free order, which is already complete. */
  amount: string;
  name: string;
  firstname: string;
  lastname: string;
  email: string;
  phone: string;
  productinfo: string;
  txnid: string;
  hash: string;
  key: string;
  surl: string;
  furl: string;
  udf1: string;
  PAYU_API_URL: string;
  /** Our order reference (also in udf1). */
  order_ref: string;
  /** The failure address returns here: the unlabeled cart when true. */
  unlabeled: boolean;
}

export interface OrderHistoryRequest {
  /** Ignored by the server: the history is always the signed-in user's. */
  userID?: number | null;
  searchtext?: string;
}

export interface OrderHistoryRow {
  index: number;
  name: string;
  order_ref: string;
  bib_id: string;
  photos_count: number;
  price: number;
  gst: number;
  payment_id: string | null;
  status: OrderStatus;
  email: string;
  phone: string;
  event_id: number;
  unlabeled: boolean;
  is_preorder: boolean;
}

export interface OrderHistoryResult {
  order_history: OrderHistoryRow[];
  /**
   * Orders placed with the account's email address without signing in to it, held back until the
   * account proves the address (0 once it has).
   */
  withheld_orders: number;
  /** The account's address, and whether it is proven. */
  email: string;
  email_verified: boolean;
}

export interface OrderMedia {
  id: number;
  imageid: string;
  /** Signed preview URL for display; the original comes through a download link. */
  s3: string;
  image: string;
  category: 'image' | 'video';
}

export interface OrderPrint {
  type: 'print' | 'collage';
  name: string;
  orientation: string | null;
  /** Preview of the photo (prints) or of each photo of the collage. */
  s3: string[];
  price: number;
}

/** The order as the detail screens show it (spec "Order"). */
export interface OrderDetail {
  order_ref: string;
  bib_no: string;
  eventID: number;
  eventName: string;
  eventLogo: string;
  sponsorLogo: string;
  /** The sponsor whose discount the order used, if any. */
  sponsorName: string | null;
  order_email: string;
  orderTotal_amount: number;
  gst: number;
  status: OrderStatus;
  payment_id: string | null;
  photo: OrderMedia[];
  video: OrderMedia[];
  prints: OrderPrint[];
  /** Each print and collage of a paid order with its status and tracking (replacements too). */
  printLines: OrderPrintLine[];
  /** Where the prints go (kept per order; never changed once a print of it is shipped); null for downloads only. */
  shipping: { address: string; pincode: string } | null;
  print_instructions: string;
  /** 'b_premium' or 'b_ultraprem' when the order is a bundle. */
  bundle: string | null;
  is_preorder: boolean;
  /** Last day downloads work (ISO), null while unpaid. */
  download_until: string | null;
  /** Cart lines to restore on Retry of a Pending order. */
  cartInfo: OrderCartInfo;
  unlabeled: boolean;
}

export interface OrderDetailRequest {
  orderID: string;
  bibNumber?: string;
}

/** The four query values of a pre-authorised link. */
export interface PreauthParams {
  orderref: string;
  e: string;
  lt: string;
  h: string;
}

/** Download calls: by a signed-in owner, or carrying the pre-authorised link's values. */
export interface DownloadOrderRequest {
  orderID: string;
  bibNumber?: string;
  preauth?: PreauthParams;
}

export interface DownloadImageRequest extends DownloadOrderRequest {
  imageID: number;
}

export interface PreorderInfoResult {
  eventslist: Array<{ event_id: number; event_name: string; event_logo: string; event_from_date: string; event_to_date: string }>;
  /** price: rupees including GST; cut_price: struck-through price including GST. */
  preorderprice: { price: number; cut_price: number | null };
}

/** Pre-order payload (spec section 3); the amount is the server's pre-order price. */
export interface PreorderRequest {
  newUserFlg?: number;
  userID?: number | null;
  name: string;
  email: string;
  phone_number: string;
  isdCode?: string;
  photo_count?: number;
  instruction?: string;
  eventID: number;
  bibNumber?: 'prebook';
  amount?: number;
  eventName?: string;
  registration_ref?: string;
  captcha: string;
}

export interface PreorderLinkRequest {
  orderId: string;
  orderEmail: string;
  orderBibNumber: string;
  mobilenum: string;
}

export interface PreorderLinkResult {
  order_ref: string;
  bib_no: string;
  /** The pre-authorised download page address. */
  link: string;
  preauth: PreauthParams;
}

export interface PurchaseNotificationResult {
  purchase_notification: string | null;
}
