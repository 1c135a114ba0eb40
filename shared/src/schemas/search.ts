import { number, object, string, type InferType } from 'yup';
import { chosenId } from './fields';

/**
 * Input of the discovery and BIB search calls. The same schemas check the storefront's forms and,
 * through the server's validate(), every request body.
 */

const eventId = chosenId('Please choose an event.');

export const eventDetailsSchema = object({
  eventID: eventId,
  eventName: string().trim().max(200).optional(),
  sessionToken: string().trim().max(200).optional(),
});
export type EventDetailsInput = InferType<typeof eventDetailsSchema>;

/** The spec checks only that a BIB is not empty; the server also bounds its length. */
export const bibNumberSchema = string().trim().required('Please enter your BIB number.').max(32, 'A BIB number has at most 32 characters.');

export const bibSearchSchema = object({
  eventID: eventId,
  bibNumber: bibNumberSchema,
  eventName: string().trim().max(200).optional(),
  userID: number().typeError('userID must be a number.').integer().nullable().optional(),
  sessionToken: string().trim().max(200).optional(),
  orderId: string().trim().max(64).nullable().optional(),
});
export type BibSearchInput = InferType<typeof bibSearchSchema>;

/** Multi-event list: a theme code (MAR, HALF...) or a year (2025). */
export const multiEventSchema = object({
  searchtxt: string().trim().required('Please choose a theme or a year.').max(40, 'Please choose a theme or a year.'),
});
export type MultiEventInput = InferType<typeof multiEventSchema>;
