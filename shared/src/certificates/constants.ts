import { PHOTOS_PER_PAGE } from '../types/discovery';

/** The certificate builder's numbers (accounts spec section 9), for the browser and the server alike. */
export const CERTIFICATE_LIMITS = {
  photosPerPage: PHOTOS_PER_PAGE,
  /** Event + BIB pairs sent by the achievements search; unused slots are sent empty. */
  maxPairs: 4,
  zoom: { min: 0.5, max: 3, step: 0.1 },
  rotation: { min: -45, max: 45 },
  /** The crop is square and at least this many (display) pixels wide, inside the image. */
  minCropPx: 10,
  jpegQuality: 0.95,
  defaultOutput: { width: 3840, height: 2560 },
  defaultNameSize: 60,
  defaultTimeSize: 70,
  defaultTextSize: 48,
  fontLoadTimeoutMs: 3000,
  /** The uploaded certificate: a JPEG of the template's size, at most this many bytes. */
  maxUploadBytes: 10 * 1024 * 1024,
} as const;

/** The organiser's own certificate background: a JPEG or PNG of at most this many bytes. */
export const CERTIFICATE_BACKGROUND_MAX_BYTES = 5 * 1024 * 1024;
/** The organiser's preview of the race's certificate is drawn by the server and sent this wide. */
export const CERTIFICATE_PREVIEW_WIDTH = 960;
/** The standard layout's colour where the organiser picked none. */
export const CERTIFICATE_STANDARD_ACCENT = '#b5422a';
