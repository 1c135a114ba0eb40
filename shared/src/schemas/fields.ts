import { boolean, number, object, string } from 'yup';

/**
 * Fields that many schemas share. An id the user picks from a list (an event, a photo, a request)
 * is a positive whole number; anything else, missing or not a number, gets the one message that
 * tells the user what to choose, since they never type the id themselves.
 */
export function chosenId(message: string) {
  return number().typeError(message).integer(message).positive(message).required(message);
}

/** An operator's or organiser's yes/no on a request: a reason is required when it is no. */
export function requestDecisionSchema(declineReasonMessage: string) {
  return object({
    requestId: chosenId('Please choose a request.'),
    approve: boolean().typeError('Please approve or decline.').required('Please approve or decline.'),
    reason: string()
      .trim()
      .max(500, 'A reason has at most 500 characters.')
      .when('approve', { is: false, then: (s) => s.required(declineReasonMessage) }),
  });
}
