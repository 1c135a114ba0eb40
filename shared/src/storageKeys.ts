/**
 * Local storage keys named by the spec. Values are written exactly under these names so that
 * every remote reads the same thing; never spell a key inline elsewhere.
 */
export const STORAGE_KEYS = {
  name: 'Name',
  email: 'Email',
  userId: 'ID',
  isSignedIn: 'isSignedIn',
  sessionToken: 'session_token',
  bibId: 'bibId',
  selectedEvent: 'Selected Event',
  selectedEventId: 'Selected Event Id',
  achievementsEligibility: 'achievementsEligibility',
  showModal: 'showModal',
  awsImageExpiry: 'awsImageExpiry',
  cartPrice: 'cartPrice',
  gst: 'gst',
  passcode: 'passcode',
  cookies: 'Cookies',
  isPending: 'isPending',
  preOrderPopupShown: 'preOrderPopupShown',
  currPage: 'currPage',
  orientation: 'Orientation',
  print: 'Print',
  config: 'Config',
  isUnlabeled: 'isUnlabled',
  eventId: 'eventID',
  isOrganiser: 'isOrganiser',
  isPartner: 'isPartner',
  /** 'false' while the signed-in account has not proved its email address (the menu then offers Confirm Email). */
  emailVerified: 'emailVerified',
  isdCode: 'isdCode',
  eventTemplateData: 'event_template_data',
  eventPhotosData: 'event_photos_data',
  txnid: 'txnid',
  /** 'true' once the runner agreed to the face search notice (DPDP Act: notice and consent before the first selfie). */
  faceSearchConsent: 'faceSearchConsent',
  /** The event a photographer last chose on Upload or My Photos, so the other screen opens on it. */
  supplyEventId: 'supplyEventId',
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/** The persisted jotai shop store lives under this key; the version is part of the stored value. */
export const SHOP_STORE_KEY = 'finishline.shop';
export const SHOP_STORE_VERSION = 1;

/** isSignedIn is stored as 'yes' or 'true' (spec); both count as signed in. */
export function isSignedInValue(value: string | null | undefined): boolean {
  return value === 'yes' || value === 'true';
}
