import crypto from 'node:crypto';
import sharp, { type OverlayOptions } from 'sharp';
import {
  CERTIFICATE_LIMITS,
  CERTIFICATE_STANDARD_ACCENT,
  certificateTexts,
  initialSquareCrop,
  type CertificateTemplateConfig,
  type CertificateValues,
} from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { textPathSvg } from './fonts';

export const STANDARD_ACCENT = CERTIFICATE_STANDARD_ACCENT;

/**
 * A certificate background at the template's size: paper, a border in the achievement's colour and
 * a frame behind each photo slot. Words are not part of it: they are the template's text items.
 */
export function backgroundSvg(config: CertificateTemplateConfig, accent: string): string {
  const { width, height } = config.output_resolution;
  const unit = Math.round(width / 64);
  const frames = config.images
    .map((slot) => {
      const pad = Math.round(unit * 0.4);
      return `<rect x="${slot.x - pad + unit * 0.3}" y="${slot.y - pad + unit * 0.3}" width="${slot.width + 2 * pad}" height="${slot.height + 2 * pad}" rx="${pad}" fill="#000" fill-opacity="0.10"/>
  <rect x="${slot.x - pad}" y="${slot.y - pad}" width="${slot.width + 2 * pad}" height="${slot.height + 2 * pad}" rx="${pad}" fill="#ffffff" stroke="${accent}" stroke-width="${Math.max(2, Math.round(unit / 15))}"/>`;
    })
    .join('\n  ');
  const corner = (x: number, y: number) =>
    `<rect x="${x - unit * 0.5}" y="${y - unit * 0.5}" width="${unit}" height="${unit}" transform="rotate(45 ${x} ${y})" fill="${accent}"/>`;
  const inset = unit;
  const inner = Math.round(unit * 1.9);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <radialGradient id="paper" cx="50%" cy="40%" r="75%"><stop offset="0" stop-color="#fffdf7"/><stop offset="1" stop-color="#f3ead8"/></radialGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#paper)"/>
  <rect x="${inset}" y="${inset}" width="${width - 2 * inset}" height="${height - 2 * inset}" fill="none" stroke="${accent}" stroke-width="${Math.round(unit * 0.6)}"/>
  <rect x="${inner}" y="${inner}" width="${width - 2 * inner}" height="${height - 2 * inner}" fill="none" stroke="#c9a227" stroke-width="${Math.max(2, Math.round(unit / 10))}"/>
  ${corner(inner, inner)} ${corner(width - inner, inner)} ${corner(inner, height - inner)} ${corner(width - inner, height - inner)}
  ${frames}
</svg>`;
}

export async function renderBackground(config: CertificateTemplateConfig, accent: string): Promise<Buffer> {
  return sharp(Buffer.from(backgroundSvg(config, accent)))
    .jpeg({ quality: 88 })
    .toBuffer();
}

/** The stored background of a template without its own: drawn once per layout and colour, then reused. */
export async function standardBackgroundKey(ctx: AppContext, config: CertificateTemplateConfig, accent: string | null = null): Promise<string> {
  const colour = accent ?? STANDARD_ACCENT;
  // The standard colour keeps the layout-only hash, so backgrounds stored before colours existed are reused.
  const parts: unknown[] = [config.output_resolution, config.images.map((s) => [s.x, s.y, s.width, s.height])];
  if (colour.toLowerCase() !== STANDARD_ACCENT) parts.push(colour.toLowerCase());
  const layout = crypto.createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
  const key = `public/certificates/standard-${layout}.jpg`;
  if (!(await ctx.storage.exists(key))) await ctx.storage.put(key, await renderBackground(config, colour), 'image/jpeg');
  return key;
}

/** One event's photo as its slot shows it by default: the centred square, scaled to the slot. */
async function slotImage(photo: Buffer, size: { width: number; height: number }): Promise<Buffer> {
  const image = sharp(photo);
  const meta = await image.metadata();
  const width = meta.width ?? size.width;
  const height = meta.height ?? size.height;
  const crop = initialSquareCrop(width, height);
  const side = Math.min(width, height);
  return image
    .extract({ left: Math.round((crop.x / 100) * width), top: Math.round((crop.y / 100) * height), width: side, height: side })
    .resize(size.width, size.height)
    .toBuffer();
}

/**
 * The certificate as the server draws it (the ultra premium zip's certs folder): background, each
 * event's photo in its slot, and the template's texts, at the template's resolution, JPEG at the
 * builder's quality.
 */
export async function renderCertificate(input: {
  config: CertificateTemplateConfig;
  background: Buffer;
  photos: Map<number, Buffer>;
  values: CertificateValues;
}): Promise<Buffer> {
  const { width, height } = input.config.output_resolution;
  const layers: OverlayOptions[] = [];
  for (const slot of input.config.images) {
    const photo = input.photos.get(slot.event_id);
    if (photo) layers.push({ input: await slotImage(photo, slot), left: slot.x, top: slot.y });
  }
  const texts = certificateTexts(input.config, input.values).map(textPathSvg).join('\n');
  layers.push({ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${texts}</svg>`), left: 0, top: 0 });
  return sharp(input.background)
    .resize(width, height, { fit: 'fill' })
    .composite(layers)
    .jpeg({ quality: Math.round(CERTIFICATE_LIMITS.jpegQuality * 100) })
    .toBuffer();
}
