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
  /**
   * With `embedding`: the on-device face's quality measures, so the API applies the same quality
   * gates (selfieFaceProblem) as to a selfie it analyses.
   */
  faceQuality?: SelfieFaceQuality;
  /** With several faces in the selfie: the box of the runner's own face, as the 409 answer gave it. */
  faceBox?: [number, number, number, number];
  /**
   * The version of the face search notice the runner agreed to (FACE_CONSENT_VERSION): the API refuses
   * a search without the current one. Only the version is sent; nothing about the runner is stored.
   */
  consentVersion: string;
  /** A solved captcha, once this device session used up its selfie searches (its answer asked for one). */
  gCaptchToken?: string;
  /** The device session (anonymous or signed in): selfie searches are counted per session. */
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

/**
 * Selfie quality gates (one rule set: the phone checks them before sending a descriptor, the API
 * checks the same numbers for a descriptor and for a selfie it analyses). Each threshold was chosen
 * on the tuning people of the face set only: it lies in the gap between their worst good selfie and
 * their mildest bad one of its condition (below every good one where the two overlap), and was then
 * measured on the held-out people (api/bench/face-heldout.bench.ts, docs/faces.md).
 */
/** A selfie whose face is smaller than this (shorter side, pixels) is too small to describe well. */
export const SELFIE_MIN_FACE_PX = 80;
/** Mean face luminance (0-1) under which a selfie is too dark. */
export const SELFIE_MIN_BRIGHTNESS = 0.2;
/** Mean face luminance (0-1) over which a selfie is overexposed. */
export const SELFIE_MAX_BRIGHTNESS = 0.74;
/** Sharpness (see FaceQuality) under which a selfie face is too blurred. */
export const SELFIE_MIN_SHARPNESS = 0.02;
/**
 * Turn of the face (FaceQuality.yaw, 0 facing the camera, 1 in profile) over which it is turned away.
 * Just under the mildest turned tuning selfie (0.577), not at the gap's midpoint (0.49): a refused
 * good selfie loses the runner, a searched, slightly turned one only finds less (docs/faces.md).
 */
export const SELFIE_MAX_YAW = 0.56;
/**
 * Eyes covered (sunglasses): the eyes measure lighter than this share of the cheek below them
 * (FaceQuality.eyeLight: open eyes are darker than their cheek; with sunglasses the landmark model
 * puts the eyes at the lens' upper edge and the cheek box falls on the lens).
 */
export const SELFIE_MAX_EYE_LIGHT = 0.83;

/**
 * The version of the face search notice (the consent points the selfie modal shows). A new wording
 * gets a new version: the runner is asked again, and the API refuses searches agreed to an older one.
 */
export const FACE_CONSENT_VERSION = '2026-11-28';

export const SELFIE_MESSAGES = {
  consentNeeded: 'Please read and agree to the face search notice before searching by selfie.',
  captchaNeeded: 'You have searched by selfie many times. Please complete the captcha to search again.',
  noFace: 'We could not find a face in your selfie. Please take a clear photo of your face, looking at the camera.',
  severalFaces: 'We found more than one face in your selfie. Please tap your own face.',
  tooSmall: 'Your face is too small in this selfie. Please hold the camera closer, so your face fills most of the frame.',
  tooDark: 'Your selfie is too dark. Please move to more light, facing a window or a lamp, and try again.',
  tooBright: 'Your selfie is too bright. Please move out of direct sun or glare, or turn off the flash, and try again.',
  tooBlurred: 'Your selfie is too blurred. Please hold the camera still and try again.',
  turnedAway: 'Your face is turned away. Please turn to face the camera and try again.',
  eyesCovered: 'Your eyes are covered. Please remove your sunglasses and try again.',
  badDescriptor: 'This face description was not made by our face model. Please send the selfie itself.',
  qualityNeeded: 'Please update the page and search again: the face check of this page is out of date.',
} as const;

/**
 * Measurements of the selfie's face that decide whether it can be searched with (FaceQuality of the
 * face pipeline; the phone sends them with its descriptor).
 */
export interface SelfieFaceQuality {
  size: number;
  brightness: number;
  sharpness: number;
  yaw: number;
  eyeLight: number;
}

/** The light of a face or of the middle of a selfie: too dark, too bright, or null. */
function lightProblem(brightness: number): string | null {
  if (brightness < SELFIE_MIN_BRIGHTNESS) return SELFIE_MESSAGES.tooDark;
  if (brightness > SELFIE_MAX_BRIGHTNESS) return SELFIE_MESSAGES.tooBright;
  return null;
}

/**
 * The message for a selfie face that cannot be searched with, or null when it is good enough. In
 * this order: light first (a face in the dark or in glare measures nothing else reliably), then too
 * small (a distant face is soft too), blurred, turned away, eyes covered.
 */
export function selfieFaceProblem(quality: SelfieFaceQuality): string | null {
  const light = lightProblem(quality.brightness);
  if (light) return light;
  if (quality.size < SELFIE_MIN_FACE_PX) return SELFIE_MESSAGES.tooSmall;
  if (quality.sharpness < SELFIE_MIN_SHARPNESS) return SELFIE_MESSAGES.tooBlurred;
  if (Math.abs(quality.yaw) > SELFIE_MAX_YAW) return SELFIE_MESSAGES.turnedAway;
  if (quality.eyeLight > SELFIE_MAX_EYE_LIGHT) return SELFIE_MESSAGES.eyesCovered;
  return null;
}

/** What the pipeline measured of a selfie without a usable face (selfieHint): a weak face's quality, or the middle's. */
export interface SelfieHintQuality {
  size: number;
  brightness: number;
  sharpness: number;
  yaw?: number;
  eyeLight?: number;
}

/**
 * The message when no face was found at the usual confidence. A face the detector saw with less
 * confidence (it has landmarks: yaw is known) is judged by the same gates; a selfie too dark or too
 * bright for the detector to see any face is told so from the middle of the image; anything else is
 * 'no face' (without a face, a plain background and a blurred face cannot be told apart).
 */
export function noFaceProblem(hint: SelfieHintQuality | undefined): string {
  if (!hint) return SELFIE_MESSAGES.noFace;
  if (hint.yaw !== undefined && hint.eyeLight !== undefined) {
    return selfieFaceProblem({ ...hint, yaw: hint.yaw, eyeLight: hint.eyeLight }) ?? SELFIE_MESSAGES.noFace;
  }
  return lightProblem(hint.brightness) ?? SELFIE_MESSAGES.noFace;
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
