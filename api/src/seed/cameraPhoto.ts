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
    const grainLayer = await sharp(noise, { raw: { width, height, channels: 1 } }).toColourspace('srgb').png().toBuffer();
    image = sharp(await image.raw().toBuffer(), { raw: { width, height, channels: scene.channels } }).composite([{ input: grainLayer, blend: 'overlay' }]);
  }
  let jpeg = await image.jpeg({ quality: options.quality ?? 90 }).toBuffer();
  if (options.orientation === 6) {
    // Stored turned a quarter anticlockwise; the EXIF tag tells viewers to turn it back.
    jpeg = await sharp(jpeg).rotate(-90).withMetadata({ orientation: 6 }).jpeg({ quality: options.quality ?? 90 }).toBuffer();
  }
  return jpeg;
}
