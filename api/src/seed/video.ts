import sharp from 'sharp';
import HME from 'h264-mp4-encoder';
import type { Prng } from './prng';
import { randomLook, runnerSvg } from './scenes';
import { rasterise, watermarkPng, type RawImage } from './render';

export const VIDEO_WIDTH = 640;
export const VIDEO_HEIGHT = 360;
const FRAME_RATE = 12;
const FRAMES = 30; // 2.5 seconds
const STRIDE_FRAMES = 6;

export interface RenderedVideo {
  original: Buffer;
  preview: Buffer;
  /** Poster frame (JPEG) used as the video's thumbnail. */
  thumb: Buffer;
  width: number;
  height: number;
}

/**
 * MP4 headers (mvhd, tkhd, mdhd) carry creation and modification times; zeroing them makes the
 * same frames give the same file, so the seed stays deterministic.
 */
export function clearMp4Timestamps(mp4: Buffer): Buffer {
  // Walk the top-level boxes to the movie header box, then look for the timed headers inside it.
  let offset = 0;
  while (offset + 8 <= mp4.length) {
    const size = mp4.readUInt32BE(offset);
    const type = mp4.toString('latin1', offset + 4, offset + 8);
    if (size < 8) break;
    if (type === 'moov') {
      for (const header of ['mvhd', 'tkhd', 'mdhd']) {
        let at = mp4.indexOf(header, offset + 8, 'latin1');
        while (at !== -1 && at < offset + size) {
          const version = mp4[at + 4];
          const width = version === 1 ? 8 : 4;
          mp4.fill(0, at + 8, at + 8 + 2 * width);
          at = mp4.indexOf(header, at + 4, 'latin1');
        }
      }
      break;
    }
    offset += size;
  }
  return mp4;
}

/** Encodes RGBA frames to an H.264 MP4 with the WebAssembly encoder shipped in the npm package. */
async function encodeMp4(frames: Buffer[], quality: number): Promise<Buffer> {
  const encoder = await HME.createH264MP4Encoder();
  try {
    encoder.width = VIDEO_WIDTH;
    encoder.height = VIDEO_HEIGHT;
    encoder.frameRate = FRAME_RATE;
    encoder.quantizationParameter = quality;
    encoder.speed = 10;
    encoder.initialize();
    for (const frame of frames) encoder.addFrameRgba(frame);
    encoder.finalize();
    return clearMp4Timestamps(Buffer.from(encoder.FS.readFile(encoder.outputFilename)));
  } finally {
    encoder.delete();
  }
}

/**
 * A short clip of a runner with a readable BIB crossing the scene: the clean original, a
 * watermarked preview and a poster frame.
 */
export async function renderRunnerClip(backgroundSvg: string, rng: Prng, bib: string, eventCode: string): Promise<RenderedVideo> {
  const background: RawImage = await rasterise(backgroundSvg, VIDEO_WIDTH, VIDEO_HEIGHT);
  const watermark = await watermarkPng(VIDEO_WIDTH, VIDEO_HEIGHT);
  const look = randomLook(rng);
  const startX = rng.int(0, 100);
  const travel = rng.int(200, 340);
  const scale = 0.78;
  // One stride takes 6 frames: draw those 6 poses once and reuse them.
  const poses = await Promise.all(
    Array.from({ length: STRIDE_FRAMES }, async (_, i) => {
      const runner = runnerSvg({ ...look, stride: i / STRIDE_FRAMES }, bib, eventCode, scale);
      return { png: await sharp(Buffer.from(runner.svg)).png().toBuffer(), height: runner.height };
    }),
  );
  const cleanFrames: Buffer[] = [];
  const markedFrames: Buffer[] = [];
  for (let f = 0; f < FRAMES; f++) {
    const pose = poses[f % STRIDE_FRAMES];
    const left = Math.round(startX + (travel * f) / FRAMES);
    const top = VIDEO_HEIGHT - pose.height - 6 + Math.round(3 * Math.sin((f / 3) * Math.PI));
    const base = sharp(background.data, { raw: { width: background.width, height: background.height, channels: background.channels } });
    const frame = await base
      .composite([{ input: pose.png, left, top }])
      .ensureAlpha()
      .raw()
      .toBuffer();
    cleanFrames.push(frame);
    markedFrames.push(
      await sharp(frame, { raw: { width: VIDEO_WIDTH, height: VIDEO_HEIGHT, channels: 4 } })
        .composite([{ input: watermark }])
        .raw()
        .toBuffer(),
    );
  }
  const poster = markedFrames[Math.floor(FRAMES / 2)];
  const [original, preview, thumb] = await Promise.all([
    encodeMp4(cleanFrames, 24),
    encodeMp4(markedFrames, 30),
    sharp(poster, { raw: { width: VIDEO_WIDTH, height: VIDEO_HEIGHT, channels: 4 } }).removeAlpha().resize(400).jpeg({ quality: 72 }).toBuffer(),
  ]);
  return { original, preview, thumb, width: VIDEO_WIDTH, height: VIDEO_HEIGHT };
}
