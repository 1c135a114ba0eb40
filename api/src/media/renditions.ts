import sharp, { type Sharp } from 'sharp';

/**
 * What a buyer may see of a photo before buying it: a watermarked preview and a watermarked
 * thumbnail (a thumbnail is large enough to be worth saving, so it carries the mark too). Used by
 * the upload pipeline and by the demo seed, so demo photos look like uploaded ones.
 */
export const PREVIEW_WIDTH = 1000;
export const THUMB_WIDTH = 400;
const FONT = `'DejaVu Sans', 'Liberation Sans', Arial, sans-serif`;

/** The diagonal, repeated "FINISHLINE PREVIEW" watermark laid over every preview and thumbnail. */
export function watermarkSvg(width: number, height: number): string {
  const fontSize = Math.round(width / 22);
  const rows: string[] = [];
  const step = fontSize * 3.2;
  for (let y = -height; y < height * 2; y += step) {
    for (let x = -width; x < width * 2; x += fontSize * 12) {
      const offset = (Math.round(y / step) % 2) * fontSize * 6;
      rows.push(`<text x="${x + offset}" y="${y}">FINISHLINE PREVIEW</text>`);
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <g transform="rotate(-30 ${width / 2} ${height / 2})" font-family="${FONT}" font-size="${fontSize}" font-weight="bold"
     fill="#ffffff" fill-opacity="0.42" stroke="#000000" stroke-opacity="0.22" stroke-width="1.5">${rows.join('')}</g>
</svg>`;
}

// Photos of one camera share a size: the mark of each size is drawn once.
const marks = new Map<string, Promise<Buffer>>();
export function watermarkPng(width: number, height: number): Promise<Buffer> {
  const key = `${width}x${height}`;
  let mark = marks.get(key);
  if (!mark) {
    mark = sharp(Buffer.from(watermarkSvg(width, height)))
      .png()
      .toBuffer();
    if (marks.size > 64) marks.clear();
    marks.set(key, mark);
  }
  return mark;
}

/** Width and height of a rendition of an image of the given size, width fixed. */
export function renditionSize(width: number, height: number, targetWidth: number): { width: number; height: number } {
  const w = Math.min(targetWidth, width);
  return { width: w, height: Math.max(1, Math.round((height * w) / width)) };
}

/** Watermarked preview and thumbnail of an upright image (sharp input: an encoded image or raw pixels). */
export async function watermarkedRenditions(input: () => Sharp, width: number, height: number): Promise<{ preview: Buffer; thumb: Buffer }> {
  const p = renditionSize(width, height, PREVIEW_WIDTH);
  const t = renditionSize(width, height, THUMB_WIDTH);
  const [previewMark, thumbMark] = await Promise.all([watermarkPng(p.width, p.height), watermarkPng(t.width, t.height)]);
  const [preview, thumb] = await Promise.all([
    input()
      .resize(p.width, p.height)
      .composite([{ input: previewMark }])
      .jpeg({ quality: 74 })
      .toBuffer(),
    input()
      .resize(t.width, t.height)
      .composite([{ input: thumbMark }])
      .jpeg({ quality: 72 })
      .toBuffer(),
  ]);
  return { preview, thumb };
}

/**
 * The renditions of an encoded photo (a camera JPEG), decoded once: the JPEG is shrunk while it is
 * decoded to the preview's size, and the thumbnail is made from those pixels. Decoding it for each
 * rendition cost about 150 ms of CPU a 4000 px photo, this about 95 ms (docs/supply-line.md).
 */
export async function renditionsOfEncoded(image: Buffer, width: number, height: number): Promise<{ preview: Buffer; thumb: Buffer }> {
  const p = renditionSize(width, height, PREVIEW_WIDTH);
  const { data, info } = await sharp(image).resize(p.width, p.height).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return watermarkedRenditions(() => sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }), info.width, info.height);
}
