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
  isFulfilment: 'isFulfilment',
  isOperator: 'isOperator',
  /** 'false' while the signed-in account has not proved its email address (the menu then offers Confirm Email). */
  emailVerified: 'emailVerified',
  isdCode: 'isdCode',
  eventTemplateData: 'event_template_data',
  eventPhotosData: 'event_photos_data',
  txnid: 'txnid',
  /**
   * The version of the face search notice the runner agreed to (FACE_CONSENT_VERSION; DPDP Act: notice
   * and consent before the first selfie). Sent with each selfie search; another version asks again.
   */
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

/**
 * The browser's random bucket, 0 to 99, kept so a visitor stays on one side of a canary release
 * (shell/src/app/remotes/releaseChoice.ts): a canary with a share of 10 is given to buckets 0 to 9.
 */
export const RELEASE_BUCKET_KEY = 'finishline.releaseBucket';
/** When this browser last sent reports to the API, and how many batches in that minute (the shell's per-browser limit). */
export const REPORT_LIMIT_KEY = 'finishline.reportLimit';
/** Reports that waited for this browser's limit when the page went away: sent by the next page. */
export const REPORT_PENDING_KEY = 'finishline.reportPending';
