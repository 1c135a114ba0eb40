import { array, number, object, string } from 'yup';
import { chosenId, requestDecisionSchema } from './fields';
import { PRINT_BATCH_MAX_LINES, PRINT_LINE_STATUSES, REPLACEMENT_PHOTO_MAX_MB } from '../types/fulfilment';

/** Fulfilment calls: the server validates every body with these; the screens build the same shapes. */

const lineId = () => chosenId('Please choose a print line.');

export const fulfilmentQueueSchema = object({
  status: string()
    .oneOf([...PRINT_LINE_STATUSES, 'all'], 'Unknown status.')
    .default('all'),
  search: string().trim().max(40, 'An order reference has at most 40 characters.').default(''),
});

export const PRINT_BATCH_MESSAGES = {
  empty: 'There are no lines with a ready print file to download here.',
  tooMany: `A batch holds at most ${PRINT_BATCH_MAX_LINES} lines. Search by order reference or download the oldest ${PRINT_BATCH_MAX_LINES} first.`,
  twice: 'A line is in the batch twice.',
};

/** A batch download: the lines' print-ready files and a packing list (PDF) in one zip. */
export const printBatchSchema = object({
  lineIds: array(lineId())
    .typeError(PRINT_BATCH_MESSAGES.empty)
    .required(PRINT_BATCH_MESSAGES.empty)
    .min(1, PRINT_BATCH_MESSAGES.empty)
    .max(PRINT_BATCH_MAX_LINES, PRINT_BATCH_MESSAGES.tooMany)
    .test('unique', PRINT_BATCH_MESSAGES.twice, (ids) => !ids || new Set(ids).size === ids.length),
});

export const COURIER_REQUIRED_MESSAGE = 'Please enter the courier and the tracking number.';

export const printLineStatusSchema = object({
  lineId: lineId(),
  status: string()
    .required('Please choose a status.')
    .oneOf([...PRINT_LINE_STATUSES], 'Unknown status.'),
  courier: string()
    .trim()
    .max(60, 'A courier name has at most 60 characters.')
    .when('status', {
      is: 'shipped',
      then: (s) => s.required(COURIER_REQUIRED_MESSAGE),
    }),
  trackingNumber: string()
    .trim()
    .max(60, 'A tracking number has at most 60 characters.')
    .when('status', {
      is: 'shipped',
      then: (s) => s.required(COURIER_REQUIRED_MESSAGE).matches(/^[A-Za-z0-9-]+$/, 'A tracking number has letters, digits and dashes only.'),
    }),
});

export const REFUND_AMOUNT_MESSAGE = 'Please enter the amount to refund in rupees.';

export const printRefundSchema = object({
  orderItemId: chosenId('Please choose a print line.'),
  amount: number()
    .typeError(REFUND_AMOUNT_MESSAGE)
    .required(REFUND_AMOUNT_MESSAGE)
    .positive(REFUND_AMOUNT_MESSAGE)
    .test('paise', 'An amount has at most two decimals (paise).', (v) => v === undefined || Math.abs(Math.round(v * 100) - v * 100) < 1e-6),
  requestKey: string()
    .trim()
    .required('The refund has no key: please open the refund again.')
    .matches(/^[A-Za-z0-9-]{8,64}$/, 'The refund has no key: please open the refund again.'),
});

export const DECLINE_REASON_MESSAGE = 'Please say why the replacement is declined.';

export const replacementDecisionSchema = requestDecisionSchema(DECLINE_REASON_MESSAGE);

export const replacementAskSchema = object({
  orderID: string().trim().required('Please give the order reference.').max(40),
  lineId: lineId(),
  note: string().trim().max(500, 'A note has at most 500 characters.').default(''),
});

/** The photo of the damage: checked by the page before sending and by the server on arrival. */
export const REPLACEMENT_PHOTO_MESSAGES = {
  required: 'Please add a photo of the damage.',
  notImage: 'The photo of the damage must be an image (JPEG, PNG or WebP).',
  tooLarge: `The photo of the damage is larger than ${REPLACEMENT_PHOTO_MAX_MB} MB. Please choose a smaller one.`,
};
