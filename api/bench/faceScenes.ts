import fs from 'node:fs';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { REPO_ROOT } from '../src/config/config';
import type { Db } from '../src/db/db';
import type { ObjectStorage } from '../src/storage/storage';

/**
 * Race-photo scenes built around real face photos, shared by the face quality test and the benchmark.
 * The face set (people x photos, small greyscale portraits) sits outside the repository at
 * ../shared/data/faces and is never committed; callers skip when it is absent.
 */
/** The face set, outside the repository: FACES_DIR, else ../shared/data/faces beside it. */
export const FACES_DIR = process.env.FACES_DIR ? path.resolve(process.env.FACES_DIR) : path.resolve(REPO_ROOT, '../shared/data/faces');

export interface FaceImage {
  person: string;
  file: string;
  image: Buffer;
}

export function loadFaceSet(dir = FACES_DIR): FaceImage[] | null {
  if (!fs.existsSync(dir)) return null;
  const faces: FaceImage[] = [];
  for (const person of fs.readdirSync(dir).sort()) {
    const personDir = path.join(dir, person);
    if (!fs.statSync(personDir).isDirectory()) continue;
    for (const file of fs.readdirSync(personDir).sort()) {
      if (/\.(png|jpe?g)$/i.test(file)) faces.push({ person, file, image: fs.readFileSync(path.join(personDir, file)) });
    }
  }
  return faces.length > 0 ? faces : null;
}

/** A small deterministic random generator, so every run builds the same scenes. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A race scene: sky, road and a crowd line, with each given face on a runner's body (a coloured
 * vest with a BIB-like patch) at its own size and place. Returns a JPEG like a camera would.
 */
export async function renderScene(faces: Buffer[], random: () => number, width = 960, height = 600): Promise<Buffer> {
  const sky = [110 + Math.floor(random() * 60), 150 + Math.floor(random() * 50), 200 + Math.floor(random() * 40)];
  const svgParts = [
    `<rect width="${width}" height="${height}" fill="rgb(${sky.join(',')})"/>`,
    `<rect y="${height * 0.55}" width="${width}" height="${height * 0.45}" fill="rgb(${70 + Math.floor(random() * 30)},70,75)"/>`,
    `<rect y="${height * 0.5}" width="${width}" height="${height * 0.07}" fill="rgb(40,${100 + Math.floor(random() * 60)},50)"/>`,
  ];
  const slot = width / faces.length;
  const layers: OverlayOptions[] = [];
  for (let i = 0; i < faces.length; i += 1) {
    const size = 150 + Math.floor(random() * 50);
    const left = Math.floor(slot * i + (slot - size) * (0.3 + random() * 0.4));
    const top = Math.floor(height * 0.12 + random() * height * 0.1);
    const vest = [Math.floor(random() * 255), Math.floor(random() * 255), Math.floor(random() * 255)];
    svgParts.push(
      `<rect x="${left - size * 0.15}" y="${top + size * 0.95}" width="${size * 1.3}" height="${height - top - size}" rx="30" fill="rgb(${vest.join(',')})"/>`,
      `<rect x="${left + size * 0.2}" y="${top + size * 1.25}" width="${size * 0.6}" height="${size * 0.35}" fill="white"/>`,
    );
    layers.push({ input: await sharp(faces[i]!).resize(size, size).toBuffer(), left, top });
  }
  const background = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${svgParts.join('')}</svg>`);
  return sharp(background).composite(layers).jpeg({ quality: 88 }).toBuffer();
}

/** A selfie made from one face photo: the portrait on a plain frame, as a phone would show it. */
export async function renderSelfie(face: Buffer, format: 'png' | 'jpeg' = 'jpeg'): Promise<Buffer> {
  const framed = sharp(face)
    .resize(220, 220)
    .extend({ top: 70, bottom: 70, left: 50, right: 50, background: { r: 205, g: 200, b: 190 } });
  return format === 'png' ? framed.png().toBuffer() : framed.jpeg({ quality: 90 }).toBuffer();
}

/** Creates an event with selfie search on; returns its id. */
export async function createSelfieEvent(db: Db, name: string): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `insert into events (name, from_date, to_date, issearchable, selfiesearch, showunlabeled)
     values ($1, date '2026-02-01', date '2026-02-01', true, true, true) returning id`,
    [name],
  );
  return rows[0]!.id;
}

/** Stores an event photo (original, preview and thumbnail) and its photos row; returns the photo id. */
export async function addEventPhoto(
  db: Db,
  storage: ObjectStorage,
  eventId: number,
  imageId: string,
  jpeg: Buffer,
  bib: string | null = null,
): Promise<number> {
  const original = `originals/${eventId}/${imageId}.jpg`;
  const preview = `previews/${eventId}/${imageId}.jpg`;
  const thumb = `thumbs/${eventId}/${imageId}.jpg`;
  const meta = await sharp(jpeg).metadata();
  await storage.put(original, jpeg, 'image/jpeg');
  await storage.put(preview, await sharp(jpeg).resize(640).jpeg().toBuffer(), 'image/jpeg');
  await storage.put(thumb, await sharp(jpeg).resize(240).jpeg().toBuffer(), 'image/jpeg');
  const rows = await db.query<{ id: number }>(
    `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height)
     values ($1, $2, 'image', $3, $4, $5, $6, $7) returning id`,
    [eventId, imageId, original, preview, thumb, meta.width ?? 0, meta.height ?? 0],
  );
  const photoId = rows[0]!.id;
  if (bib !== null) await db.query(`insert into photo_bibs (photo_id, event_id, bib_number) values ($1, $2, $3)`, [photoId, eventId, bib]);
  return photoId;
}
