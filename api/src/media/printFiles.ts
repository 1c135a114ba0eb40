import sharp, { type OverlayOptions, type Sharp } from 'sharp';

/**
 * Print-ready files. A print is the original cropped (centred) to the product's aspect at its
 * print size plus a bleed on every side, at 300 dpi where the original allows and never below 150
 * (a file between the two carries a warning; below 150 nothing is made and the line is held, so no
 * print is ever blurred). The file is sRGB with the profile embedded, its density set to the dpi,
 * and carries no other metadata. The journey-map collage is 2 ft x 3 ft (portrait, or 3 ft x 2 ft
 * landscape) at 150 dpi with the race's name, date, the runner's name and official time and, when
 * the organiser uploaded one, the course map.
 */
export const PRINT_DPI = 300;
export const MIN_PRINT_DPI = 150;
/** Bleed on each side, inches: the printer trims it off, so the picture reaches the edge. */
export const BLEED_IN = 0.125;
export const COLLAGE_DPI = 150;
export const COLLAGE_SIZE_IN = { Vertical: { width: 24, height: 36 }, Horizontal: { width: 36, height: 24 } } as const;
/** White border inside the collage's edge, inches: nothing printed there is cut off. */
export const COLLAGE_MARGIN_IN = 0.5;
const FONT = `'DejaVu Sans', 'Liberation Sans', Arial, sans-serif`;

export interface PrintSize {
  widthIn: number;
  heightIn: number;
}

export type PrintFile = { ok: true; file: Buffer; width: number; height: number; dpi: number; warning: string | null } | { ok: false; reason: string };

export const tooSmallReason = (what: string, dpi: number) =>
  `The original is too small for ${what}: ${dpi} dpi at its size, at least ${MIN_PRINT_DPI} needed. Ask the photographer for a larger original or refund the line.`;
export const lowDpiWarning = (dpi: number) => `Printed at ${dpi} dpi (below ${PRINT_DPI}): the original is not larger.`;

/** Width and height of the image as shown (EXIF orientation applied). */
async function uprightSize(original: Buffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(original).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  return (meta.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height };
}

/**
 * The plan for a print: the print turned to the photo's orientation (a landscape photo on a 4x6
 * magnet prints 6x4), the file's size in inches with the bleed, and the dpi the original gives there.
 */
export function planPrint(photo: { width: number; height: number }, size: PrintSize): { widthIn: number; heightIn: number; availableDpi: number; dpi: number } {
  const turn = size.widthIn !== size.heightIn && photo.width > photo.height !== size.widthIn > size.heightIn;
  const trimW = turn ? size.heightIn : size.widthIn;
  const trimH = turn ? size.widthIn : size.heightIn;
  const widthIn = trimW + 2 * BLEED_IN;
  const heightIn = trimH + 2 * BLEED_IN;
  // The largest centred crop of the photo at the file's aspect, and its pixels per inch there.
  const cropWidth = Math.min(photo.width, (photo.height * widthIn) / heightIn);
  const availableDpi = Math.floor(cropWidth / widthIn);
  return { widthIn, heightIn, availableDpi, dpi: Math.min(PRINT_DPI, availableDpi) };
}

/** Pixels to a JPEG with only the sRGB profile and the density (raw input carries no camera EXIF or GPS; the density is a resolution tag). */
async function printJpeg(pixels: Sharp, dpi: number): Promise<{ file: Buffer; width: number; height: number }> {
  const { data, info } = await pixels.toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const file = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .withIccProfile('srgb')
    .withDensity(dpi)
    .jpeg({ quality: 95, chromaSubsampling: '4:4:4' })
    .toBuffer();
  return { file, width: info.width, height: info.height };
}

/** The print-ready file of one photo for a product of this size, or why it cannot be made. */
export async function renderPrintFile(original: Buffer, size: PrintSize, productName: string): Promise<PrintFile> {
  const photo = await uprightSize(original);
  if (photo.width === 0 || photo.height === 0) return { ok: false, reason: 'The original could not be read as an image.' };
  const plan = planPrint(photo, size);
  if (plan.availableDpi < MIN_PRINT_DPI) return { ok: false, reason: tooSmallReason(productName, plan.availableDpi) };
  const width = Math.round(plan.widthIn * plan.dpi);
  const height = Math.round(plan.heightIn * plan.dpi);
  const out = await printJpeg(sharp(original).rotate().resize(width, height, { fit: 'cover', position: 'centre' }), plan.dpi);
  return { ok: true, ...out, dpi: plan.dpi, warning: plan.dpi < PRINT_DPI ? lowDpiWarning(plan.dpi) : null };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** A race date as the collage prints it: 12 January 2026. */
export function raceDate(value: string | Date): string {
  const d = value instanceof Date ? value : new Date(`${String(value).slice(0, 10)}T00:00:00Z`);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** An interval as PostgreSQL prints it (01:52:07, or "1 day 02:03:04") to H:MM:SS. */
export function officialTime(interval: string | null): string | null {
  if (!interval) return null;
  const match = /(?:(\d+) days? )?(\d+):(\d{2}):(\d{2})/.exec(interval);
  if (!match) return null;
  const hours = Number(match[1] ?? 0) * 24 + Number(match[2]);
  return `${hours}:${match[3]}:${match[4]}`;
}

export interface CollageInput {
  photos: Buffer[];
  orientation: 'Vertical' | 'Horizontal';
  eventName: string;
  eventDate: string;
  runnerName: string;
  /** The official (chip) time, or null when the participant list has none. */
  officialTime: string | null;
  courseMap: Buffer | null;
}

export function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Where each photo goes: landscape 3:2 tiles (race photos are landscape) in a grid of 2 columns
 * (portrait collage) or 3 (landscape), smaller when the rows would not fit, the grid centred in the
 * area and a short last row centred.
 */
export function collageTiles(count: number, area: Box, orientation: 'Vertical' | 'Horizontal', gap: number): Box[] {
  const columns = Math.min(count, orientation === 'Vertical' ? 2 : 3);
  const rows = Math.ceil(count / columns);
  let width = Math.floor((area.width - gap * (columns - 1)) / columns);
  let height = Math.floor((width * 2) / 3);
  if (rows * height + (rows - 1) * gap > area.height) {
    height = Math.floor((area.height - gap * (rows - 1)) / rows);
    width = Math.floor((height * 3) / 2);
  }
  const top = area.top + Math.floor((area.height - (rows * height + (rows - 1) * gap)) / 2);
  const tiles: Box[] = [];
  for (let i = 0; i < count; i++) {
    const row = Math.floor(i / columns);
    const inRow = Math.min(columns, count - row * columns);
    const rowLeft = area.left + Math.floor((area.width - (inRow * width + (inRow - 1) * gap)) / 2);
    tiles.push({ left: rowLeft + (i % columns) * (width + gap), top: top + row * (height + gap), width, height });
  }
  return tiles;
}

function headerSvg(width: number, height: number, input: CollageInput): string {
  const big = Math.round(height * 0.3);
  const small = Math.round(height * 0.16);
  const time = input.officialTime ? `Official time ${input.officialTime}` : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect width="100%" height="100%" fill="#0b2545"/>
  <text x="50%" y="${Math.round(height * 0.4)}" font-family="${FONT}" font-size="${big}" font-weight="bold" fill="#ffffff" text-anchor="middle">${escapeXml(input.eventName)}</text>
  <text x="50%" y="${Math.round(height * 0.64)}" font-family="${FONT}" font-size="${small}" fill="#dfe7f2" text-anchor="middle">${escapeXml(input.eventDate)}</text>
  <text x="50%" y="${Math.round(height * 0.88)}" font-family="${FONT}" font-size="${small}" font-weight="bold" fill="#ffd166" text-anchor="middle">${escapeXml([input.runnerName, time].filter(Boolean).join('  ·  '))}</text>
</svg>`;
}

/** The journey-map collage at 2 ft x 3 ft, or why it cannot be made (a photo too small for its place). */
/**
 * The collage at dpi. checkResolution (the print file) refuses a photo that gives fewer than
 * MIN_PRINT_DPI at its tile; the runner's preview before paying is drawn small from the watermarked
 * previews, so it does not check.
 */
export async function renderCollage(input: CollageInput, dpi = COLLAGE_DPI, options: { checkResolution?: boolean } = {}): Promise<PrintFile> {
  const size = COLLAGE_SIZE_IN[input.orientation];
  const width = size.width * dpi;
  const height = size.height * dpi;
  const margin = Math.round(COLLAGE_MARGIN_IN * dpi);
  const gap = Math.round(0.25 * dpi);
  const header = { left: margin, top: margin, width: width - 2 * margin, height: Math.round(4 * dpi) };
  const mapHeight = input.courseMap ? Math.round((input.orientation === 'Vertical' ? 7 : 5) * dpi) : 0;
  const photoArea = {
    left: margin,
    top: header.top + header.height + gap,
    width: width - 2 * margin,
    height: height - 2 * margin - header.height - gap - (mapHeight ? mapHeight + gap : 0),
  };
  const tiles = collageTiles(input.photos.length, photoArea, input.orientation, gap);

  const layers: OverlayOptions[] = [{ input: Buffer.from(headerSvg(header.width, header.height, input)), left: header.left, top: header.top }];
  for (const [i, photo] of input.photos.entries()) {
    const tile = tiles[i]!;
    const upright = await uprightSize(photo);
    if (upright.width === 0) return { ok: false, reason: `Photo ${i + 1} of the collage could not be read as an image.` };
    // Cover the tile: the photo's pixels per inch there must reach the minimum.
    const scale = Math.max(tile.width / upright.width, tile.height / upright.height);
    const tileDpi = Math.floor(dpi / scale);
    if ((options.checkResolution ?? true) && tileDpi < MIN_PRINT_DPI) return { ok: false, reason: tooSmallReason(`photo ${i + 1} of the collage`, tileDpi) };
    layers.push({ input: await sharp(photo).rotate().resize(tile.width, tile.height, { fit: 'cover' }).toBuffer(), left: tile.left, top: tile.top });
  }
  if (input.courseMap) {
    const map = { left: margin, top: height - margin - mapHeight, width: width - 2 * margin, height: mapHeight };
    layers.push({
      input: await sharp(input.courseMap).rotate().resize(map.width, map.height, { fit: 'contain', background: '#ffffff' }).toBuffer(),
      left: map.left,
      top: map.top,
    });
  }
  const canvas = sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).composite(layers);
  // Composite first, then the raw round trip (one pipeline cannot composite and resize the result).
  const flat = await canvas.png({ compressionLevel: 0 }).toBuffer();
  const out = await printJpeg(sharp(flat), dpi);
  return { ok: true, ...out, dpi, warning: null };
}
