import { array, boolean, mixed, number, object, string, type InferType } from 'yup';
import { chosenId } from './fields';
import { COURSE_MAP_MESSAGE, EVENT_SWITCHES, PARTICIPANTS_CSV_MAX_CHARACTERS, type EventSwitch, type ReportStatus } from '../types/organiser';

/**
 * The organiser's forms and calls, checked by the organiser remote's forms and by the server with the
 * same schemas. Messages never repeat what was typed.
 */

const eventId = chosenId('Please choose an event.');

/** BIBs of an event without a format of its own: 1 to 12 letters and digits. */
export const DEFAULT_BIB_FORMAT = '^[A-Z0-9]{1,12}$';
export const BIB_FORMAT_MAX_LENGTH = 100;
export const BIB_FORMAT_MESSAGES = {
  invalid: 'The BIB format is not a valid pattern. Example: ^TT\\d{5}$ for TT and five digits.',
  anchored: 'The BIB format must describe the whole BIB: start it with ^ and end it with $.',
  tooLong: `The BIB format has at most ${BIB_FORMAT_MAX_LENGTH} characters.`,
} as const;

/** The event's BIB format as a regular expression (case-insensitive); null when the pattern is unusable. */
export function bibFormatRegExp(pattern: string | null | undefined): RegExp | null {
  const source = pattern && pattern.trim() ? pattern.trim() : DEFAULT_BIB_FORMAT;
  try {
    return new RegExp(source, 'i');
  } catch {
    return null;
  }
}

/** Whether a BIB (trimmed) fits the event's format. */
export function matchesBibFormat(pattern: string | null | undefined, bib: string): boolean {
  const format = bibFormatRegExp(pattern);
  return format !== null && format.test(bib.trim());
}

/** Why a BIB format cannot be saved, or null when it can. */
export function bibFormatProblem(pattern: string): string | null {
  const source = pattern.trim();
  if (source.length > BIB_FORMAT_MAX_LENGTH) return BIB_FORMAT_MESSAGES.tooLong;
  if (!source.startsWith('^') || !source.endsWith('$') || source.endsWith('\\$')) return BIB_FORMAT_MESSAGES.anchored;
  try {
    new RegExp(source, 'i');
  } catch {
    return BIB_FORMAT_MESSAGES.invalid;
  }
  return null;
}

const rupees = (what: string, max = 100_000) =>
  number()
    .typeError(`${what} must be a number of rupees.`)
    .integer(`${what} must be whole rupees.`)
    .min(0, `${what} cannot be negative.`)
    .max(max, `${what} can be at most ₹${max}.`)
    .required(`Please enter ${what.toLowerCase()}.`);

const isoDate = (what: string) =>
  string()
    .trim()
    .required(`Please choose the ${what}.`)
    .matches(/^\d{4}-\d{2}-\d{2}$/, `Please choose the ${what}.`)
    .test('real-date', `Please choose the ${what}.`, (value) => !value || !Number.isNaN(Date.parse(`${value}T00:00:00Z`)));

export const sponsorOfferSchema = object({
  coupon_name: string()
    .trim()
    .required('Please enter the coupon name.')
    .min(3, 'The coupon name has at least 3 characters.')
    .max(40, 'The coupon name has at most 40 characters.'),
  sponsor_name: string()
    .trim()
    .required('Please enter the sponsor.')
    .min(2, 'The sponsor has at least 2 characters.')
    .max(80, 'The sponsor has at most 80 characters.'),
  description: string().trim().max(300, 'The description has at most 300 characters.').default(''),
  discount_type: mixed<'percent' | 'flat'>()
    .oneOf(['percent', 'flat'], 'Please choose percent or rupees off.')
    .required('Please choose percent or rupees off.'),
  discount_amount: number()
    .typeError('The discount must be a number.')
    .moreThan(0, 'The discount must be more than 0.')
    .max(100_000, 'The discount is too large.')
    .test('percent', 'A percent discount is at most 100.', function (value) {
      return this.parent.discount_type !== 'percent' || value === undefined || value <= 100;
    })
    .required('Please enter the discount.'),
  max_orders_allowed: number()
    .typeError('The photo cap must be a number.')
    .integer('The photo cap is a whole number.')
    .min(1, 'The offer covers at least 1 photo per BIB.')
    .max(1000, 'The offer covers at most 1000 photos per BIB.')
    .required('Please enter how many photos per BIB the offer covers.'),
});

const flag = (what: string) => boolean().typeError(`${what} is on or off.`).required(`${what} is on or off.`);

const eventFields = {
  name: string()
    .trim()
    .required('Please enter the event name.')
    .min(3, 'The event name has at least 3 characters.')
    .max(100, 'The event name has at most 100 characters.'),
  from_date: isoDate('start date'),
  to_date: isoDate('end date').test('after-start', 'The event cannot end before it starts.', function (value) {
    const from = this.parent.from_date as string | undefined;
    return !value || !from || value >= from;
  }),
  location: string().trim().required('Please enter the city.').min(2, 'The city has at least 2 characters.').max(80, 'The city has at most 80 characters.'),
  theme_code: string().trim().max(10, 'Please choose a theme from the list.').nullable().default(null),
  bib_pattern: string()
    .trim()
    .nullable()
    .default(null)
    .max(BIB_FORMAT_MAX_LENGTH, BIB_FORMAT_MESSAGES.tooLong)
    .test('bib-format', BIB_FORMAT_MESSAGES.invalid, function (value) {
      if (!value) return true;
      const problem = bibFormatProblem(value);
      return problem ? this.createError({ message: problem }) : true;
    }),
  single_photo_price: rupees('The price of one photo'),
  extra_photo_price: rupees('The price of each extra photo'),
  bundle_price: rupees('The price of five or more photos'),
  video_price: rupees('The price of a video'),
  collage_price: rupees('The price of a collage'),
  print_prices: array(
    object({
      print_product_id: chosenId('Please choose a print product.'),
      price: rupees('The print price'),
    }),
  )
    .max(50, 'There are at most 50 print products.')
    .default([]),
  threshold_photo_count: number()
    .typeError('The package threshold must be a number of photos.')
    .integer('The package threshold is a whole number of photos.')
    .min(1, 'The package threshold is at least 1 photo.')
    .max(1000, 'The package threshold is at most 1000 photos.')
    .required('Please enter the package threshold.'),
  premium_pack_price: rupees('The premium package price'),
  ultra_premium_pack_price: rupees('The ultra premium package price'),
  show_prempack: flag('The premium package'),
  show_ultrapack: flag('The ultra premium package'),
  preorder_price: number()
    .typeError('The pre-order price must be a number of rupees.')
    .integer('The pre-order price must be whole rupees.')
    .min(1, 'The pre-order price is at least ₹1.')
    .max(100_000, 'The pre-order price can be at most ₹100000.')
    .nullable()
    .default(null)
    .test('needed', 'Please enter the pre-order price.', function (value) {
      return !this.parent.preorder_allowed || (value !== null && value !== undefined);
    }),
  preorder_cut_price: number()
    .typeError('The struck-through price must be a number of rupees.')
    .integer('The struck-through price must be whole rupees.')
    .min(0, 'The struck-through price cannot be negative.')
    .max(100_000, 'The struck-through price can be at most ₹100000.')
    .nullable()
    .default(null),
  sponsor_offer: sponsorOfferSchema.nullable().default(null),
  // Optional with a default: an event form from a remote deployed before this switch existed still saves.
  partner_registration: boolean().typeError('Photographer registration open is on or off.').default(false),
  issearchable: flag('Photos searchable'),
  selfiesearch: flag('Search by selfie'),
  showunlabeled: flag('Unlabeled photos shown'),
  preorder_allowed: flag('Pre-orders allowed'),
  privacy_check: flag('Privacy check'),
  prints_disabled: flag('Prints disabled'),
};

export const eventFormSchema = object(eventFields);
export const createEventSchema = object(eventFields);
export const updateEventSchema = object({ eventId, ...eventFields });
export type EventFormInput = InferType<typeof eventFormSchema>;

export const eventIdSchema = object({ eventId });

export const eventSwitchSchema = object({
  eventId,
  name: mixed<EventSwitch>()
    .oneOf([...EVENT_SWITCHES], 'Please choose a switch of the event.')
    .required('Please choose a switch of the event.'),
  on: boolean().typeError('A switch is on or off.').required('A switch is on or off.'),
});

export const eventLogoSchema = object({
  eventId,
  // 1 MB as base64 is about 1.4 million characters; the exact byte limit is checked decoded.
  image: string().trim().required('Please choose a PNG or JPEG logo.').max(1_500_000, 'The logo can be at most 1 MB.'),
});

/** The race's course map for its journey-map collages (5 MB as base64 is about 7 million characters). */
export const courseMapSchema = object({
  eventId,
  image: string().trim().required(COURSE_MAP_MESSAGE).max(7_200_000, COURSE_MAP_MESSAGE),
});

/** Organiser dashboard call: email (the spec's; the session decides) and, for the details, event_id. */
export const organiserDashboardSchema = object({
  email: string().trim().max(320).optional(),
  event_id: number().typeError('Please choose an event.').integer('Please choose an event.').positive('Please choose an event.').optional(),
});

export const participantsImportSchema = object({
  eventId,
  csv: string().required('Please choose a CSV file.').max(PARTICIPANTS_CSV_MAX_CHARACTERS, 'The file is too large: at most 5 MB.'),
});

export const participantsSchema = object({
  eventId,
  page: number()
    .typeError('The page is a number.')
    .integer('The page is a number.')
    .min(1, 'The page is a number.')
    .max(100_000, 'The page is a number.')
    .default(1),
  search: string().trim().max(100, 'Search for at most 100 characters.').default(''),
  /** Every row at once (the CSV export), not one page. */
  all: boolean().typeError('all is true or false.').default(false),
});

export const photoReportsSchema = object({
  eventId,
  status: mixed<ReportStatus>().oneOf(['open', 'upheld', 'dismissed'], 'Please choose open, upheld or dismissed reports.').optional(),
});

export const decideReportSchema = object({
  eventId,
  reportId: chosenId('Please choose a report.'),
  decision: mixed<'upheld' | 'dismissed'>()
    .oneOf(['upheld', 'dismissed'], 'Please confirm or dismiss the report.')
    .required('Please confirm or dismiss the report.'),
});

export const deleteFaceDataSchema = object({
  eventId,
  confirmName: string().trim().required("Please type the event's name to confirm.").max(200, "Please type the event's name to confirm."),
});

export const organiserRoleSchema = object({
  email: string().trim().required('Please enter the email of the account.').email('Please enter a valid email.').max(320, 'Please enter a valid email.'),
  grant: boolean().typeError('Grant or revoke?').required('Grant or revoke?'),
});

/**
 * One participant row of an import, after its columns were named. The finish time is H:MM:SS
 * (hours may exceed 24 for ultras), optionally with tenths.
 */
export const FINISH_TIME_PATTERN = /^\d{1,3}:[0-5]\d:[0-5]\d(\.\d{1,3})?$/;
export const participantRowSchema = object({
  bib_number: string().trim().required('the BIB is missing').max(32, 'the BIB is longer than 32 characters'),
  name: string().trim().required('the name is missing').max(120, 'the name is longer than 120 characters'),
  finish_time: string()
    .trim()
    .max(20, 'the finish time must look like 3:45:12')
    .matches(FINISH_TIME_PATTERN, { message: 'the finish time must look like 3:45:12', excludeEmptyString: true })
    .default(''),
  email: string().trim().max(320, 'the email is not valid').email('the email is not valid').default(''),
  phone: string()
    .trim()
    .max(20, 'the phone number is not valid')
    .matches(/^\+?[\d\s-]{6,20}$/, { message: 'the phone number is not valid', excludeEmptyString: true })
    .default(''),
});
