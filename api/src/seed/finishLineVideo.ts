import fs from 'node:fs';
import sharp from 'sharp';
import { ffmpegPath } from '../media/ffmpeg';
import { spawn } from 'node:child_process';
import { createPrng } from './prng';
import { backgroundSvg, randomLook, runnerSvg } from './scenes';
import type { SceneKind } from './demoData';

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
  /** The event's colour and scene behind the line (defaults: red, a city). */
  colour?: string;
  scene?: SceneKind;
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
  /**
   * Variable frame rate: frames at `fps` only while a runner is in the picture, one every this many
   * seconds while the line is empty (as phones and motion-triggered cameras record). An hour and a
   * half of finish line then costs seconds to draw; unset, every frame is drawn at `fps`.
   */
  idleFrameSeconds?: number;
  /** With `idleFrameSeconds`: seconds each side of a crossing drawn at `fps` (default: while the runner is in the picture). */
  fullRateSeconds?: number;
}

const STRIDE_POSES = 6;

export async function renderFinishLineVideo(options: FinishLineOptions): Promise<void> {
  const { width, height, fps } = options;
  const rng = createPrng(options.seed ?? `finish-line:${options.eventCode}`);
  const traverse = options.traverseSeconds ?? 3;
  const background = await sharp(Buffer.from(backgroundSvg(rng, options.eventName, options.eventCode, options.colour ?? '#d32f2f', options.scene ?? 'city', 1)))
    .resize(width, height, { fit: 'cover' })
    // The finish line: a white band across the road in the frame's middle.
    .composite([
      {
        input: Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect x="${width / 2 - 4}" y="${Math.round(height * 0.55)}" width="8" height="${Math.round(height * 0.45)}" fill="#ffffff"/></svg>`,
        ),
      },
    ])
    .removeAlpha()
    .raw()
    .toBuffer();
  // The runner is drawn about two thirds of the frame tall, as a camera at the line frames them.
  const scale = (height * 0.62) / 410;
  const looks = options.runners.map((runner) => ({ runner, look: randomLook(rng) }));
  // Each runner's stride poses, rasterised once to RGBA and laid over the frame by hand (cheaper per frame than an image library's composite).
  const poses = new Map<string, { rgba: Buffer; width: number; height: number }[]>();
  const posesOf = async (bib: string, look: ReturnType<typeof randomLook>) => {
    let list = poses.get(bib);
    if (!list) {
      list = await Promise.all(
        Array.from({ length: STRIDE_POSES }, async (_, i) => {
          const r = runnerSvg({ ...look, stride: i / STRIDE_POSES }, bib, options.eventCode, scale);
          const { data, info } = await sharp(Buffer.from(r.svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
          return { rgba: data, width: info.width, height: info.height };
        }),
      );
      poses.set(bib, list);
    }
    return list;
  };

  const speed = width / traverse; // pixels a second
  /** The frame at second `t` (frame number `f` picks the stride), with every runner in the picture then; the empty line is `background` itself. */
  const frameAt = async (t: number, f: number): Promise<Buffer> => {
    let frame: Buffer | null = null;
    for (const { runner, look } of looks) {
      const dt = t - runner.crossAt;
      if (Math.abs(dt) > traverse / 2 + 0.5) continue;
      const pose = (await posesOf(runner.bib, look))[f % STRIDE_POSES]!;
      const left = Math.round(width / 2 - pose.width / 2 + dt * speed);
      if (left + pose.width <= 0 || left >= width) continue;
      const top = height - pose.height - Math.round(height * 0.03) + Math.round(3 * Math.sin((f / 3) * Math.PI));
      frame ??= Buffer.from(background);
      drawOver(frame, width, height, pose, left, top);
    }
    return frame ?? background;
  };
  const encoding = [
    '-c:v',
    'libx264',
    '-preset',
    options.preset ?? 'veryfast',
    '-crf',
    String(options.crf ?? 23),
    '-pix_fmt',
    'yuv420p',
    '-g',
    String(Math.max(1, Math.round(fps * (options.keyframeSeconds ?? 2)))),
    '-movflags',
    '+faststart',
  ];
  if (options.recordedAt) encoding.push('-metadata', `creation_time=${options.recordedAt.toISOString()}`);
  const segments = options.idleFrameSeconds ? sparseSegments(options, traverse, fps) : [{ start: 0, step: 1, count: Math.round(options.seconds * fps) }];
  await encodeFrames(options, frameAt, encoding, { width, height, fps }, segments);
  if (!fs.existsSync(options.out)) throw new Error('ffmpeg wrote no finish-line video');
}

type DrawFrame = (t: number, f: number) => Promise<Buffer>;

/** Lays an RGBA picture over an RGB frame at (left, top), alpha-blended, cut at the frame's edges. */
function drawOver(frame: Buffer, width: number, height: number, picture: { rgba: Buffer; width: number; height: number }, left: number, top: number): void {
  const fromX = Math.max(0, -left);
  const toX = Math.min(picture.width, width - left);
  for (let y = Math.max(0, -top); y < Math.min(picture.height, height - top); y++) {
    let source = (y * picture.width + fromX) * 4;
    let target = ((top + y) * width + left + fromX) * 3;
    for (let x = fromX; x < toX; x++, source += 4, target += 3) {
      const alpha = picture.rgba[source + 3]!;
      if (alpha === 0) continue;
      for (let c = 0; c < 3; c++) frame[target + c] = (picture.rgba[source + c]! * alpha + frame[target + c]! * (255 - alpha) + 127) / 255;
    }
  }
}

/** Frames from tick `start` (ticks of 1/fps s), `count` of them `step` ticks apart. */
interface FrameSegment {
  start: number;
  step: number;
  count: number;
}

/**
 * Variable frame rate: full rate only around each crossing and one frame every `idleFrameSeconds`
 * in between, so a long empty stretch costs a few frames.
 */
function sparseSegments(options: FinishLineOptions, traverse: number, fps: number): FrameSegment[] {
  const totalTicks = Math.round(options.seconds * fps);
  const idleTicks = Math.max(1, Math.round(options.idleFrameSeconds! * fps));
  const around = options.fullRateSeconds ?? traverse / 2 + 0.5;
  // Full-rate stretches in ticks, merged where they overlap.
  const busy: [number, number][] = [];
  for (const [from, to] of options.runners
    .map((r) => [Math.max(0, Math.floor((r.crossAt - around) * fps)), Math.min(totalTicks, Math.ceil((r.crossAt + around) * fps))] as [number, number])
    .sort((a, b) => a[0] - b[0])) {
    const last = busy[busy.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else if (to > from) busy.push([from, to]);
  }
  const segments: FrameSegment[] = [];
  let tick = 0;
  for (const [from, to] of [...busy, [totalTicks, totalTicks] as [number, number]]) {
    if (from > tick) segments.push({ start: tick, step: idleTicks, count: Math.ceil((from - tick) / idleTicks) });
    if (to > from) segments.push({ start: from, step: 1, count: to - from });
    tick = Math.max(tick, to);
  }
  // The last frame sits on the video's last tick, so the file lasts `seconds`.
  segments.push({ start: totalTicks - 1, step: 1, count: 1 });
  return segments;
}

/**
 * Pipes the frames raw to FFmpeg. Frames not one tick apart get their times from setpts: one
 * piecewise-linear expression over the frame number, on the 1/fps grid (no B-frames, so the file's
 * duration is its last frame's time).
 */
async function encodeFrames(
  options: FinishLineOptions,
  frameAt: DrawFrame,
  encoding: string[],
  size: { width: number; height: number; fps: number },
  segments: FrameSegment[],
): Promise<void> {
  const args = ['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${size.width}x${size.height}`, '-r', String(size.fps), '-i', 'pipe:0'];
  if (segments.some((segment) => segment.step !== 1)) {
    let first = 0;
    const pieces: string[] = [];
    for (const segment of segments) {
      pieces.push(`if(lt(N,${first + segment.count}),${segment.start}+(N-${first})*${segment.step},`);
      first += segment.count;
    }
    args.push(
      '-vf',
      `setpts='${pieces.join('')}NAN${')'.repeat(pieces.length)}'`,
      '-vsync',
      'vfr',
      '-bf',
      '0',
      '-video_track_timescale',
      String(size.fps * 1000),
    );
    // Key frames by the clock, as a camera makes them, not by frame count (a frame count spans minutes of empty line).
    args.push('-force_key_frames', `expr:gte(t,n_forced*${options.keyframeSeconds ?? 2})`);
  }
  const child = spawn(ffmpegPath(), ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args, ...encoding, options.out], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg could not encode the finish-line video: ${stderr.trim()}`))));
  });
  const write = (frame: Buffer) => new Promise<void>((resolve, reject) => child.stdin.write(frame, (error) => (error ? reject(error) : resolve())));
  for (const segment of segments) {
    for (let i = 0; i < segment.count; i++) {
      const tick = segment.start + i * segment.step;
      await write(await frameAt(tick / size.fps, tick));
    }
  }
  child.stdin.end();
  await done;
}
