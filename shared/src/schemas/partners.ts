import { mixed, number, object, type InferType } from 'yup';

/** The organiser's calls on photographer registrations; used by the organiser remote and the server. */
const eventId = number().typeError('Please choose an event.').integer('Please choose an event.').positive('Please choose an event.').required('Please choose an event.');

export const partnerRegistrationsSchema = object({ eventId });

export const decidePartnerRegistrationSchema = object({
  eventId,
  partnerUserId: number().typeError('Please choose a photographer.').integer('Please choose a photographer.').positive('Please choose a photographer.').required('Please choose a photographer.'),
  decision: mixed<'approved' | 'rejected'>().oneOf(['approved', 'rejected'], 'Please approve or reject the registration.').required('Please approve or reject the registration.'),
  sharePercent: number().typeError('The share is a percentage from 0 to 100.').integer('The share is a whole percentage.').min(0, 'The share is a percentage from 0 to 100.').max(100, 'The share is a percentage from 0 to 100.').optional(),
});
export type DecidePartnerRegistrationInput = InferType<typeof decidePartnerRegistrationSchema>;
