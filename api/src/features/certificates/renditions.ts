import sharp from 'sharp';
import type { AppContext } from '../../context';
import { textPathSvg } from './fonts';
import type { BibPhotoRow } from './photos';

/** The long side of the photo a certificate is made from. */
const LONG_SIDE = 1600;

/** The corner mark, sized to the photo (about a thirtieth of its width per letter height). */
function markSvg(photoWidth: number): { svg: string; width: number; height: number } {
  const size = Math.max(10, Math.round(photoWidth / 55));
  const width = size * 6;
  const height = Math.round(size * 1.6);
  const mark = textPathSvg({
    text: 'finishline',
    fontFile: 'Montserrat-SemiBold.ttf',
    fontSize: size,
    color: '#ffffff',
    x: Math.round(size / 3),
    y: Math.round(size * 1.15),
    align: 'left',
    maxWidth: null,
  });
  return { svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><g fill-opacity="0.75">${mark}</g></svg>`, width, height };
}

/**
 * A signed link to the photo a certificate is made from: the original at print size with a small
 * corner mark, not the watermarked preview. It is made on first use (certificate-photos/) and given
 * only by template details, for the photos the runner chose, once eligibility was shown.
 */
export async function certificatePhotoUrl(ctx: AppContext, photo: BibPhotoRow, expiresAt: Date): Promise<string> {
  const key = photo.original_key.replace(/^originals\//, 'certificate-photos/').replace(/\.[a-z0-9]+$/i, '.jpg');
  if (!(await ctx.storage.exists(key))) {
    const sized = await sharp(await ctx.storage.getBuffer(photo.original_key))
      .rotate()
      .resize({ width: LONG_SIDE, height: LONG_SIDE, fit: 'inside', withoutEnlargement: true })
      .toBuffer({ resolveWithObject: true });
    const mark = markSvg(sized.info.width);
    const fits = mark.width < sized.info.width && mark.height < sized.info.height;
    const image = await sharp(sized.data)
      .composite(fits ? [{ input: Buffer.from(mark.svg), gravity: 'southeast' }] : [])
      .jpeg({ quality: 90 })
      .toBuffer();
    await ctx.storage.put(key, image, 'image/jpeg');
  }
  return ctx.storage.signedUrl(key, expiresAt);
}
