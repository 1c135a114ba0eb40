import { boolean, number, object, string } from 'yup';
import { requestDecisionSchema } from './fields';
import { INDIAN_PHONE_PATTERN, normalisePhone } from './accounts';
import { STAFF_ROLES } from '../types/operator';

/** "List your race" and the operator's decisions: the form checks these, the server again. */

export const ORGANISER_REQUEST_MESSAGES = {
  raceName: 'Please enter the race name (3 to 120 characters).',
  fromDate: 'Please enter the first day of the race.',
  toDate: 'Please enter the last day of the race.',
  toBeforeFrom: 'The last day cannot be before the first day.',
  past: 'The race must not be over already.',
  city: 'Please enter the city (2 to 60 characters).',
  runners: 'Please enter how many runners you expect (1 to 200,000).',
  contactName: 'Please enter the contact name (3 to 80 characters).',
  contactPhone: 'Please enter a 10-digit mobile number.',
  note: 'A note has at most 500 characters.',
  pendingAlready: 'Your request to list a race is being reviewed. We will mail you the answer.',
  organiserAlready: 'Your account already organises races: open the Event Dashboard.',
  received: 'Thank you. We review requests within two working days and mail you the answer.',
  declineReason: 'Please say why the request is declined.',
  decidedAlready: 'This request was already answered.',
} as const;

const isoDate = (message: string) =>
  string()
    .trim()
    .required(message)
    .matches(/^\d{4}-\d{2}-\d{2}$/, message)
    .test('real', message, (v) => !v || !Number.isNaN(Date.parse(`${v}T00:00:00Z`)));

/** Today in India (YYYY-MM-DD): a race that ends before today is over. */
export const todayInIndia = (now = new Date()) => new Date(now.getTime() + 330 * 60_000).toISOString().slice(0, 10);

export const organiserRequestSchema = object({
  raceName: string()
    .trim()
    .required(ORGANISER_REQUEST_MESSAGES.raceName)
    .min(3, ORGANISER_REQUEST_MESSAGES.raceName)
    .max(120, ORGANISER_REQUEST_MESSAGES.raceName),
  fromDate: isoDate(ORGANISER_REQUEST_MESSAGES.fromDate),
  toDate: isoDate(ORGANISER_REQUEST_MESSAGES.toDate)
    .test('order', ORGANISER_REQUEST_MESSAGES.toBeforeFrom, function (to) {
      const from = this.parent.fromDate as string | undefined;
      return !to || !from || to >= from;
    })
    .test('future', ORGANISER_REQUEST_MESSAGES.past, (to) => !to || to >= todayInIndia()),
  city: string().trim().required(ORGANISER_REQUEST_MESSAGES.city).min(2, ORGANISER_REQUEST_MESSAGES.city).max(60, ORGANISER_REQUEST_MESSAGES.city),
  expectedRunners: number()
    .typeError(ORGANISER_REQUEST_MESSAGES.runners)
    .required(ORGANISER_REQUEST_MESSAGES.runners)
    .integer(ORGANISER_REQUEST_MESSAGES.runners)
    .min(1, ORGANISER_REQUEST_MESSAGES.runners)
    .max(200_000, ORGANISER_REQUEST_MESSAGES.runners),
  contactName: string()
    .trim()
    .required(ORGANISER_REQUEST_MESSAGES.contactName)
    .min(3, ORGANISER_REQUEST_MESSAGES.contactName)
    .max(80, ORGANISER_REQUEST_MESSAGES.contactName),
  contactPhone: string()
    .required(ORGANISER_REQUEST_MESSAGES.contactPhone)
    .transform((v: string) => normalisePhone(v ?? ''))
    .matches(INDIAN_PHONE_PATTERN, ORGANISER_REQUEST_MESSAGES.contactPhone),
  note: string().trim().max(500, ORGANISER_REQUEST_MESSAGES.note).default(''),
});

export const organiserRequestDecisionSchema = requestDecisionSchema(ORGANISER_REQUEST_MESSAGES.declineReason);

export const staffRoleSchema = object({
  email: string().trim().required('Please enter the email of the account.').email('Please enter a valid email.').max(320, 'Please enter a valid email.'),
  role: string()
    .required('Please choose a role.')
    .oneOf([...STAFF_ROLES], 'Please choose a role.'),
  grant: boolean().typeError('Grant or revoke?').required('Grant or revoke?'),
});
