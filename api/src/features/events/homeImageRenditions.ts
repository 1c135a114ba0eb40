import sharp, { type Sharp } from 'sharp';
import type { HeroImage, ImageSource } from '@finishline/shared/pure';
import type { Db } from '../../db/db';
import type { ObjectStorage } from '../../storage/storage';

/**
 * The hero is one 1920 px JPEG; a phone needs a fraction of it. Its renditions are made once with
 * sharp, kept in object storage beside the original (public/, so a CDN serves them like it) and
 * named in home_images.renditions; the home page then gives the storefront a srcset per format.
 *
 * Widths: a 360 px phone at DPR 2 takes 720, a 412 px one at DPR 1 480, a desktop 1280 or 1920.
 * Formats: WebP, then JPEG for a browser without WebP. AVIF was measured and left out: on the demo
 * hero it saved 1-4 KB a file against WebP and took 20-30 times as long to encode (sharp, effort 4).
 */
export const HOME_IMAGE_WIDTHS = [480, 720, 960, 1280, 1920];
const FORMATS = [
  { type: 'image/webp', extension: 'webp', encode: (image: Sharp) => image.webp({ quality: 72 }) },
  { type: 'image/jpeg', extension: 'jpg', encode: (image: Sharp) => image.jpeg({ quality: 76, mozjpeg: true }) },
] as const;

/** What home_images.renditions holds. */
export interface StoredRenditions {
  width: number;
  height: number;
  sources: Array<{ type: ImageSource['type']; files: Array<{ key: string; width: number }> }>;
}

/** public/hero/finish-line.jpg -> public/renditions/hero/finish-line/720.webp */
export function renditionKey(originalKey: string, width: number, extension: string): string {
  const stem = originalKey.replace(/^public\//, '').replace(/\.[^./]+$/, '');
  return `public/renditions/${stem}/${width}.${extension}`;
}

/** Renders and stores every rendition of one image; returns what to record. */
export async function renderRenditions(storage: ObjectStorage, originalKey: string): Promise<StoredRenditions> {
  const original = await storage.getBuffer(originalKey);
  const { width = 0, height = 0 } = await sharp(original).metadata();
  if (!width || !height) throw new Error(`${originalKey}: not an image sharp can read`);
  // Never larger than the original; the original's own width closes the list.
  const widths = [...new Set([...HOME_IMAGE_WIDTHS.filter((w) => w < width), width])];
  const sources: StoredRenditions['sources'] = [];
  for (const format of FORMATS) {
    const files = [];
    for (const w of widths) {
      const key = renditionKey(originalKey, w, format.extension);
      await storage.put(key, await format.encode(sharp(original).resize(w)).toBuffer(), format.type);
      files.push({ key, width: w });
    }
    sources.push({ type: format.type, files });
  }
  return { width, height, sources };
}

/**
 * Makes the renditions of every active hero image that has none yet (the seed's, or one an operator
 * added). Run once at the API's start and after the seed; a second process doing the same work at
 * the same time only writes the same files again. A failure leaves the row without renditions (the
 * home page then serves the original) and is reported, never thrown.
 */
export async function ensureHomeImageRenditions(db: Db, storage: ObjectStorage, log: (message: string) => void): Promise<number> {
  const rows = await db.query<{ id: number; image_key: string }>(`select id, image_key from home_images where kind = 'hero' and active and renditions is null`);
  let made = 0;
  for (const row of rows) {
    try {
      const renditions = await renderRenditions(storage, row.image_key);
      await db.query(`update home_images set renditions = $2 where id = $1 and image_key = $3`, [row.id, JSON.stringify(renditions), row.image_key]);
      made++;
    } catch (error) {
      log(`home image ${row.image_key}: renditions not made (${error instanceof Error ? error.message : String(error)}); the original is served`);
    }
  }
  if (made > 0) log(`home images: renditions made for ${made} image(s)`);
  return made;
}

/** The hero as the home page gives it: the original, and the renditions' srcsets when they exist. */
export function heroImageOf(image: { image_key: string; alt: string; renditions: StoredRenditions | null }, storage: ObjectStorage): HeroImage {
  const hero: HeroImage = { image: storage.publicUrl(image.image_key), alt: image.alt };
  const renditions = image.renditions;
  if (!renditions) return hero;
  return {
    ...hero,
    width: renditions.width,
    height: renditions.height,
    sources: renditions.sources.map((source) => ({
      type: source.type,
      srcset: source.files.map((file) => `${storage.publicUrl(file.key)} ${file.width}w`).join(', '),
    })),
  };
}
