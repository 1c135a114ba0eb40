/**
 * API paths, in one place for the server (which registers them) and the client (which calls them).
 * The spec leaves paths unshown; these are ours.
 */
export const API_ROUTES = {
  health: '/health',
  eventNames: '/api/events/names',
  homePage: '/api/home',
  eventThemes: '/api/events/themes',
  eventDetails: '/api/events/details',
  multiEventList: '/api/events/multi',
  searchByBib: '/api/search/bib',
  masterConfig: '/api/config/master',
  media: '/media',
  cartDetails: '/api/cart/details',
  unlabeledCartDetails: '/api/cart/unlabeled-details',
  generateOtp: '/api/otp/generate',
  verifyOtp: '/api/otp/verify',
  recordFeedback: '/api/feedback/photos',
  // Selfie search, face indexing progress, advanced search and photo pages (discovery)
  searchBySelfie: '/api/search/selfie',
  faceIndexStatus: '/api/faces/index-status',
  bibAvailability: '/api/search/bib-availability',
  paginatePhotos: '/api/photos/paginate',
  // Accounts, passwords, captcha, contact (shell)
  captchaChallenge: '/api/captcha/challenge',
  login: '/api/auth/login',
  socialLogin: '/api/auth/social-login',
  register: '/api/auth/register',
  passwordCode: '/api/auth/password-code',
  passwordReset: '/api/auth/password-reset',
  changePassword: '/api/auth/change-password',
  logout: '/api/auth/logout',
  currentUser: '/api/auth/me',
  checkoutUserInfo: '/api/auth/user-info',
  contact: '/api/contact',
  devOutbox: '/dev/outbox',
  devOutboxJson: '/dev/outbox.json',
  // Selfie search, face indexing progress, advanced search and photo pages (discovery)
  searchBySelfie: '/api/search/selfie',
  faceIndexStatus: '/api/faces/index-status',
  bibAvailability: '/api/search/bib-availability',
  paginatePhotos: '/api/photos/paginate',
} as const;
