import { array, mixed, number, object, string, type InferType } from 'yup';
import { chosenId } from './fields';
import { CERTIFICATE_FONT_FILES, templateFieldsProblem } from '../certificates/layout';
import { CERTIFICATE_BACKGROUND_MAX_BYTES, CERTIFICATE_LIMITS, CERTIFICATE_STANDARD_ACCENT } from '../certificates/constants';
import type { CertificateTemplateConfig } from '../types/certificates';
import { bibSearchSchema } from './search';

/**
 * The certificate builder's rules, for its form and for the server (accounts spec section 5,
 * "Certificate search"). The spec's messages, numbered by field as the builder shows them.
 */
export const CERTIFICATE_MESSAGES = {
  selectEvent: (field: number) => `Please select an event for field ${field}`,
  enterBib: (field: number) => `Please enter BIB number for field ${field}`,
  differentEvents: 'Please select different events for each field',
  selectImage: 'Please select an image for each event.',
  tooManyPairs: `Please search at most ${CERTIFICATE_LIMITS.maxPairs} events at once.`,
  noParticipantName: 'Participant name not found.',
  noAchievement: 'Achievement ID not found. Cannot proceed with API upload.',
  /** The builder's offer where the session has no right to a BIB's own photos (shown and answered by the server). */
  previewsOnly: (eventName: string, bib: string) =>
    `These are watermarked previews of BIB ${bib}'s photos at ${eventName}. To put your own photos on the certificate, buy them first (the Premium and Ultra Premium packages include certificates) or verify the BIB with the OTP.`,
  buyFirst: (eventName: string, bib: string) =>
    `A certificate is made only from photos you bought. Please buy your photos of ${eventName} (BIB ${bib}) first: the Premium and Ultra Premium packages include certificates.`,
} as const;

/** One row of the search form: an event and a BIB number (the form's own shape). */
export interface CertificateRow {
  eventId: number | null;
  bibNumber: string;
}

/** The first rule a set of rows breaks, or null: each row needs an event and a BIB, and the events differ. */
export function certificateRowsProblem(rows: CertificateRow[]): string | null {
  if (rows.length === 0) return CERTIFICATE_MESSAGES.selectEvent(1);
  if (rows.length > CERTIFICATE_LIMITS.maxPairs) return CERTIFICATE_MESSAGES.tooManyPairs;
  for (const [i, row] of rows.entries()) {
    if (!row.eventId) return CERTIFICATE_MESSAGES.selectEvent(i + 1);
    if (!row.bibNumber.trim()) return CERTIFICATE_MESSAGES.enterBib(i + 1);
  }
  const events = rows.map((row) => row.eventId);
  if (new Set(events).size !== events.length) return CERTIFICATE_MESSAGES.differentEvents;
  return null;
}

const optionalEventId = number()
  .transform((value, original) => (original === '' || original === null || original === undefined ? null : value))
  .typeError('Please choose the events from the list.')
  .integer('Please choose the events from the list.')
  .positive('Please choose the events from the list.')
  .nullable();

/** The pairs as sent (four slots, unused ones empty) become the form's rows: trailing empty slots are padding. */
export function rowsOfPairs(pairs: Array<{ event_id?: number | null; bib_number?: string | null }>): CertificateRow[] {
  const rows = pairs.map((pair) => ({ eventId: pair.event_id ?? null, bibNumber: (pair.bib_number ?? '').trim() }));
  while (rows.length > 0 && !rows[rows.length - 1].eventId && !rows[rows.length - 1].bibNumber) rows.pop();
  return rows;
}

const achievementId = (message: string) => chosenId(message);

/** Achievements search (multipart event_bib_pairs[i][event_id], [bib_number]; or JSON). */
/** A form's numbered fields (event_bib_pairs[0], [1]...) arrive as an object keyed 0, 1...: read in order as a list. */
const numberedList = (value: unknown, original: unknown) => {
  if (original === null || typeof original !== 'object' || Array.isArray(original)) return value;
  const keys = Object.keys(original);
  return keys.every((k) => /^\d$/.test(k)) ? keys.sort().map((k) => (original as Record<string, unknown>)[k]) : value;
};

export const achievementsSearchSchema = object({
  event_bib_pairs: array(
    object({
      event_id: optionalEventId,
      bib_number: string().trim().max(32, 'A BIB number has at most 32 characters.').default(''),
    }),
  )
    .transform(numberedList)
    .required(CERTIFICATE_MESSAGES.selectEvent(1))
    .max(CERTIFICATE_LIMITS.maxPairs, CERTIFICATE_MESSAGES.tooManyPairs)
    .test('rows', CERTIFICATE_MESSAGES.selectEvent(1), function (pairs) {
      const problem = certificateRowsProblem(rowsOfPairs(pairs ?? []));
      return problem ? this.createError({ message: problem }) : true;
    }),
  _token: string().trim().max(200).optional(),
  page: number().typeError('page must be a number.').integer().min(1, 'page starts at 1.').default(1),
  achievement_id: number().typeError('Please start again from your photos.').integer().positive().nullable().optional(),
});
export type AchievementsSearchInput = InferType<typeof achievementsSearchSchema>;

/** Certificate eligibility of a race's BIB: the BIB search's event and BIB. */
export const certificateEligibilitySchema = bibSearchSchema.pick(['eventID', 'bibNumber']);
export type CertificateEligibilityInput = InferType<typeof certificateEligibilitySchema>;

/** Template details: the achievement and one photo id per event (selected_photos[{eventId}] = photo id). */
export const templateDetailsSchema = object({
  achievement_id: achievementId(CERTIFICATE_MESSAGES.noAchievement),
  selected_photos: mixed<Record<string, number>>()
    .required(CERTIFICATE_MESSAGES.selectImage)
    .test('photos', CERTIFICATE_MESSAGES.selectImage, (value) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
      const entries = Object.entries(value as Record<string, unknown>);
      return (
        entries.length > 0 &&
        entries.length <= CERTIFICATE_LIMITS.maxPairs &&
        entries.every(([eventId, photoId]) => /^[1-9]\d{0,9}$/.test(eventId) && /^[1-9]\d{0,9}$/.test(String(photoId)) && Number(photoId) <= 2_147_483_647)
      );
    })
    .transform((value: unknown) =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, Number(v)]))
        : value,
    ),
  _token: string().trim().max(200).optional(),
});
export type TemplateDetailsInput = InferType<typeof templateDetailsSchema>;

/** Certificate download (the upload of the JPEG) and the record of its download: the achievement. */
export const certificateAchievementSchema = object({
  achievement_id: achievementId(CERTIFICATE_MESSAGES.noAchievement),
  _token: string().trim().max(200).optional(),
});
export type CertificateAchievementInput = InferType<typeof certificateAchievementSchema>;

// Any position is read; one off the canvas is refused by the 'inside' test with the field's name.
const coordinate = number()
  .typeError('A template position must be a number.')
  .integer('A template position must be a whole number.')
  .min(-20_000)
  .max(20_000)
  .required();
const colour = string()
  .matches(/^#[0-9a-fA-F]{6}$/, 'A template colour is #rrggbb.')
  .required();

/** A template as an organiser or the seed stores it: sizes, fonts from the bundled set, positions inside the output. */
export const certificateTemplateConfigSchema = object({
  output_resolution: object({
    width: number().integer().min(600).max(8000).required(),
    height: number().integer().min(400).max(8000).required(),
  }).required(),
  output_filename: string()
    .matches(/^[a-z0-9][a-z0-9._-]{0,80}\.jpg$/, 'The output file name is lower-case letters, digits and dashes, ending .jpg.')
    .required(),
  texts: array(
    object({
      field: string().oneOf(['participant_name', 'finish_time', 'event_name', 'bib_number', 'static']).required(),
      event_id: number().integer().positive().optional(),
      text: string().max(200).optional(),
      font_file: string().oneOf(CERTIFICATE_FONT_FILES).required(),
      font_size: number().integer().min(8).max(600).optional(),
      color: colour,
      x: coordinate,
      y: coordinate,
      align: string().oneOf(['left', 'center', 'right']).optional(),
      max_width: number().integer().min(10).max(20_000).optional(),
    }),
  )
    .max(60)
    .required(),
  images: array(
    object({
      event_id: number().integer().positive().required(),
      slot: number().integer().min(1).max(CERTIFICATE_LIMITS.maxPairs).required(),
      x: coordinate,
      y: coordinate,
      width: number().integer().min(10).max(8000).required(),
      height: number().integer().min(10).max(8000).required(),
    }),
  )
    .min(1)
    .max(CERTIFICATE_LIMITS.maxPairs)
    .required(),
}).test('inside', 'Every field must lie inside the certificate.', function (config) {
  const problem = templateFieldsProblem(config as unknown as CertificateTemplateConfig);
  return problem ? this.createError({ message: problem }) : true;
});

/** Narrows a validated template to its type (yup's inferred one widens the string unions). */
export async function validTemplateConfig(input: unknown): Promise<CertificateTemplateConfig> {
  return (await certificateTemplateConfigSchema.validate(input, { stripUnknown: true })) as unknown as CertificateTemplateConfig;
}

/** The organiser's certificate of one race (Event Dashboard, Certificate tab). */
export const CERTIFICATE_SETTINGS_MESSAGES = {
  noResults: 'This race has no results yet. Import its participants with their finish times (Participants tab): then every finisher gets a certificate.',
  title: 'Please give the certificate a title (at most 120 characters).',
  colour: 'The colour is #rrggbb.',
  background: 'The background must be a JPEG or PNG image.',
  backgroundSize: `The background can be at most ${CERTIFICATE_BACKGROUND_MAX_BYTES / 1024 / 1024} MB.`,
  backgroundKey: 'The background is not one uploaded for this race. Please upload it again.',
  otherRace: (label: string) => `The field ${label} shows another race's result. Please place the fields of this race only.`,
  onePhotoSlot: 'The certificate has one photo slot.',
} as const;

export const SERIES_MESSAGES = {
  title: 'Please give the series a title (at most 120 characters).',
  tooFew: 'A series needs at least two races.',
  tooMany: `A series holds at most ${CERTIFICATE_LIMITS.maxPairs} races.`,
  twice: 'Each race can be in a series once.',
  notYours: 'You can only put your own races in a series.',
  noResults: (race: string) => `${race} has no results yet. Import its participants with their finish times first.`,
  titleTaken: 'A series with this title exists already. Please choose another title.',
  notFound: 'This series is not one of yours.',
  backgroundKey: 'The background is not one you uploaded for a series. Please upload it again.',
  slots: 'The certificate has one photo slot per race of the series, in its order. Please place them again.',
  otherRace: (label: string) => `The field ${label} shows a race that is not in this series. Please place the fields of its races only.`,
  noFinisher: 'No runner has finished every race of this series yet: the preview needs one. Check the races, or import their results.',
  saved: 'The series is saved: every runner who finished all its races can make its certificate.',
  savedOff: 'The series is saved and turned off.',
} as const;

const seriesRace = chosenId('Please choose a race.');
export const saveSeriesSchema = object({
  id: number().typeError('Please choose a series.').integer().positive().nullable().optional(),
  title: string().trim().required(SERIES_MESSAGES.title).max(120, SERIES_MESSAGES.title),
  eventIds: array(seriesRace)
    .required(SERIES_MESSAGES.tooFew)
    .min(2, SERIES_MESSAGES.tooFew)
    .max(CERTIFICATE_LIMITS.maxPairs, SERIES_MESSAGES.tooMany)
    .test('distinct', SERIES_MESSAGES.twice, (ids) => new Set(ids ?? []).size === (ids ?? []).length),
  active: mixed<boolean>().oneOf([true, false], 'The series is on or off.').required('The series is on or off.'),
  accent_color: string()
    .trim()
    .matches(/^#[0-9a-fA-F]{6}$/, CERTIFICATE_SETTINGS_MESSAGES.colour)
    .default(CERTIFICATE_STANDARD_ACCENT),
  background_key: string().trim().max(200, SERIES_MESSAGES.backgroundKey).nullable().default(null),
  // Checked whole by certificateTemplateConfigSchema and against the series' races on the server.
  template_config: mixed<CertificateTemplateConfig>().nullable().default(null),
});
export type SaveSeriesInput = InferType<typeof saveSeriesSchema>;

const settingsEventId = chosenId('Please choose an event.');

/** The certificate as the organiser saves or previews it: title, colour, background and the template. */
export const certificateDraftSchema = object({
  eventId: settingsEventId,
  title: string().trim().required(CERTIFICATE_SETTINGS_MESSAGES.title).max(120, CERTIFICATE_SETTINGS_MESSAGES.title),
  accent_color: string()
    .trim()
    .required(CERTIFICATE_SETTINGS_MESSAGES.colour)
    .matches(/^#[0-9a-fA-F]{6}$/, CERTIFICATE_SETTINGS_MESSAGES.colour),
  background_key: string().trim().max(200, CERTIFICATE_SETTINGS_MESSAGES.backgroundKey).nullable().default(null),
  template_config: mixed<CertificateTemplateConfig>().required('Please place the fields of the certificate.'),
});
export type CertificateDraftInput = InferType<typeof certificateDraftSchema>;

export const saveCertificateSettingsSchema = certificateDraftSchema.shape({
  active: mixed<boolean>().oneOf([true, false], 'Certificates are on or off.').required('Certificates are on or off.'),
});

/** A background image: the limit as base64 (4/3 of the bytes, a data: prefix); the exact byte limit is checked decoded. */
const backgroundImage = string()
  .trim()
  .required(CERTIFICATE_SETTINGS_MESSAGES.background)
  .max(Math.ceil((CERTIFICATE_BACKGROUND_MAX_BYTES * 4) / 3) + 100, CERTIFICATE_SETTINGS_MESSAGES.backgroundSize);

export const seriesBackgroundSchema = object({ image: backgroundImage });

export const certificateBackgroundSchema = object({ eventId: settingsEventId, image: backgroundImage });
