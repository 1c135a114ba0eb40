import { array, boolean, mixed, number, object, string, type InferType } from 'yup';
import { SEARCH_KINDS, type CartLine, type CartRequest, type PackId } from '../types/cart';
import { COLLAGE_MAX_PHOTOS, COLLAGE_RULE_MESSAGE } from '../pricing/pricing';
import { isPackId } from '../pricing/packages';
import { bibNumberSchema } from './search';

/**
 * Input of the cart-details calls, the privacy OTP and photo feedback. The server validates every
 * body with these; the storefront builds the same shapes.
 */

const id = (message: string) => number().typeError(message).integer(message).positive(message);

export const cartLineSchema = object({
  type: string().oneOf(['download', 'print', 'collage'], 'A cart item has an unknown type.').required('A cart item has an unknown type.'),
  category: string().oneOf(['image', 'video', 'pack'], 'A cart item has an unknown category.').required('A cart item has an unknown category.'),
  id: mixed<number | PackId>()
    .required('A cart item has no id.')
    .test('cart-line-id', 'A cart item has an unknown id.', (value) => isPackId(value) || (typeof value === 'number' && Number.isInteger(value) && value > 0)),
  printProductId: id('Please choose a print product.').optional(),
  collagePhotoIds: array(id('A collage holds an unknown photo.').required()).max(COLLAGE_MAX_PHOTOS, COLLAGE_RULE_MESSAGE).optional(),
  orientation: string().oneOf(['Horizontal', 'Vertical'], 'Collage orientation is Horizontal or Vertical.').optional(),
});

export const cartRequestSchema = object({
  eventId: id('Please choose an event.').required('Please choose an event.'),
  bibNumber: bibNumberSchema,
  searchKind: string().oneOf(SEARCH_KINDS, 'Unknown search kind.').required('Unknown search kind.'),
  packageKind: string().oneOf(['a', 'b'], 'Unknown package.').nullable().default(null),
  lines: array(cartLineSchema.required()).max(500, 'A cart holds at most 500 items.').required('Your cart is empty'),
  sponsorofferID: id('Unknown sponsor offer.').nullable().default(null),
  discountedPhotoIds: array(id('Unknown photo.').required()).max(500).default([]),
});

/** The validated body, narrowed to the shared CartRequest type. */
export function asCartRequest(input: InferType<typeof cartRequestSchema>): CartRequest {
  return {
    eventId: input.eventId,
    bibNumber: input.bibNumber,
    searchKind: input.searchKind as CartRequest['searchKind'],
    packageKind: (input.packageKind ?? null) as CartRequest['packageKind'],
    lines: input.lines.map((l) => ({ ...l }) as CartLine),
    sponsorofferID: input.sponsorofferID ?? null,
    discountedPhotoIds: input.discountedPhotoIds ?? [],
  };
}

/** OTP input: digits only, at most 6 (the drawer filters keys; the server checks again). */
export const otpCodeSchema = string()
  .trim()
  .required('Please enter the OTP.')
  .matches(/^\d{6}$/, 'Please enter the 6 digit OTP sent to your email.');

export const generateOtpSchema = object({
  eventID: id('Please choose an event.').required('Please choose an event.'),
  bibNumber: bibNumberSchema,
  eventName: string().trim().max(200).optional(),
  userID: number().integer().nullable().optional(),
  sessionToken: string().trim().max(200).optional(),
  gCaptchToken: string().trim().max(8000).optional(),
});

export const verifyOtpSchema = generateOtpSchema.shape({ otp: otpCodeSchema });

export const feedbackSchema = object({
  usrfeedback: number().typeError('Unknown feedback.').oneOf([1, 2], 'Unknown feedback.').required('Unknown feedback.'),
  bibNumber: bibNumberSchema,
  eventID: id('Please choose an event.').optional(),
  photoids: string()
    .trim()
    .required('Select atleast one photo.')
    .matches(/^\d+(,\d+)*$/, 'Select atleast one photo.'),
  /** Takes back the caller's own hide or report of these photos. */
  undo: boolean().optional().default(false),
});
export type FeedbackInput = InferType<typeof feedbackSchema>;
