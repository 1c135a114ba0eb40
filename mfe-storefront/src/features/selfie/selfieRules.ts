import { SELFIE_MAX_BYTES, SELFIE_TYPES } from '@finishline/shared';

export const SELFIE_HINT =
  'Take a clear photo of your face: look at the camera in good light, with your facial features fully visible (no sunglasses, cap or mask).';
export const SELFIE_FORMAT_TEXT = 'JPG or PNG, max 2mb';
export const SELFIE_FORMAT_ERROR = 'Please choose a JPG or PNG image.';
export const SELFIE_SIZE_ERROR = 'The selfie must be at most 2 MB. Please choose a smaller image.';
export const CAMERA_DENIED = 'Camera access was denied. Allow the camera in your browser settings, or upload a selfie instead.';
export const CAMERA_ABSENT = 'No camera was found on this device. Please upload a selfie instead.';
export const CAMERA_UNAVAILABLE = 'The camera could not be started. Please upload a selfie instead.';
/** Spec: a selfie upload that throws shows the warning 'Invalid'. */
export const SELFIE_INVALID = 'Invalid';
/** Spec: success navigates to /searchbyselfie after 1 second. */
export const SELFIE_REDIRECT_MS = 1000;

/** The reason a chosen file cannot be sent, or null when it is a JPG or PNG of at most 2 MB. */
export function selfieFileProblem(file: { type: string; size: number; name: string }): string | null {
  const typeOk = (SELFIE_TYPES as readonly string[]).includes(file.type) || /\.(jpe?g|png)$/i.test(file.name);
  if (!typeOk) return SELFIE_FORMAT_ERROR;
  if (file.size > SELFIE_MAX_BYTES) return SELFIE_SIZE_ERROR;
  return null;
}

/** Message for a getUserMedia failure. */
export function cameraProblem(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return CAMERA_DENIED;
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return CAMERA_ABSENT;
  return CAMERA_UNAVAILABLE;
}

/** Bytes a base64 data URL decodes to. */
export function dataUrlBytes(dataUrl: string): number {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  return Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
}

/** Notice before the first selfie (DPDP Act: what the face is used for, that it is not kept, consent). */
export const FACE_CONSENT_TITLE = 'Before you search by selfie';
export const FACE_CONSENT_POINTS = [
  'We use your selfie only to find the photos of you in this event: your face is compared with the faces in the event’s photos.',
  'Your selfie is not kept. Where your phone can, your face is matched on the phone and only a description of it (a list of numbers) is sent; that is not kept either.',
  'You can ask to be left out of face search at any time, from the link below the selfie.',
] as const;
export const SELFIE_PICK_HINT = 'Tap your own face.';

/** A runner leaving face search (their face is not matched again, in any event). */
export const OPT_OUT_TITLE = 'Leave me out of face search';
export const OPT_OUT_TEXT =
  'We will delete the faces of yours we have found in event photos and never match your face again, in any event. To do that we keep a description of your face (a list of numbers, not the photo) for this purpose only. You can still find your photos by BIB number.';
export const OPT_OUT_SIGN_IN = 'Please sign in to ask to be left out of face search.';
export const OPT_OUT_NEEDS_SELFIE = 'Take or upload a selfie first, so we know which face to leave out.';
export const OPT_OUT_ONE_FACE = 'Please use a selfie that shows only your face.';
export const OPT_OUT_FAILED = 'We could not record your request. Please try again.';
