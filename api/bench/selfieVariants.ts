import crypto from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import { renderSelfie, type FaceImage } from './faceScenes';

/**
 * Selfies made from the face set, good and bad, for the quality gates (benchmark and tests), and the
 * frozen split of the face set's people into a tuning family and a held-out family.
 *
 * The split: people sorted by the SHA-256 of their folder name (hex); the first 40% (rounded up)
 * are held out, the rest tune. It depends on nothing but the names, so it never moves while tuning;
 * thresholds are chosen on the tuning people's selfies and photos only.
 */
export const HELD_OUT_SHARE = 0.4;

export function splitPeople(people: readonly string[]): { tuning: string[]; heldOut: string[] } {
  const hash = (name: string) => crypto.createHash('sha256').update(name).digest('hex');
  const sorted = [...new Set(people)].sort((a, b) => (hash(a) < hash(b) ? -1 : hash(a) > hash(b) ? 1 : 0));
  const held = Math.ceil(sorted.length * HELD_OUT_SHARE);
  return { heldOut: sorted.slice(0, held).sort(), tuning: sorted.slice(held).sort() };
}

/**
 * Selfie conditions. Good ones a runner would send and the gates must let through (a little dim,
 * a little soft, compressed, face a bit off-centre); bad ones the gates must refuse with their
 * message: dark, overexposed, blurred, turned away, sunglasses, too far from the camera, two faces.
 */
export const GOOD_SELFIES = ['clean', 'dim', 'soft', 'jpeg', 'offcentre'] as const;
export const BAD_SELFIES = ['dark', 'bright', 'blurred', 'turned', 'sunglasses', 'far', 'two'] as const;
export type SelfieVariant = (typeof GOOD_SELFIES)[number] | (typeof BAD_SELFIES)[number];

/**
 * The face turned to one side, as far as a flat photo allows: the half of the face away from the
 * camera is squeezed and the near half widened, so the nose moves towards the far cheek (`amount`
 * 0.5: the nose three quarters of the way across).
 */
export async function turnFace(face: Buffer, amount = 0.6, towards: 'left' | 'right' = 'right'): Promise<Buffer> {
  const image = sharp(face).removeAlpha();
  const { width = 150, height = 150 } = await image.metadata();
  const half = Math.floor(width / 2);
  const near = Math.max(1, Math.round(half * (towards === 'right' ? 1 + amount : 1 - amount)));
  const far = Math.max(1, width - near);
  const left = await sharp(face).removeAlpha().extract({ left: 0, top: 0, width: half, height }).resize(near, height, { fit: 'fill' }).toBuffer();
  const right = await sharp(face)
    .removeAlpha()
    .extract({ left: half, top: 0, width: width - half, height })
    .resize(far, height, { fit: 'fill' })
    .toBuffer();
  const turned = sharp({ create: { width, height, channels: 3, background: { r: 128, g: 128, b: 128 } } })
    .composite([
      { input: left, left: 0, top: 0 },
      { input: right, left: near, top: 0 },
    ])
    .png()
    .toBuffer();
  return turned;
}

/** Dark sunglasses over a face set crop (eyes at about 40% of its height). */
export async function withSunglasses(face: Buffer): Promise<Buffer> {
  const { width = 150, height = 150 } = await sharp(face).metadata();
  const s = Math.min(width, height);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <ellipse cx="${s * 0.32}" cy="${s * 0.4}" rx="${s * 0.16}" ry="${s * 0.1}" fill="#141414"/>
    <ellipse cx="${s * 0.68}" cy="${s * 0.4}" rx="${s * 0.16}" ry="${s * 0.1}" fill="#141414"/>
    <rect x="${s * 0.46}" y="${s * 0.37}" width="${s * 0.08}" height="${s * 0.03}" fill="#141414"/></svg>`;
  return sharp(face)
    .removeAlpha()
    .composite([{ input: Buffer.from(svg) }])
    .png()
    .toBuffer();
}

/** The selfie of one face photo in one condition (JPEG, as a phone camera sends it). */
export async function variantSelfie(face: FaceImage, variant: SelfieVariant, options: { other?: FaceImage; towards?: 'left' | 'right' } = {}): Promise<Buffer> {
  const other = options.other;
  const base = await renderSelfie(face.image, 'png');
  const jpeg = (image: Sharp, quality = 90) => image.jpeg({ quality }).toBuffer();
  switch (variant) {
    case 'clean':
      return jpeg(sharp(base));
    case 'dim':
      return jpeg(sharp(base).linear(0.6, 0));
    case 'soft':
      return jpeg(sharp(base).blur(1));
    case 'jpeg':
      return jpeg(sharp(base), 40);
    case 'offcentre':
      return jpeg(
        sharp(face.image)
          .resize(200, 200)
          .extend({ top: 40, bottom: 120, left: 10, right: 110, background: { r: 205, g: 200, b: 190 } }),
      );
    case 'dark':
      return jpeg(sharp(base).linear(0.18, 0));
    case 'bright':
      return jpeg(sharp(base).linear(1.8, 90));
    case 'blurred':
      return jpeg(sharp(base).blur(2.5));
    case 'turned':
      return renderSelfie(await turnFace(face.image, 0.6, options.towards), 'jpeg');
    case 'sunglasses':
      return renderSelfie(await withSunglasses(face.image), 'jpeg');
    case 'far':
      // The face 60 px tall in a 640x480 frame: too far from the camera.
      return jpeg(
        sharp(face.image)
          .resize(60, 60)
          .extend({ top: 200, bottom: 220, left: 290, right: 290, background: { r: 205, g: 200, b: 190 } }),
      );
    case 'two': {
      const second = other ?? face;
      const a = await sharp(face.image).resize(220, 220).toBuffer();
      const b = await sharp(second.image).resize(220, 220).toBuffer();
      return jpeg(
        sharp({ create: { width: 560, height: 360, channels: 3, background: { r: 205, g: 200, b: 190 } } }).composite([
          { input: a, left: 40, top: 70 },
          { input: b, left: 300, top: 70 },
        ]),
      );
    }
  }
}
