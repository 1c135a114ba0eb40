import type { BibSearchResult } from './search';

/** Search by selfie (storefront spec section 7): the selfie is matched and discarded, never stored. */
export interface SelfieSearchRequest {
  eventID: number;
  /** Base64 JPEG or PNG, with or without a data: URL prefix; at most 2 MB once decoded. */
  selfieimg?: string;
  /**
   * On-device search: the face descriptor the phone computed with the same model (FACE_DESCRIPTOR_LENGTH
   * numbers); sent instead of selfieimg, so the selfie never leaves the phone.
   */
  embedding?: number[];
  /** With several faces in the selfie: the box of the runner's own face, as the 409 answer gave it. */
  faceBox?: [number, number, number, number];
  sessionToken?: string;
}

/** Same shape as the BIB search result; bibNumber is 'selfie'. awsImageExpary is also given beside result. */
export type SelfieSearchResult = BibSearchResult;

/** Progress of the background job that computes face embeddings of event photos. */
export interface FaceIndexStatus {
  eventId: number | null;
  total: number;
  pending: number;
  running: number;
  done: number;
  failed: number;
  /** Faces stored so far. */
  faces: number;
  /** Share of photos finished (done or failed), 0 to 100. */
  percent: number;
}

/** Largest selfie accepted, in bytes (copy: 'JPG or PNG, max 2mb'). */
export const SELFIE_MAX_BYTES = 2 * 1024 * 1024;
export const SELFIE_TYPES = ['image/jpeg', 'image/png'] as const;

/** Numbers in a face descriptor (face-api's recognition model). */
export const FACE_DESCRIPTOR_LENGTH = 128;
/**
 * Euclidean norms a genuine descriptor has (measured 1.32 to 1.60 on real faces); the API refuses an
 * on-device descriptor outside this range as not made by the model.
 */
export const FACE_DESCRIPTOR_NORM_RANGE = [0.9, 2.1] as const;
/**
 * A detection whose face is flatter than this (share of the face with no texture at all, see
 * FaceQuality.flatness) is a drawing, not a face: the demo seed's drawn runners measured 0.39 to
 * 0.54, photographed faces 0.02 to 0.09 (also small, dark, blurred or heavily compressed ones).
 */
export const FACE_MAX_FLATNESS = 0.25;
/** Detector confidence from which a detection counts as a face. */
export const FACE_DETECTION_MIN_SCORE = 0.5;

/** A selfie whose face is smaller than this (shorter side, pixels) is too small to describe well. */
export const SELFIE_MIN_FACE_PX = 80;
/** Mean face luminance (0-1) under which a selfie is too dark. */
export const SELFIE_MIN_BRIGHTNESS = 0.2;
/** Sharpness (see FaceQuality) under which a selfie face is too blurred. */
export const SELFIE_MIN_SHARPNESS = 0.02;

export const SELFIE_MESSAGES = {
  noFace: 'We could not find a face in your selfie. Please take a clear photo of your face, looking at the camera.',
  severalFaces: 'We found more than one face in your selfie. Please tap your own face.',
  tooSmall: 'Your face is too small in this selfie. Please hold the camera closer, so your face fills most of the frame.',
  tooDark: 'Your selfie is too dark. Please face a window or a light and try again.',
  tooBlurred: 'Your selfie is too blurred. Please hold the camera still and try again.',
  badDescriptor: 'This face description was not made by our face model. Please send the selfie itself.',
} as const;

/** Measurements of the selfie's face that decide whether it can be searched with. */
export interface SelfieFaceQuality {
  size: number;
  brightness: number;
  sharpness: number;
}

/** The message for a selfie face that cannot be searched with, or null when it is good enough. */
export function selfieFaceProblem(quality: SelfieFaceQuality): string | null {
  if (quality.size < SELFIE_MIN_FACE_PX) return SELFIE_MESSAGES.tooSmall;
  if (quality.brightness < SELFIE_MIN_BRIGHTNESS) return SELFIE_MESSAGES.tooDark;
  if (quality.sharpness < SELFIE_MIN_SHARPNESS) return SELFIE_MESSAGES.tooBlurred;
  return null;
}

/**
 * The message when no face was found: a selfie too dark for the detector says so (measured on the
 * middle of the image), anything else is 'no face'. Blur is judged on a face only: without one, a
 * plain background and a blurred face cannot be told apart.
 */
export function noFaceProblem(centre: { brightness: number } | undefined): string {
  return centre && centre.brightness < SELFIE_MIN_BRIGHTNESS ? SELFIE_MESSAGES.tooDark : SELFIE_MESSAGES.noFace;
}

/** A face of a selfie with several, as offered to the runner to pick from (pixels of the sent image). */
export interface SelfieFaceChoice {
  box: [number, number, number, number];
}

/** 409 answer of a selfie with several faces: the runner picks one and sends its box back as faceBox. */
export interface SeveralFacesResult {
  faces: SelfieFaceChoice[];
  /** Size of the image the boxes refer to. */
  width: number;
  height: number;
}

/** Answer of the opt-out: how many stored faces of the runner were deleted. */
export interface FaceOptOutResult {
  optedOut: boolean;
  removedFaces: number;
}
