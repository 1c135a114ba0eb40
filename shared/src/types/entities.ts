/** Entities of the spec, as they travel between server and browser. Numeric flags are 0 or 1 as in the spec. */
export type Flag = 0 | 1;

export interface EventSummary {
  event_id: number;
  event_name: string;
  event_logo: string;
  event_from_date: string; // ISO date (YYYY-MM-DD)
  event_to_date: string;
  issearchable: Flag;
  selfiesearch: Flag;
  preorder_allowed: Flag;
  showunlabeled: Flag;
  /** An example BIB in the event's own format, for the search box's hint (none: the spec's example). */
  bib_example?: string | null;
}

/** Full event returned by "get event details" (result[0]). */
export interface EventDetails extends EventSummary {
  event_location: string;
  privacy_check: Flag;
  threshold_photo_count: number;
  theme_code: string | null;
  is_featured?: Flag;
  /** Pre-order price and struck-through cut price in rupees before GST (null when not offered). */
  preorder_price?: number | null;
  preorder_cut_price?: number | null;
}

export interface CountryCode {
  country: string;
  iso: string;
  code: string; // e.g. "+91"
}

/** GET event-name list: every event (the autocomplete offers search where issearchable=1) and ISD codes. */
export interface EventNamesResult {
  events: EventSummary[];
  country_codes: CountryCode[];
}

export interface HighlightItem {
  id: number;
  s3: string;
}

/** One format of an image's renditions: a srcset ("<url> 480w, <url> 720w, …"). */
export interface ImageSource {
  type: 'image/webp' | 'image/jpeg';
  srcset: string;
}

export interface HeroImage {
  /** The original (JPEG): what a browser without srcset shows. */
  image: string;
  alt: string;
  /** The original's size, so the hero's box is laid out before the picture arrives; absent with no renditions. */
  width?: number;
  height?: number;
  /** The renditions, preferred format first (WebP, then JPEG); absent until they are made. */
  sources?: ImageSource[];
}

/**
 * The hero's `sizes`: it spans the window. The page's inline preload (build/firstRoutePreload.mjs)
 * uses the same value, so the browser chooses the same file for both and downloads it once.
 */
export const HERO_IMAGE_SIZES = '100vw';

export type EventsByYear = Record<string, EventSummary[]>;

export interface HomePageResult {
  past_event: EventsByYear;
  feature_event: EventsByYear;
  upcoming_event: EventSummary[];
  highlight_season: HighlightItem[];
  hero_image: HeroImage;
  /**
   * The certificate builder's events: each achievement's events in their required order, keyed by the
   * achievement's title; achievement_id says which achievement a list is.
   */
  slam_events?: Record<string, Array<Pick<EventSummary, 'event_id' | 'event_name'> & { achievement_id?: number }>>;
  /** The races whose finisher certificate is on (a one-event achievement each), for the builder only; the home page shows slam_events. */
  finisher_events?: Array<Pick<EventSummary, 'event_id' | 'event_name'> & { achievement_id: number }>;
}

export interface EventThemes {
  evtthemes: Array<{ evtcode: string; evtname: string }>;
  evtyears: Array<{ evtyear: number }>;
}

export type PhotoCategory = 'image' | 'video';
export type ItemType = 'download' | 'print' | 'collage';

/** A photo or video as shown on the selection page. s3 is a signed, expiring preview URL. */
export interface Photo {
  id: number;
  imageid: string;
  s3: string;
  image: string; // thumbnail URL
  imageAthlete?: string;
  category: PhotoCategory;
  type: ItemType;
  bibNumber: string; // or the literal 'unlabeled'
  videopath?: string;
  status?: 'Added';
  product?: string;
  productName?: string;
  price?: number;
  dataimg?: string;
  seq?: number;
  /** The picture's size in pixels as shown (upright): its thumbnail has these proportions. */
  width?: number;
  height?: number;
  sponsororderflag?: Flag;
  /**
   * 'face' when a BIB search found this photo by the runner's face (its bib hidden or unread), or a
   * selfie search by the runner's BIB; absent when found as asked. The grid says so on the card.
   */
  foundBy?: 'face' | 'bib';
}

/** The card's words for a photo found another way than the search asked (Photo.foundBy). */
export const FOUND_BY_TEXT = {
  face: 'Found by face',
  bib: 'Found by your BIB',
} as const;

export interface PrintProduct {
  id: number;
  prod_id?: number;
  name: string;
  image: string;
  price: number;
  pricewthgst: number;
  s3?: string;
}

export interface PriceInfo {
  /** Display copy pricing: single photo, extra photo, bundle of 5 or more. */
  single_photo: number;
  extra_photo: number;
  five_or_more: number;
  video: number;
  collage: number;
  gst_percent: number;
}

export interface SponsorOffer {
  id: number;
  coupon_name: string;
  sponsor_name: string;
  description: string;
  discount_amount: number;
  max_orders_allowed: number;
  /** percent: discount_amount is a percentage of each discounted photo; flat: rupees off each. */
  discount_type?: 'percent' | 'flat';
}

export interface AchievementsEligibility {
  certificate_eligible: boolean;
  certificate_url: string | null;
  achievement_id: number | null;
}

export interface User {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  primaryPhone: string;
  gender: string | null;
  address: string | null;
  pincode: string | null;
  isdCode: string;
  isOrganiser: boolean;
  isPartner: boolean;
  /** Whether the account proved its email address (see EmailProofNeeded). */
  emailVerified: boolean;
}

export type OrderStatus = 'Pending' | 'Paid' | 'Downloaded' | 'Cancelled';
