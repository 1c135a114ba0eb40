import { array, mixed, number, object, string, type InferType } from 'yup';
import { chosenId } from './fields';
import { ACCOUNT_MESSAGES, isValidPhone } from './accounts';

/** The organiser's calls on photographer registrations; used by the organiser remote and the server. */
const eventId = chosenId('Please choose an event.');

export const partnerRegistrationsSchema = object({ eventId });

export const decidePartnerRegistrationSchema = object({
  eventId,
  partnerUserId: chosenId('Please choose a photographer.'),
  decision: mixed<'approved' | 'rejected'>()
    .oneOf(['approved', 'rejected'], 'Please approve or reject the registration.')
    .required('Please approve or reject the registration.'),
  sharePercent: number()
    .typeError('The share is a percentage from 0 to 100.')
    .integer('The share is a whole percentage.')
    .min(0, 'The share is a percentage from 0 to 100.')
    .max(100, 'The share is a percentage from 0 to 100.')
    .optional(),
});
export type DecidePartnerRegistrationInput = InferType<typeof decidePartnerRegistrationSchema>;

/**
 * The photographer's registration form (spec: partner form). One schema checks the partner remote's
 * form and the server's register-partner call; the messages in brackets in the spec are word for word.
 */
export const PARTNER_MESSAGES = {
  emailRequired: 'Email is required',
  emailFormat: 'Incorrect email format',
  firstNameRequired: 'First name is required',
  firstNameShort: 'First name must have at least 3 characters',
  lastNameRequired: 'Last name is required',
  lastNameShort: 'Last name must have at least 3 characters',
  nickname: 'Nick name must have 6 to 8 characters',
  nicknameCharacters: 'Nick name may hold only letters and digits',
  accountName: 'Account name must have at least 3 characters',
  accountNumber: 'Incorrect account number format',
  accountType: 'Please choose the account type',
  bankName: 'Bank name must have at least 3 characters',
  bankBranch: 'Branch must have at least 3 characters',
  ifsc: 'Incorrect IFSC Code format',
  pan: 'Incorrect PAN Card format',
  terms: 'Please agree to the partner terms',
  remarks: 'Camera and availability remarks are required',
  dates: 'Please tick the dates you are available on',
  eventSearch: 'Type 2 letters of the event name',
  nicknameLocked: 'The nick name cannot be changed once set',
} as const;

/** Spec: the event search input is limited to 2 letters (the picker filters the searchable events by them). */
export const PARTNER_EVENT_SEARCH_LETTERS = 2;

/** Spec: IFSC is four letters then seven digits; PAN five letters, four digits, one letter; account number 9 to 18 digits. */
export const IFSC_PATTERN = /^[A-Z]{4}\d{7}$/;
export const PAN_PATTERN = /^[A-Z]{5}\d{4}[A-Z]$/;
export const ACCOUNT_NUMBER_PATTERN = /^\d{9,18}$/;
export const NICKNAME_PATTERN = /^[A-Za-z0-9]+$/;

const atLeast3 = (message: string) => string().trim().required(message).min(3, message).max(80, message);
const isoDate = string()
  .matches(/^\d{4}-\d{2}-\d{2}$/, PARTNER_MESSAGES.dates)
  .required(PARTNER_MESSAGES.dates);
/** On an update (form_type 1) an empty account number or PAN keeps the stored one. */
const keptOnUpdate = (pattern: RegExp, message: string, upper: boolean) =>
  string()
    .trim()
    .transform((v: unknown) => (typeof v === 'string' ? (upper ? v.replace(/\s/g, '').toUpperCase() : v.replace(/\s/g, '')) : v))
    .default('')
    .when('form_type', {
      is: 1,
      then: (s) => s.test('format', message, (v) => !v || pattern.test(v)),
      otherwise: (s) => s.required(message).matches(pattern, message),
    });

export const registerPartnerSchema = object({
  eventId,
  event_id: number().optional(),
  emailId: string().trim().required(PARTNER_MESSAGES.emailRequired).email(PARTNER_MESSAGES.emailFormat).max(254, PARTNER_MESSAGES.emailFormat),
  form_type: number()
    .typeError('Please reload the page and try again.')
    .oneOf([0, 1], 'Please reload the page and try again.')
    .required('Please reload the page and try again.'),
  firstname: string().trim().required(PARTNER_MESSAGES.firstNameRequired).min(3, PARTNER_MESSAGES.firstNameShort).max(60, PARTNER_MESSAGES.firstNameShort),
  lastname: string().trim().required(PARTNER_MESSAGES.lastNameRequired).min(3, PARTNER_MESSAGES.lastNameShort).max(60, PARTNER_MESSAGES.lastNameShort),
  // The shared phone check (+91 numbers: ten digits starting 6-9).
  mobilenumber: string()
    .trim()
    .required(ACCOUNT_MESSAGES.required)
    .test('phone', ACCOUNT_MESSAGES.invalidPhone, (v) => !v || isValidPhone(v, null)),
  nickname: string()
    .trim()
    .required(PARTNER_MESSAGES.nickname)
    .min(6, PARTNER_MESSAGES.nickname)
    .max(8, PARTNER_MESSAGES.nickname)
    .matches(NICKNAME_PATTERN, PARTNER_MESSAGES.nicknameCharacters),
  bankaccname: atLeast3(PARTNER_MESSAGES.accountName),
  bankaccnum: keptOnUpdate(ACCOUNT_NUMBER_PATTERN, PARTNER_MESSAGES.accountNumber, false),
  bankacctype: number().typeError(PARTNER_MESSAGES.accountType).oneOf([1, 2], PARTNER_MESSAGES.accountType).required(PARTNER_MESSAGES.accountType),
  bankname: atLeast3(PARTNER_MESSAGES.bankName),
  bankbranch: atLeast3(PARTNER_MESSAGES.bankBranch),
  bankifsc: string()
    .trim()
    .transform((v: unknown) => (typeof v === 'string' ? v.toUpperCase() : v))
    .required(PARTNER_MESSAGES.ifsc)
    .matches(IFSC_PATTERN, PARTNER_MESSAGES.ifsc),
  pannum: keptOnUpdate(PAN_PATTERN, PARTNER_MESSAGES.pan, true),
  isterms: number().typeError(PARTNER_MESSAGES.terms).oneOf([1], PARTNER_MESSAGES.terms).required(PARTNER_MESSAGES.terms),
  partnerremarks: string().trim().required(PARTNER_MESSAGES.remarks).max(1000, 'Please keep the remarks under 1000 characters'),
  availabledate: array(isoDate).required(PARTNER_MESSAGES.dates).min(1, PARTNER_MESSAGES.dates).max(31, PARTNER_MESSAGES.dates),
});
export type RegisterPartnerInput = InferType<typeof registerPartnerSchema>;

export const partnerLookupSchema = object({ eventId });

export const partnerEventsSchema = object({
  search: string().trim().max(80).optional(),
});

export const partnerShareSchema = object({
  userid: string().trim().max(254).optional(),
  eventId: number().typeError('Please choose an event.').integer('Please choose an event.').positive('Please choose an event.').optional(),
});

export const recordPartnerPayoutSchema = object({
  eventId,
  partnerUserId: chosenId('Please choose a photographer.'),
  amount: number()
    .typeError('The amount is rupees greater than 0.')
    .positive('The amount is rupees greater than 0.')
    .max(10_000_000, 'The amount is rupees greater than 0.')
    .test('paise', 'The amount has at most two decimals.', (v) => v === undefined || Math.round(v * 100) === v * 100)
    .required('The amount is rupees greater than 0.'),
  reference: string().trim().required('Please give the transfer reference.').max(100, 'Please keep the reference under 100 characters.'),
});
