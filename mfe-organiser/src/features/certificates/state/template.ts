import type { CertificateTemplateConfig, CertificateTextItem, OrganiserCertificate } from '@finishline/shared';

/**
 * The Certificate tab's draft: what the organiser has on screen until Save. The template is edited
 * as a whole; the title and the colour also live in its words and colours (the standard layout's
 * title is a fixed text, its heading and times are drawn in the race's colour), so changing either
 * carries the change into the template.
 */
export type CertificateDraft = Pick<OrganiserCertificate, 'active' | 'title' | 'accent_color' | 'background_key' | 'background_url' | 'template_config'>;

/** What the title and colour rules touch: a race's draft or a series' alike. */
type Styled = Pick<CertificateDraft, 'title' | 'accent_color' | 'template_config'>;

/** A race the template's fields may show (a race's certificate has one, a series several). */
export interface TemplateRace {
  event_id: number;
  event_name: string;
}

export const draftOf = (settings: OrganiserCertificate): CertificateDraft => ({
  active: settings.active,
  title: settings.title,
  accent_color: settings.accent_color,
  background_key: settings.background_key,
  background_url: settings.background_url,
  template_config: settings.template_config,
});

/** The fields an organiser adds (name, time, race, BIB, date); the photo slot is always there and is moved. */
export const ADDABLE_FIELDS = [
  { key: 'participant_name', label: 'Name' },
  { key: 'finish_time', label: 'Time' },
  { key: 'event_name', label: 'Race' },
  { key: 'bib_number', label: 'BIB' },
  { key: 'date', label: 'Date' },
] as const;
export type AddableField = (typeof ADDABLE_FIELDS)[number]['key'];

/** The race's date as the certificate prints it: "4 October 2026". */
export function printedDate(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** A new field in the middle of the certificate (the date is fixed words: the race's day). */
export function newField(field: AddableField, eventId: number, eventDate: string, accent: string, config: CertificateTemplateConfig): CertificateTextItem {
  const { width, height } = config.output_resolution;
  const base = {
    font_file: 'Montserrat-SemiBold.ttf' as const,
    color: field === 'finish_time' ? accent : '#1d2433',
    x: Math.round(width / 2),
    y: Math.round(height / 2),
    align: 'center' as const,
  };
  if (field === 'date') return { ...base, field: 'static', text: printedDate(eventDate), font_file: 'Montserrat-Regular.ttf', font_size: 48 };
  if (field === 'participant_name') return { ...base, field, font_file: 'PlayfairDisplay-Bold.ttf', font_size: 120, max_width: width - 800 };
  return { ...base, field, event_id: eventId };
}

export function withTitle<D extends Styled>(draft: D, title: string): D {
  const texts = draft.template_config.texts.map((item) => (item.field === 'static' && item.text === draft.title ? { ...item, text: title } : item));
  return { ...draft, title, template_config: { ...draft.template_config, texts } };
}

export function withAccent<D extends Styled>(draft: D, accent: string): D {
  const before = draft.accent_color.toLowerCase();
  const texts = draft.template_config.texts.map((item) => (item.color.toLowerCase() === before ? { ...item, color: accent } : item));
  return { ...draft, accent_color: accent, template_config: { ...draft.template_config, texts } };
}

/** A photo slot's index in moved(): -1 is the first slot, -2 the second, and so on. */
export const slotIndex = (position: number) => -1 - position;

/** A field moved to (x, y) at the certificate's own pixels; a negative index is a photo slot (slotIndex). */
export function moved(config: CertificateTemplateConfig, index: number, x: number, y: number): CertificateTemplateConfig {
  if (index < 0)
    return { ...config, images: config.images.map((slot, i) => (slotIndex(i) === index ? { ...slot, x: Math.round(x), y: Math.round(y) } : slot)) };
  return { ...config, texts: config.texts.map((item, i) => (i === index ? { ...item, x: Math.round(x), y: Math.round(y) } : item)) };
}

export const removed = (config: CertificateTemplateConfig, index: number): CertificateTemplateConfig => ({
  ...config,
  texts: config.texts.filter((_, i) => i !== index),
});
export const added = (config: CertificateTemplateConfig, item: CertificateTextItem): CertificateTemplateConfig => ({
  ...config,
  texts: [...config.texts, item],
});
