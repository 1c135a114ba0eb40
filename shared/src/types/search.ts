import type { AchievementsEligibility, EventDetails, Photo, PriceInfo, PrintProduct, SponsorOffer } from './entities';

export interface EventNameListResult {
  result: Array<
    Pick<
      EventDetails,
      'event_id' | 'event_name' | 'issearchable' | 'selfiesearch' | 'preorder_allowed' | 'showunlabeled' | 'event_logo' | 'event_from_date' | 'event_to_date'
    >
  >;
}

export interface EventDetailsRequest {
  eventID: number;
  eventName?: string;
  sessionToken?: string;
}

export interface EventDetailsResponse {
  event: EventDetails;
  /** Anonymous search session token (stored under session_token when no user session exists). */
  session_token: string;
}

export interface BibSearchRequest {
  eventName?: string;
  bibNumber: string;
  eventID: number;
  userID?: number | null;
  sessionToken?: string;
  orderId?: string | null;
}

/** Products state of the photo selection page (storefront spec section 3). */
export interface BibSearchResult {
  eventId: number;
  eventName: string;
  eventLogo: string;
  bibNumber: string;
  photo: Photo[];
  video: Photo[];
  priceInfo: PriceInfo;
  achievementsEligibility: AchievementsEligibility;
  /** ISO timestamp after which the signed image URLs and the search session expire. */
  awsImageExpary: string;
  total_image_count: number;
  isPrivacyCheckEnabled: boolean;
  isVerified: boolean;
  /** Masked participant email for the OTP drawer (first entry holds email1). */
  participantExists: Array<{ email1: string }>;
  threshold_photo_count: number;
  show_prempack: boolean;
  show_ultrapack: boolean;
  ultra_premium_pack: number;
  /** price: what the BIB's photos cost at copy pricing (bundle of 5 or more); Premium_Pack: the premium pack price. */
  bundlePriceInfo: { price: number; Premium_Pack: number };
  printProductInfo: PrintProduct[];
  sponsorOfferAvailableFlag: boolean;
  sponsorOffer: SponsorOffer | null;
  purchase_notification: string | null;
  /** Photos and videos of the BIB on the server, also when the privacy check withholds them. */
  total_video_count?: number;
  /** The event is on DISABLEPRINTS: no prints and no collages. */
  printsDisabled?: boolean;
}
