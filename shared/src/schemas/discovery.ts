import { array, number, object, string, type InferType } from 'yup';
import { chosenId } from './fields';
import { bibNumberSchema } from './search';
import { PHOTOS_PER_PAGE } from '../types/discovery';
import { UNLABELED_BIB } from '../types/bibLabels';
import { FACE_CONSENT_VERSION, FACE_DESCRIPTOR_LENGTH, SELFIE_MESSAGES } from '../types/faces';

const FACE_DESCRIPTOR_MESSAGE = SELFIE_MESSAGES.badDescriptor;

/** Input of selfie search, advanced search and photo pagination; used by the forms and the server. */

const eventId = chosenId('Please choose an event.');

const SELFIE_REQUIRED = 'Please capture or upload a selfie.';

/**
 * The on-device face's quality measures (SelfieFaceQuality), sent with its descriptor so the API
 * applies the same gates (selfieFaceProblem) as to a selfie it analyses itself.
 */
const measure = (max: number) =>
  number()
    .typeError(SELFIE_MESSAGES.qualityNeeded)
    .required(SELFIE_MESSAGES.qualityNeeded)
    .min(-max, SELFIE_MESSAGES.qualityNeeded)
    .max(max, SELFIE_MESSAGES.qualityNeeded);
export const selfieFaceQualitySchema = object({
  size: measure(100_000),
  brightness: measure(1),
  sharpness: measure(1_000),
  yaw: measure(1),
  eyeLight: measure(1_000),
});

export const selfieSearchSchema = object({
  eventID: eventId,
  // Base64 of at most 2 MB is about 2.8 million characters; the exact byte limit is checked decoded.
  selfieimg: string()
    .trim()
    .max(3_000_000, 'Please upload a JPG or PNG image of at most 2 MB.')
    .when('embedding', { is: (e: unknown) => e === undefined, then: (s) => s.required(SELFIE_REQUIRED), otherwise: (s) => s.optional() }),
  // On-device search: the descriptor instead of the image (the API also checks its norm).
  embedding: array(
    number().typeError(FACE_DESCRIPTOR_MESSAGE).required(FACE_DESCRIPTOR_MESSAGE).min(-10, FACE_DESCRIPTOR_MESSAGE).max(10, FACE_DESCRIPTOR_MESSAGE),
  )
    .length(FACE_DESCRIPTOR_LENGTH, FACE_DESCRIPTOR_MESSAGE)
    .optional()
    .default(undefined),
  // Required with an on-device descriptor: the gates are checked on the server too.
  faceQuality: selfieFaceQualitySchema
    .default(undefined)
    .when('embedding', { is: (e: unknown) => e !== undefined, then: (s) => s.required(SELFIE_MESSAGES.qualityNeeded), otherwise: (s) => s.optional().strip() }),
  faceBox: array(number().typeError('faceBox must hold 4 numbers.').required().min(0).max(100_000))
    .length(4, 'faceBox must hold 4 numbers.')
    .optional()
    .default(undefined),
  consentVersion: string().required(SELFIE_MESSAGES.consentNeeded).oneOf([FACE_CONSENT_VERSION], SELFIE_MESSAGES.consentNeeded),
  gCaptchToken: string().trim().max(8000).optional(),
  sessionToken: string().trim().max(200).optional(),
});
export type SelfieSearchInput = InferType<typeof selfieSearchSchema>;

/** A signed-in runner asks to be left out of face search, with a selfie (or its on-device descriptor). */
export const faceOptOutSchema = selfieSearchSchema.pick(['selfieimg', 'embedding', 'faceBox']);
export type FaceOptOutInput = InferType<typeof faceOptOutSchema>;

export const bibAvailabilitySchema = object({
  entries: array(
    object({
      eventID: eventId,
      bibNumber: bibNumberSchema,
    }),
  )
    .required('Please enter a BIB number for at least one event.')
    .min(1, 'Please enter a BIB number for at least one event.')
    .max(20, 'Please check at most 20 events at once.'),
});
export type BibAvailabilityInput = InferType<typeof bibAvailabilitySchema>;

export const paginatePhotosSchema = object({
  event_id: eventId,
  bib_number: string().trim().max(32).default(UNLABELED_BIB),
  _token: string().trim().max(200).optional(),
  page: number().typeError('page must be a number.').integer().min(1, 'page starts at 1.').default(1),
  per_page: number().typeError('per_page must be a number.').integer().min(1).max(100, 'per_page is at most 100.').default(PHOTOS_PER_PAGE),
});
export type PaginatePhotosInput = InferType<typeof paginatePhotosSchema>;
