/**
 * The organiser's screens (accounts-orders-partners spec: Event Dashboard, organiser dashboard result
 * and call) and what Finishline adds to them: the organiser's own events, participants, moderation,
 * the event's audit trail and the operator's role grants. Amounts are rupees.
 */
import type { Flag } from './entities';

/** Dashboard tables show this many rows per page (spec section 9). */
export const DASHBOARD_PAGE_SIZE = 15;
export const NO_MATCHING_RECORDS = 'No matching records found';

/** The switches of an event the spec's events carry; each change is recorded with who and when. */
export const EVENT_SWITCHES = [
  'partner_registration',
  'issearchable',
  'selfiesearch',
  'showunlabeled',
  'preorder_allowed',
  'privacy_check',
  'prints_disabled',
] as const;
export type EventSwitch = (typeof EVENT_SWITCHES)[number];

export const EVENT_SWITCH_LABELS: Record<EventSwitch, string> = {
  partner_registration: 'Photographer registration open',
  issearchable: 'Photos searchable',
  selfiesearch: 'Search by selfie',
  showunlabeled: 'Unlabeled photos shown',
  preorder_allowed: 'Pre-orders allowed',
  privacy_check: 'Privacy check (OTP)',
  prints_disabled: 'Prints disabled',
};

/** One row of the spec's eventslist, plus whether the event is published yet. */
export interface OrganiserEventListRow {
  event_id: number;
  event_name: string;
  event_from_date: string;
  event_to_date: string;
  event_location: string;
  issearchable: Flag;
  published: Flag;
}

/**
 * Revenue of the event's paid orders (Paid and Downloaded) grouped by the price of their photos: the
 * amount of the order's digital line before discount and GST (the photos, a package or a pre-order;
 * 0 for orders of videos or prints only). Every value is a sum over those orders.
 */
export interface EventRevenueRow {
  price: number;
  /** What the price is of: photos, a premium or ultra premium package, a pre-order, or none. */
  price_kind: 'images' | 'pack' | 'preorder' | 'none';
  totalords: number;
  /** Videos, before GST. */
  videoval: number;
  /** Prints and collages, before GST. */
  printval: number;
  /** Sponsor discount given. */
  discountamount: number;
  /** Order value before GST (after the discount). */
  ordval: number;
  /** Photos and videos in those orders (the Photos column of the order history). */
  photos_count: number;
  tax: number;
  /** What the buyers paid, GST included (the Order Value of the order history), less refunds. */
  totalrev: number;
  /** Refunds of prints and collages accepted by the gateway, GST included (already taken off the other columns). */
  refunded: number;
}

export type EventRevenueTotals = Omit<EventRevenueRow, 'price' | 'price_kind'>;

/** Order stages (spec: "payment pending (dropped)" and "booked with download pending"). */
export type OrderStage = 'payment pending (dropped)' | 'payment in progress' | 'booked with download pending' | 'downloaded' | 'cancelled';
export interface AnalyticsRow {
  stage: OrderStage;
  orders: number;
  /** Their value, GST included. */
  amount: number;
}

export interface DailySalesRow {
  /** Day of payment in India, YYYY-MM-DD. */
  day: string;
  orders: number;
  /** Paid, GST included. */
  revenue: number;
}

export type FunnelStep = 'searches' | 'carts' | 'orders created' | 'paid' | 'downloaded';
export interface FunnelRow {
  step: FunnelStep;
  count: number;
  /** How many fewer than the step before (0 for the first). */
  drop: number;
  /** That drop as a percentage of the step before, one decimal. */
  drop_percent: number;
}

export type ProductKind = 'images' | 'pack' | 'video' | 'print' | 'collage' | 'preorder';
export const PRODUCT_LABELS: Record<ProductKind, string> = {
  images: 'Photo downloads',
  pack: 'Packages',
  video: 'Videos',
  print: 'Prints',
  collage: 'Collages',
  preorder: 'Pre-orders',
};
export interface ProductRevenueRow {
  product: ProductKind;
  /** Items sold (photos for downloads, one per video, print, collage, package or pre-order). */
  quantity: number;
  /** Before GST, after the sponsor discount. */
  net: number;
  discount: number;
  gst: number;
  total: number;
  /** Refunded, GST included (already taken off net, gst and total). */
  refunded: number;
}

export interface SponsorDiscountRow {
  sponsor_name: string;
  coupon_name: string;
  orders: number;
  photos: number;
  discount: number;
}

export interface PartnerShareRow {
  partner_user_id: number;
  name: string;
  nickname: string;
  share_percent: number;
  orders: number;
  partner_images: number;
  /** Sales of the partner's photos before GST. */
  sales: number;
  share: number;
}

/**
 * Beyond the spec: the live ledger of the event. Each photographer's share is its own call
 * (organiserApi.partnerShares): it reads every photo sale of the event through the one ledger rule.
 */
export interface EventLedger {
  daily: DailySalesRow[];
  funnel: FunnelRow[];
  products: ProductRevenueRow[];
  sponsors: SponsorDiscountRow[];
}

/** Organiser dashboard call: `email` alone lists the events; with `event_id` it returns the details too. */
export interface OrganiserDashboardRequest {
  email?: string;
  event_id?: number;
}

export interface OrganiserDashboardResult {
  eventslist: OrganiserEventListRow[];
  event_revenue?: EventRevenueRow[];
  totals?: EventRevenueTotals;
  totalbibs?: { totalbibs: number };
  totalimgs?: { totalimgs: number };
  totunqimgs?: number;
  analytics?: AnalyticsRow[];
  ledger?: EventLedger;
}

/** An event's prices and packages as stored: rupees before GST. */
export interface EventPricing {
  single_photo_price: number;
  extra_photo_price: number;
  bundle_price: number;
  video_price: number;
  collage_price: number;
  threshold_photo_count: number;
  premium_pack_price: number;
  ultra_premium_pack_price: number;
  show_prempack: boolean;
  show_ultrapack: boolean;
  preorder_price: number | null;
  preorder_cut_price: number | null;
}

/** The event as its organiser edits it. Prices are rupees before GST. */
export interface OrganiserEventForm extends EventPricing {
  name: string;
  from_date: string;
  to_date: string;
  location: string;
  theme_code: string | null;
  /** Anchored, case-insensitive regular expression; empty: any 1 to 12 letters and digits. */
  bib_pattern: string | null;
  /** The event's own price per print product; a product not named keeps the catalogue price. */
  print_prices: Array<{ print_product_id: number; price: number }>;
  sponsor_offer: OrganiserSponsorOffer | null;
  /** Photographers may register while the race is still hidden from runners (before race day). */
  partner_registration: boolean;
  issearchable: boolean;
  selfiesearch: boolean;
  showunlabeled: boolean;
  preorder_allowed: boolean;
  privacy_check: boolean;
  prints_disabled: boolean;
}

export interface OrganiserSponsorOffer {
  coupon_name: string;
  sponsor_name: string;
  description: string;
  discount_type: 'percent' | 'flat';
  discount_amount: number;
  max_orders_allowed: number;
}

export interface OrganiserEvent extends OrganiserEventForm {
  event_id: number;
  event_logo: string;
  /** The course map drawn on the race's journey-map collages ('' when none). */
  course_map: string;
  published: boolean;
  published_at: string | null;
  /** The print catalogue with this event's prices, to edit them. */
  print_catalogue: Array<{ print_product_id: number; name: string; catalogue_price: number; price: number }>;
  participants: number;
  photos: number;
}

export type CreateEventRequest = OrganiserEventForm;
export interface UpdateEventRequest extends OrganiserEventForm {
  eventId: number;
}
export interface EventIdRequest {
  eventId: number;
}
export interface EventSwitchRequest {
  eventId: number;
  name: EventSwitch;
  on: boolean;
}
export interface EventLogoRequest {
  eventId: number;
  /** PNG or JPEG as base64 (a data URL prefix is allowed), at most 1 MB. */
  image: string;
}
export const EVENT_LOGO_MAX_BYTES = 1024 * 1024;
/** The course map printed at the foot of the race's journey-map collages: a PNG or JPEG of at most 5 MB. */
export const COURSE_MAP_MAX_BYTES = 5 * 1024 * 1024;
export const COURSE_MAP_MESSAGE = 'Please choose a PNG or JPEG course map of at most 5 MB.';

export interface EventChange {
  field: string;
  old_value: string | null;
  new_value: string | null;
  changed_by: string;
  changed_at: string;
}

/** Participants or results of an event, as CSV: BIB and name required, finish time, email and phone optional. */
export interface ParticipantsImportRequest {
  eventId: number;
  csv: string;
}
export const PARTICIPANTS_CSV_MAX_CHARACTERS = 5_000_000;
export const PARTICIPANTS_MAX_ROWS = 100_000;
/** At most this many row errors are listed; the count says how many there are. */
export const PARTICIPANT_ERRORS_SHOWN = 50;
export interface ParticipantRowError {
  /** Line of the file (the header is line 1). */
  line: number;
  message: string;
}
export interface ParticipantsImportResult {
  imported: number;
  replaced: number;
}
/** The result of a refused import (HTTP 400): nothing was imported. */
export interface ParticipantsImportRefusal {
  errorCount: number;
  errors: ParticipantRowError[];
}

export interface ParticipantsRequest {
  eventId: number;
  page?: number;
  search?: string;
  /** Every participant at once (the CSV export) instead of one page of 15. */
  all?: boolean;
}
export interface ParticipantRow {
  bib_number: string;
  name: string;
  email: string | null;
  phone: string | null;
  finish_time: string | null;
}
export interface ParticipantsResult {
  rows: ParticipantRow[];
  total: number;
  page: number;
}

export type ReportStatus = 'open' | 'upheld' | 'dismissed';
export interface PhotoReportsRequest {
  eventId: number;
  status?: ReportStatus;
}
export interface PhotoReportRow {
  report_id: number;
  photo_id: number;
  image_id: string;
  bib_number: string;
  /** Signed thumbnail link, valid for the search session's minutes. */
  thumb: string;
  reporter: string;
  status: ReportStatus;
  reported_at: string;
  reviewed_at: string | null;
}
export interface DecideReportRequest {
  eventId: number;
  reportId: number;
  decision: 'upheld' | 'dismissed';
}

export interface DeleteFaceDataRequest {
  eventId: number;
  /** The event's name typed again, so a click alone cannot delete. */
  confirmName: string;
}
export interface DeleteFaceDataResult {
  faces: number;
  jobs: number;
}

/** The operator's call: grant (or take back) the organiser role of an existing account. */
export interface OrganiserRoleRequest {
  email: string;
  grant: boolean;
}
export interface OrganiserRoleResult {
  userId: number;
  email: string;
  isOrganiser: boolean;
}
