import sharp from 'sharp';
import { PREVIEW_WIDTH, THUMB_WIDTH, watermarkedRenditions, watermarkPng as markPng } from '../media/renditions';

/** Sizes of what the seed stores for every photo (the same as uploads get). */
export { PREVIEW_WIDTH, THUMB_WIDTH };

export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

export interface Overlay {
  svg: string;
  left: number;
  top: number;
}

export interface RenderedPhoto {
  original: Buffer;
  preview: Buffer;
  thumb: Buffer;
  width: number;
  height: number;
}

/** Rasterises an SVG once into raw pixels, so many photos can reuse the same background. */
export async function rasterise(svg: string, width?: number, height?: number): Promise<RawImage> {
  let pipeline = sharp(Buffer.from(svg)).removeAlpha();
  if (width && height) pipeline = pipeline.resize(width, height, { fit: 'cover' });
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
}

const rawInput = (image: RawImage) => ({ raw: { width: image.width, height: image.height, channels: image.channels } });

export async function compose(background: RawImage, overlays: Overlay[]): Promise<RawImage> {
  const { data, info } = await sharp(background.data, rawInput(background))
    .composite(overlays.map((o) => ({ input: Buffer.from(o.svg), left: Math.round(o.left), top: Math.round(o.top) })))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
}

/** Original (full size, clean), watermarked preview and thumbnail of one composed scene. */
export async function encodePhoto(scene: RawImage): Promise<RenderedPhoto> {
  const [original, { preview, thumb }] = await Promise.all([
    sharp(scene.data, rawInput(scene)).jpeg({ quality: 84 }).toBuffer(),
    watermarkedRenditions(() => sharp(scene.data, rawInput(scene)), scene.width, scene.height),
  ]);
  return { original, preview, thumb, width: scene.width, height: scene.height };
}

export async function renderPhoto(background: RawImage, overlays: Overlay[]): Promise<RenderedPhoto> {
  return encodePhoto(await compose(background, overlays));
}

/** Encodes a still (an SVG drawing) as JPEG or PNG at the given size. */
export async function renderStill(svg: string, format: 'jpeg' | 'png', width?: number, height?: number): Promise<Buffer> {
  let pipeline = sharp(Buffer.from(svg));
  if (width && height) pipeline = pipeline.resize(width, height, { fit: 'cover' });
  return format === 'png' ? pipeline.png().toBuffer() : pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 82 }).toBuffer();
}

export async function watermarkPng(width: number, height: number): Promise<Buffer> {
  return markPng(width, height);
}

/** Runs jobs with at most `limit` in flight (the seed renders two photos at a time on 2 cores). */
export async function runPool<T>(items: readonly T[], limit: number, job: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      await job(items[index], index);
    }
  });
  await Promise.all(workers);
}
