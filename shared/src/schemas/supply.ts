import { array, number, object, string, type InferType } from 'yup';
import { chosenId } from './fields';
import { SUPPLY_MAX_PER_PAGE, SUPPLY_PHOTOS_PER_PAGE, UPLOAD_MAX_BYTES, UPLOAD_MIN_BYTES } from '../types/supply';

/**
 * Input of the supply line: the checks the upload screen makes before sending a file and the server
 * makes again on tus creation, and the photographer's BIB corrections.
 */

export const SUPPLY_MESSAGES = {
  chooseEvent: 'Please choose an event.',
  notJpeg: 'Only JPG photos can be uploaded.',
  corrupt: 'This file is not a readable JPG photo.',
  tooLarge: `This photo is larger than ${UPLOAD_MAX_BYTES / (1024 * 1024)} MB. Partner terms: photos JPG 3-4MB.`,
  tooSmall: 'This file is too small to be a photo. Partner terms: photos JPG 3-4MB.',
  noName: 'The file has no name.',
  bibFormat: 'A BIB has 1 to 12 letters and digits.',
  tooManyBibs: 'A photo has at most 20 BIBs.',
  sold: 'This photo has been sold and cannot be removed.',
  notYourPhoto: 'This photo is not one of yours.',
} as const;

const eventId = chosenId(SUPPLY_MESSAGES.chooseEvent);
const photoId = chosenId(SUPPLY_MESSAGES.notYourPhoto);

export const supplyEventSchema = object({ eventId });

/** The partner's photo list: a page of one status (perPage 0 gives the counts only). */
export const supplyPhotosSchema = object({
  eventId,
  page: number().typeError('page must be a number.').integer('page must be a whole number.').min(1, 'page starts at 1.').max(100_000).default(1),
  perPage: number()
    .typeError('perPage must be a number.')
    .integer('perPage must be a whole number.')
    .min(0, 'perPage is 0 or more.')
    .max(SUPPLY_MAX_PER_PAGE, `perPage is at most ${SUPPLY_MAX_PER_PAGE}.`)
    .default(SUPPLY_PHOTOS_PER_PAGE),
  status: string()
    .oneOf(['all', 'tagged', 'unlabeled', 'processing', 'failed'], 'status is one of all, tagged, unlabeled, processing or failed.')
    .default('all'),
});

/** One file before it is sent (browser) and at tus creation (server). */
export const uploadFileSchema = object({
  eventId,
  filename: string().trim().required(SUPPLY_MESSAGES.noName).max(255, 'The file name has at most 255 characters.'),
  filetype: string()
    .default('')
    .test('jpeg', SUPPLY_MESSAGES.notJpeg, (type, context) => {
      const name = String((context.parent as { filename?: unknown }).filename ?? '');
      // Some systems send no type for a .jpg: the name decides then; the server reads the bytes anyway.
      return type === 'image/jpeg' || ((type === '' || type === 'application/octet-stream') && /\.jpe?g$/i.test(name));
    }),
  size: number()
    .typeError(SUPPLY_MESSAGES.tooLarge)
    .required(SUPPLY_MESSAGES.tooLarge)
    .min(UPLOAD_MIN_BYTES, SUPPLY_MESSAGES.tooSmall)
    .max(UPLOAD_MAX_BYTES, SUPPLY_MESSAGES.tooLarge),
});
export type UploadFileInput = InferType<typeof uploadFileSchema>;

const bib = string()
  .trim()
  .uppercase()
  .matches(/^[A-Z0-9]{1,12}$/i, SUPPLY_MESSAGES.bibFormat)
  .required(SUPPLY_MESSAGES.bibFormat);

/** The BIBs a photo is found under, as its photographer sets them (an empty list: unlabeled). */
export const setPhotoBibsSchema = object({
  photoId,
  bibs: array(bib).required(SUPPLY_MESSAGES.bibFormat).max(20, SUPPLY_MESSAGES.tooManyBibs),
});
export const photoIdSchema = object({ photoId });
