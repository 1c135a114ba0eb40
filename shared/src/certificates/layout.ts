import type { CertificateEventResult, CertificateFontFile, CertificateImageSlot, CertificateTemplateConfig, CertificateTextItem } from '../types/certificates';
import { CERTIFICATE_LIMITS, CERTIFICATE_STANDARD_ACCENT } from './constants';
import { capitalizeWords } from './names';

/**
 * The one layout of a certificate, from its template_config: which words go where, in which font,
 * and where each event's photo goes. The builder draws it with konva, the server (ultra premium
 * zips) with sharp; both read these values, so the two outputs have the same layout.
 */

/**
 * Every bundled font by the template's font_file: the family name the browser registers, the weight,
 * and the TTF file (in an npm package) that both the remote's bundle and the server's renderer load.
 */
export const CERTIFICATE_FONTS: Record<CertificateFontFile, { family: string; weight: number; source: string }> = {
  'PlayfairDisplay-Bold.ttf': {
    family: 'Finishline Playfair Display',
    weight: 700,
    source: '@expo-google-fonts/playfair-display/700Bold/PlayfairDisplay_700Bold.ttf',
  },
  'Montserrat-SemiBold.ttf': {
    family: 'Finishline Montserrat SemiBold',
    weight: 600,
    source: '@expo-google-fonts/montserrat/600SemiBold/Montserrat_600SemiBold.ttf',
  },
  'Montserrat-Regular.ttf': { family: 'Finishline Montserrat', weight: 400, source: '@expo-google-fonts/montserrat/400Regular/Montserrat_400Regular.ttf' },
};

export const CERTIFICATE_FONT_FILES = Object.keys(CERTIFICATE_FONTS) as CertificateFontFile[];

/** What the certificate says about the runner: the name and, per event, the official result. */
export interface CertificateValues {
  participantName: string;
  events: CertificateEventResult[];
}

/** A text item with its words resolved, ready to draw. */
export interface LaidOutText {
  text: string;
  fontFile: CertificateFontFile;
  fontSize: number;
  color: string;
  x: number;
  y: number;
  align: 'left' | 'center' | 'right';
  maxWidth: number | null;
}

function defaultSize(item: CertificateTextItem): number {
  if (item.field === 'participant_name') return CERTIFICATE_LIMITS.defaultNameSize;
  if (item.field === 'finish_time') return CERTIFICATE_LIMITS.defaultTimeSize;
  return CERTIFICATE_LIMITS.defaultTextSize;
}

function wordsOf(item: CertificateTextItem, values: CertificateValues): string {
  const event = values.events.find((e) => e.event_id === item.event_id);
  switch (item.field) {
    case 'participant_name':
      return capitalizeWords(values.participantName);
    case 'finish_time':
      return event?.finish_time ?? '';
    case 'event_name':
      return event?.event_name ?? '';
    case 'bib_number':
      return event ? `BIB ${event.bib_number}` : '';
    case 'static':
      return item.text ?? '';
  }
}

/** The texts to draw, in template order; an item with nothing to say (no time for an event) is left out. */
export function certificateTexts(config: CertificateTemplateConfig, values: CertificateValues): LaidOutText[] {
  return config.texts.flatMap((item) => {
    const text = wordsOf(item, values);
    if (!text) return [];
    return [
      {
        text,
        fontFile: item.font_file,
        fontSize: item.font_size ?? defaultSize(item),
        color: item.color,
        x: item.x,
        y: item.y,
        align: item.align ?? 'center',
        maxWidth: item.max_width ?? null,
      },
    ];
  });
}

/** The size a text is drawn at: its own, or smaller so that it fits max_width (widthAtSize measured at fontSize). */
export function fittedFontSize(text: LaidOutText, widthAtSize: number): number {
  if (!text.maxWidth || widthAtSize <= text.maxWidth) return text.fontSize;
  return Math.floor((text.fontSize * text.maxWidth) / widthAtSize);
}

/** Where a text drawn at that width starts, for its alignment around x. */
export function textLeft(text: LaidOutText, width: number): number {
  if (text.align === 'left') return text.x;
  if (text.align === 'right') return text.x - width;
  return text.x - width / 2;
}

/** The slot of each event, in the order of required_sequence. */
export function slotsInOrder(config: CertificateTemplateConfig, requiredSequence: number[]): CertificateImageSlot[] {
  return requiredSequence.flatMap((eventId) => config.images.filter((slot) => slot.event_id === eventId));
}

/** The square the builder starts from and the server uses: the image's short side, centred (in percent). */
export function initialSquareCrop(width: number, height: number): { unit: '%'; x: number; y: number; width: number; height: number } {
  const side = Math.min(width, height);
  const w = (side / width) * 100;
  const h = (side / height) * 100;
  return { unit: '%', x: (100 - w) / 2, y: (100 - h) / 2, width: w, height: h };
}

const INK = '#1d2433';
const SOFT = '#4a5160';

const text = (item: Omit<CertificateTextItem, 'align'> & { align?: CertificateTextItem['align'] }): CertificateTextItem => ({ align: 'center', ...item });

/**
 * The standard certificate of an achievement: heading, the achievement's title, the runner's name,
 * one square photo per event (in the required order) with the event's name, the official finish time
 * and the BIB under it. Organisers' own templates use the same fields; this one is what an
 * achievement without its own template gets, and what the seed stores for the demo achievements.
 * `accent` is the race's colour (the heading and the times; the background's border is drawn in it too).
 */
export function standardTemplate(input: { title: string; eventIds: number[]; width?: number; height?: number; accent?: string }): CertificateTemplateConfig {
  const ACCENT = input.accent ?? CERTIFICATE_STANDARD_ACCENT;
  const width = input.width ?? CERTIFICATE_LIMITS.defaultOutput.width;
  const height = input.height ?? CERTIFICATE_LIMITS.defaultOutput.height;
  const sx = width / CERTIFICATE_LIMITS.defaultOutput.width;
  const sy = height / CERTIFICATE_LIMITS.defaultOutput.height;
  const px = (n: number) => Math.round(n * sx);
  const py = (n: number) => Math.round(n * sy);
  const count = Math.max(1, input.eventIds.length);
  const gap = px(110);
  const side = Math.min(px(880), py(880), Math.floor((width - 2 * px(320) - (count - 1) * gap) / count));
  const left = Math.round((width - (count * side + (count - 1) * gap)) / 2);
  const top = py(1020);
  const centre = Math.round(width / 2);
  const single = count === 1;

  const texts: CertificateTextItem[] = [
    text({
      field: 'static',
      text: 'CERTIFICATE OF ACHIEVEMENT',
      font_file: 'Montserrat-SemiBold.ttf',
      font_size: px(64),
      color: ACCENT,
      x: centre,
      y: py(360),
    }),
    text({
      field: 'static',
      text: input.title,
      font_file: 'PlayfairDisplay-Bold.ttf',
      font_size: px(124),
      color: INK,
      x: centre,
      y: py(540),
      max_width: width - px(800),
    }),
    text({ field: 'static', text: 'This certifies that', font_file: 'Montserrat-Regular.ttf', font_size: px(54), color: SOFT, x: centre, y: py(660) }),
    text({
      field: 'participant_name',
      font_file: 'PlayfairDisplay-Bold.ttf',
      font_size: px(150),
      color: INK,
      x: centre,
      y: py(840),
      max_width: width - px(1000),
    }),
    text({
      field: 'static',
      text: single ? 'crossed the finish line in the official time below' : `finished all ${count} races with these official times`,
      font_file: 'Montserrat-Regular.ttf',
      font_size: px(50),
      color: SOFT,
      x: centre,
      y: py(940),
    }),
  ];
  const images: CertificateImageSlot[] = input.eventIds.map((eventId, i) => {
    const x = left + i * (side + gap);
    const middle = Math.round(x + side / 2);
    texts.push(
      text({
        field: 'event_name',
        event_id: eventId,
        font_file: 'Montserrat-SemiBold.ttf',
        font_size: px(46),
        color: INK,
        x: middle,
        y: top + side + py(90),
        max_width: side + px(60),
      }),
      // No font_size: the time has the spec's default size (70).
      text({ field: 'finish_time', event_id: eventId, font_file: 'Montserrat-SemiBold.ttf', color: ACCENT, x: middle, y: top + side + py(190) }),
      text({ field: 'bib_number', event_id: eventId, font_file: 'Montserrat-Regular.ttf', font_size: px(40), color: SOFT, x: middle, y: top + side + py(260) }),
    );
    return { event_id: eventId, slot: i + 1, x, y: top, width: side, height: side };
  });
  texts.push(
    text({
      field: 'static',
      text: 'Official finish times from the race results · Finishline',
      font_file: 'Montserrat-Regular.ttf',
      font_size: px(36),
      color: '#6b7280',
      x: centre,
      y: height - py(150),
    }),
  );
  const slug =
    input.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'achievement';
  return { output_resolution: { width, height }, output_filename: `${slug}-certificate.jpg`, texts, images };
}

/** What the organiser calls each field of a template (in messages and in the template editor). */
export function templateFieldLabel(item: CertificateTextItem): string {
  switch (item.field) {
    case 'participant_name':
      return 'Name';
    case 'finish_time':
      return 'Time';
    case 'event_name':
      return 'Race';
    case 'bib_number':
      return 'BIB';
    case 'static':
      return `Text "${(item.text ?? '').slice(0, 40)}"`;
  }
}

/**
 * The first field of a template that lies outside its canvas, as a message naming it, or null. A
 * text's anchor (x, and y its baseline) must be on the certificate, a photo slot wholly on it.
 */
export function templateFieldsProblem(config: CertificateTemplateConfig): string | null {
  const { width, height } = config.output_resolution;
  const outside = (label: string, x: number, y: number) =>
    `The field ${label} lies outside the certificate (${width} x ${height}) at x ${x}, y ${y}. Please move it onto the canvas.`;
  for (const item of config.texts) {
    if (item.x < 0 || item.x > width || item.y < 0 || item.y > height) return outside(templateFieldLabel(item), item.x, item.y);
  }
  for (const slot of config.images) {
    if (slot.x < 0 || slot.y < 0 || slot.x + slot.width > width || slot.y + slot.height > height) return outside(`Photo slot ${slot.slot}`, slot.x, slot.y);
  }
  return null;
}
