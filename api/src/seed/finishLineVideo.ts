import fs from 'node:fs';
import sharp, { type OverlayOptions } from 'sharp';
import { ffmpegPath } from '../media/ffmpeg';
import { spawn } from 'node:child_process';
import { createPrng } from './prng';
import { backgroundSvg, randomLook, runnerSvg } from './scenes';

/**
 * A filmed finish line, made up: runners wearing readable BIB cards cross the frame from left to
 * right, each reaching the finish line (the frame's middle) at a known second of the video. The
 * frames are drawn with the demo's own scenes and encoded by FFmpeg (H.264 MP4). The demo seed films
 * its finish line with it; the tests and `bench:video` make their videos with it.
 */
export interface FinishLineRunner {
  bib: string;
  /** Second of the video at which the runner is at the line. */
  crossAt: number;
}

export interface FinishLineOptions {
  out: string;
  width: number;
  height: number;
  fps: number;
  seconds: number;
  runners: FinishLineRunner[];
  eventName: string;
  eventCode: string;
  seed?: string;
  /** Seconds a runner takes to cross the whole frame (default 3). */
  traverseSeconds?: number;
  /** x264 preset and quality of the camera file (defaults: veryfast, CRF 23). */
  preset?: string;
  crf?: number;
  /** Records this creation_time in the file, like a camera. */
  recordedAt?: Date;
  /** Seconds between key frames (default 2); a long, mostly still recording keeps small with more. */
  keyframeSeconds?: number;
}

const STRIDE_POSES = 6;

export async function renderFinishLineVideo(options: FinishLineOptions): Promise<void> {
  const { width, height, fps } = options;
  const rng = createPrng(options.seed ?? `finish-line:${options.eventCode}`);
  const traverse = options.traverseSeconds ?? 3;
  const background = await sharp(Buffer.from(backgroundSvg(rng, options.eventName, options.eventCode, '#d32f2f', 'city', 1)))
    .resize(width, height, { fit: 'cover' })
    // The finish line: a white band across the road in the frame's middle.
    .composite([{ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect x="${width / 2 - 4}" y="${Math.round(height * 0.55)}" width="8" height="${Math.round(height * 0.45)}" fill="#ffffff"/></svg>`) }])
    .removeAlpha()
    .raw()
    .toBuffer();
  // The runner is drawn about two thirds of the frame tall, as a camera at the line frames them.
  const scale = (height * 0.62) / 410;
  const looks = options.runners.map((runner) => ({ runner, look: randomLook(rng) }));
  const poses = new Map<string, { png: Buffer; width: number; height: number }[]>();
  const posesOf = async (bib: string, look: ReturnType<typeof randomLook>) => {
    let list = poses.get(bib);
    if (!list) {
      list = await Promise.all(
        Array.from({ length: STRIDE_POSES }, async (_, i) => {
          const r = runnerSvg({ ...look, stride: i / STRIDE_POSES }, bib, options.eventCode, scale);
          return { png: await sharp(Buffer.from(r.svg)).png().toBuffer(), width: r.width, height: r.height };
        }),
      );
      poses.set(bib, list);
    }
    return list;
  };

  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${width}x${height}`, '-r', String(fps), '-i', 'pipe:0'];
  args.push('-c:v', 'libx264', '-preset', options.preset ?? 'veryfast', '-crf', String(options.crf ?? 23), '-pix_fmt', 'yuv420p', '-g', String(Math.max(1, Math.round(fps * (options.keyframeSeconds ?? 2)))), '-movflags', '+faststart');
  if (options.recordedAt) args.push('-metadata', `creation_time=${options.recordedAt.toISOString()}`);
  args.push(options.out);
  const child = spawn(ffmpegPath(), args, { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg could not encode the finish-line video: ${stderr.trim()}`))));
  });
  const write = (frame: Buffer) => new Promise<void>((resolve, reject) => (child.stdin.write(frame, (error) => (error ? reject(error) : resolve()))));

  const frames = Math.round(options.seconds * fps);
  const speed = width / traverse; // pixels a second
  for (let f = 0; f < frames; f++) {
    const t = f / fps;
    const overlays: OverlayOptions[] = [];
    for (const { runner, look } of looks) {
      const dt = t - runner.crossAt;
      if (Math.abs(dt) > traverse / 2 + 0.5) continue;
      const list = await posesOf(runner.bib, look);
      const pose = list[f % STRIDE_POSES]!;
      const left = Math.round(width / 2 - pose.width / 2 + dt * speed);
      if (left + pose.width <= 0 || left >= width) continue;
      const top = height - pose.height - Math.round(height * 0.03) + Math.round(3 * Math.sin((f / 3) * Math.PI));
      // sharp wants overlays inside the frame: cut the runner at the frame's edges.
      const cutLeft = Math.max(0, -left);
      const cutRight = Math.max(0, left + pose.width - width);
      const visible = cutLeft || cutRight ? await sharp(pose.png).extract({ left: cutLeft, top: 0, width: pose.width - cutLeft - cutRight, height: pose.height }).toBuffer() : pose.png;
      overlays.push({ input: visible, left: left + cutLeft, top });
    }
    const frame = overlays.length === 0 ? background : await sharp(background, { raw: { width, height, channels: 3 } }).composite(overlays).removeAlpha().raw().toBuffer();
    await write(frame);
  }
  child.stdin.end();
  await done;
  if (!fs.existsSync(options.out)) throw new Error('ffmpeg wrote no finish-line video');
}
