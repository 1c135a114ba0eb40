import sharp from 'sharp';
import { createPrng } from './prng';
import { backgroundSvg, PHOTO_HEIGHT, PHOTO_WIDTH, randomLook, runnerSvg } from './scenes';
import { compose, rasterise, type RawImage } from './render';

/**
 * A photo as a photographer's camera delivers it: a race scene with one runner whose BIB is
 * readable (or none), at camera size with sensor grain, so its JPEG weighs what the partner terms
 * ask for (3-4 MB at the default size), optionally stored sideways with an EXIF orientation as a
 * camera held upright does. Used by the demo seed's uploads, the supply tests and the upload benchmark.
 */
export interface CameraPhotoOptions {
  /** The runner's BIB; null: a runner whose card cannot be read. */
  bib: string | null;
  /** Varies the runner and the grain. */
  seed: string;
  eventCode?: string;
  eventName?: string;
  /** Long side in pixels (default 3200: with the grain about 3-4 MB). */
  width?: number;
  /** Sensor noise amplitude 0..60 (default 18). */
  grain?: number;
  /** 6: the pixels are stored turned 90 degrees anticlockwise with EXIF orientation 6 (view turned clockwise). */
  orientation?: 1 | 6;
  quality?: number;
  /**
   * What a real camera writes beside the pixels: make, model, body serial number, owner and artist,
   * copyright, capture time and the GPS position (a spot in Mumbai), as EXIF, plus an XMP creator.
   * The shop stores and delivers none of it but the capture time (media/jpegMetadata.ts).
   */
  cameraMetadata?: boolean;
}

/** The metadata cameraPhoto writes with cameraMetadata: true. */
export const CAMERA_METADATA = {
  make: 'Canon',
  model: 'EOS R6',
  serial: '032021001234',
  artist: 'Kabir Shah',
  capturedAt: '2026:01:18 06:45:12',
  offset: '+05:30',
  latitude: 19.0176,
  longitude: 72.8562,
} as const;

const degrees = (value: number) => {
  const d = Math.floor(value);
  const m = Math.floor((value - d) * 60);
  const s = Math.round(((value - d) * 60 - m) * 60 * 100);
  return `${d}/1 ${m}/1 ${s}/100`;
};

/** The camera's own metadata on an encoded JPEG (sharp keeps the pixels' orientation tag and ICC). */
async function withCameraMetadata(jpeg: Buffer, orientation: number, quality: number): Promise<Buffer> {
  const m = CAMERA_METADATA;
  return sharp(jpeg)
    .withExif({
      IFD0: { Make: m.make, Model: m.model, Artist: m.artist, Copyright: `(c) ${m.artist}`, Orientation: String(orientation) },
      IFD2: { DateTimeOriginal: m.capturedAt, OffsetTimeOriginal: m.offset, BodySerialNumber: m.serial, CameraOwnerName: m.artist },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: degrees(m.latitude), GPSLongitudeRef: 'E', GPSLongitude: degrees(m.longitude) },
    })
    .withXmp(
      `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>${m.artist}</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>`,
    )
    .jpeg({ quality })
    .toBuffer();
}

const backgrounds = new Map<string, Promise<RawImage>>();

export async function cameraPhoto(options: CameraPhotoOptions): Promise<Buffer> {
  const eventCode = options.eventCode ?? 'DEMO';
  const eventName = options.eventName ?? 'Demo City Marathon 2026';
  const rng = createPrng(options.seed);
  const bgKey = `${eventCode}/${eventName}`;
  let background = backgrounds.get(bgKey);
  if (!background) {
    background = rasterise(backgroundSvg(createPrng(`${bgKey}/bg`), eventName, eventCode, '#1d4ed8', 'city', 0));
    backgrounds.set(bgKey, background);
  }
  const runner = runnerSvg(randomLook(rng), options.bib, eventCode, rng.float(1.9, 2.3));
  const scene = await compose(await background, [
    { svg: runner.svg, left: rng.int(140, PHOTO_WIDTH - runner.width - 140), top: Math.max(0, PHOTO_HEIGHT - runner.height - rng.int(5, 40)) },
  ]);
  const width = options.width ?? 3200;
  const height = Math.round((width * PHOTO_HEIGHT) / PHOTO_WIDTH);
  let image = sharp(scene.data, { raw: { width: scene.width, height: scene.height, channels: scene.channels } }).resize(width, height);
  const grain = options.grain ?? 18;
  if (grain > 0) {
    // Grain as a camera sensor makes it: random per pixel, so the JPEG cannot shrink it away.
    const noise = Buffer.alloc(width * height);
    let state = (rng.int(1, 2 ** 30) | 1) >>> 0;
    for (let i = 0; i < noise.length; i++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      noise[i] = 128 + (((state >>> 0) % (2 * grain + 1)) - grain);
    }
    const grainLayer = await sharp(noise, { raw: { width, height, channels: 1 } })
      .toColourspace('srgb')
      .png()
      .toBuffer();
    image = sharp(await image.raw().toBuffer(), { raw: { width, height, channels: scene.channels } }).composite([{ input: grainLayer, blend: 'overlay' }]);
  }
  let jpeg: Buffer = await image.jpeg({ quality: options.quality ?? 90 }).toBuffer();
  if (options.orientation === 6) {
    // Stored turned a quarter anticlockwise; the EXIF tag tells viewers to turn it back.
    jpeg = await sharp(jpeg)
      .rotate(-90)
      .withMetadata({ orientation: 6 })
      .jpeg({ quality: options.quality ?? 90 })
      .toBuffer();
  }
  if (options.cameraMetadata) jpeg = await withCameraMetadata(jpeg, options.orientation ?? 1, options.quality ?? 90);
  return jpeg;
}
