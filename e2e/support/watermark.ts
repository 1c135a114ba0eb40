import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page, Response } from '@playwright/test';
import { DATA_DIR } from './system';

/**
 * The watermark checked on the bytes a visitor's browser received, not on the markup: every image
 * response from the media route is kept, and each photo is compared with its clean original in the
 * running system's object folder (the API's local storage, DATA_DIR/objects). The mark is white text
 * at 42% opacity laid over the picture, so a marked copy is clearly brighter than the original in a
 * good share of its pixels; a copy without it differs from the original by JPEG noise only.
 */
const OBJECTS_DIR = path.join(DATA_DIR, 'objects');
const MEDIA_PREFIX = '/media/';
/** A pixel counts as under the mark when it is this much brighter (0-255) than the original's. */
const BRIGHTER_BY = 24;
/**
 * The share of such pixels above which a copy carries the mark. Measured on the demo photos: marked
 * thumbnails and previews 0.06-0.08 (the journey logs each), the same photos resized and saved as
 * JPEG without the mark 0.000.
 */
export const MARKED_SHARE = 0.02;

export interface ReceivedImage {
  key: string;
  /** null when the browser no longer held the body (reported as unread: a check that did not happen). */
  body: Promise<Buffer | null>;
}

/** Starts keeping every image the page receives from the media route; read the list at the end. */
export function keepReceivedImages(page: Page): ReceivedImage[] {
  const received: ReceivedImage[] = [];
  page.on('response', (response: Response) => {
    if (response.request().resourceType() !== 'image') return;
    const { pathname } = new URL(response.url());
    if (!pathname.startsWith(MEDIA_PREFIX) || response.status() !== 200) return;
    const key = decodeURIComponent(pathname.slice(MEDIA_PREFIX.length));
    if (received.some((image) => image.key === key)) return;
    received.push({ key, body: response.body().catch(() => null) });
  });
  return received;
}

export interface WatermarkReport {
  /** key and share of brightened pixels of every photo checked. */
  checked: Array<{ key: string; share: number }>;
  /** Site pictures (logos, hero, print products): public/, never a runner's photo. */
  siteImages: string[];
  /** Photos whose original is a video clip (its poster frame): nothing clean to compare with. */
  videoPosters: string[];
  /** Images whose bytes could not be read back from the browser. */
  unread: string[];
}

/** The original a preview or thumbnail was made from (same folder and name under originals/), or null. */
function originalOf(key: string): string | null {
  const rest = key.replace(/^(previews|thumbs)\//, '');
  if (rest === key) return null;
  const file = path.join(OBJECTS_DIR, 'originals', rest);
  return fs.existsSync(file) ? file : null;
}

/** Measures every received photo against its original, in a page of its own (decoding is the browser's). */
export async function watermarkReport(browser: Browser, received: ReceivedImage[]): Promise<WatermarkReport> {
  const report: WatermarkReport = { checked: [], siteImages: [], videoPosters: [], unread: [] };
  const context = await browser.newContext();
  const lab = await context.newPage();
  try {
    for (const image of received) {
      if (image.key.startsWith('public/')) {
        report.siteImages.push(image.key);
        continue;
      }
      const original = originalOf(image.key);
      if (!original && fs.existsSync(path.join(OBJECTS_DIR, 'originals', image.key.replace(/^(previews|thumbs)\//, '').replace(/\.jpg$/, '.mp4')))) {
        report.videoPosters.push(image.key);
        continue;
      }
      const body = await image.body;
      if (!body) {
        report.unread.push(image.key);
        continue;
      }
      // Anything else must be a photo with its original (an original itself, or an unknown key, measures as unmarked).
      const share = original ? await brightenedShare(lab, body, fs.readFileSync(original)) : 0;
      report.checked.push({ key: image.key, share });
    }
  } finally {
    await context.close();
  }
  return report;
}

/** The share of the received picture's pixels clearly brighter than the original's, drawn at the received size. */
function brightenedShare(lab: Page, received: Buffer, original: Buffer): Promise<number> {
  return lab.evaluate(
    async ({ receivedBase64, originalBase64, brighterBy }) => {
      const decode = (base64: string) => createImageBitmap(new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))]));
      const [copy, clean] = await Promise.all([decode(receivedBase64), decode(originalBase64)]);
      const pixels = (bitmap: ImageBitmap) => {
        const canvas = new OffscreenCanvas(copy.width, copy.height);
        const context = canvas.getContext('2d')!;
        context.imageSmoothingQuality = 'high';
        context.drawImage(bitmap, 0, 0, copy.width, copy.height);
        return context.getImageData(0, 0, copy.width, copy.height).data;
      };
      const a = pixels(copy);
      const b = pixels(clean);
      const luma = (d: Uint8ClampedArray, i: number) => 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;
      let brighter = 0;
      for (let i = 0; i < a.length; i += 4) if (luma(a, i) - luma(b, i) > brighterBy) brighter++;
      return brighter / (a.length / 4);
    },
    { receivedBase64: received.toString('base64'), originalBase64: original.toString('base64'), brighterBy: BRIGHTER_BY },
  );
}
