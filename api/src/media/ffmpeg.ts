import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { modelSettings } from '../config/config';

/**
 * FFmpeg and ffprobe, the static Linux x64 builds shipped inside the npm packages
 * `@ffmpeg-installer/linux-x64` and `@ffprobe-installer/linux-x64` (docs/videos.md says why):
 * `pnpm install` brings them, nothing is downloaded at run time. FFMPEG_PATH / FFPROBE_PATH name
 * other binaries (a newer system FFmpeg, another platform).
 */
const require = createRequire(import.meta.url);
const packaged = (pkg: string, binary: string) => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), binary);
export const ffmpegPath = () => modelSettings().ffmpegPath ?? packaged('@ffmpeg-installer/linux-x64', 'ffmpeg');
export const ffprobePath = () => modelSettings().ffprobePath ?? packaged('@ffprobe-installer/linux-x64', 'ffprobe');

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

export class FfmpegError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    readonly code: number | null,
  ) {
    super(message);
  }
}

/** Runs a binary to its end; rejects with its last error lines when it exits non-zero. */
export function run(binary: string, args: string[], options: { input?: NodeJS.ReadableStream | Buffer; timeoutMs?: number } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
      if (err.length > 64_000) err = err.slice(-32_000);
    });
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : null;
    child.on('error', (error) => reject(error));
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      if (code === 0) resolve({ stdout: Buffer.concat(out), stderr: err });
      else reject(new FfmpegError(`${path.basename(binary)} exited with ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`, err, code));
    });
    child.stdin.on('error', () => undefined);
    if (Buffer.isBuffer(options.input)) child.stdin.end(options.input);
    else if (options.input) options.input.pipe(child.stdin);
    else child.stdin.end();
  });
}

export const ffmpeg = (args: string[], options?: Parameters<typeof run>[2]) =>
  run(ffmpegPath(), ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args], options);

export interface VideoProbe {
  formatName: string;
  durationSeconds: number;
  width: number;
  height: number;
  frameRate: number;
  /** ffprobe's name of the video codec; null when it does not know it. */
  codec: string | null;
  hasAudio: boolean;
  /** The container's creation_time, when it has one. */
  recordedAt: Date | null;
}

interface ProbeJson {
  format?: { format_name?: string; duration?: string; tags?: Record<string, string> };
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    avg_frame_rate?: string;
    r_frame_rate?: string;
    duration?: string;
    tags?: Record<string, string>;
  }[];
}

/** What ffprobe says of a file; null when it cannot read it as a media file at all. */
export async function probeVideo(file: string): Promise<VideoProbe | null> {
  let json: ProbeJson;
  try {
    const { stdout } = await run(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], { timeoutMs: 60_000 });
    json = JSON.parse(stdout.toString('utf8')) as ProbeJson;
  } catch {
    return null;
  }
  const video = json.streams?.find((s) => s.codec_type === 'video');
  if (!json.format || !video) return null;
  const rate = (text: string | undefined) => {
    const [n, d] = (text ?? '0/1').split('/').map(Number);
    return d ? n! / d : 0;
  };
  const created = json.format.tags?.creation_time ?? video.tags?.creation_time;
  const recordedAt = created ? new Date(created) : null;
  return {
    formatName: json.format.format_name ?? '',
    durationSeconds: Number(json.format.duration ?? video.duration ?? 0) || 0,
    width: video.width ?? 0,
    height: video.height ?? 0,
    frameRate: rate(video.avg_frame_rate) || rate(video.r_frame_rate),
    codec: video.codec_name && video.codec_name !== 'none' ? video.codec_name : null,
    hasAudio: Boolean(json.streams?.some((s) => s.codec_type === 'audio')),
    recordedAt: recordedAt && !Number.isNaN(recordedAt.getTime()) && recordedAt.getUTCFullYear() > 1970 ? recordedAt : null,
  };
}

/**
 * Decodes `seconds` from `from` and reports the first decoding error, or null when every frame
 * decoded and there were frames to decode. A file cut short has no frames where its data stops; a
 * codec this FFmpeg has no decoder for fails at once.
 */
export async function decodeErrors(file: string, from: number, seconds: number): Promise<string | null> {
  try {
    const { stdout, stderr } = await run(
      ffmpegPath(),
      ['-hide_banner', '-nostdin', '-v', 'error', '-ss', from.toFixed(3), '-i', file, '-t', seconds.toFixed(3), '-map', '0:v:0', '-f', 'framecrc', '-'],
      { timeoutMs: 120_000 },
    );
    if (stderr.trim() !== '') return stderr.trim();
    const frames = stdout
      .toString('utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#')).length;
    return frames > 0 ? null : `no frames between ${from.toFixed(1)} s and ${(from + seconds).toFixed(1)} s`;
  } catch (error) {
    return error instanceof FfmpegError ? error.stderr.trim() || error.message : String(error);
  }
}

/**
 * Whether the file's top-level ISO media boxes (ftyp, moov, mdat, ...) all end inside it: a
 * recording cut short ends in the middle of one. Returns false for a box that runs past the end.
 */
export async function boxesComplete(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const head = Buffer.alloc(16);
    let offset = 0;
    while (offset < size) {
      const { bytesRead } = await handle.read(head, 0, 16, offset);
      if (bytesRead < 8) return false;
      let boxSize = head.readUInt32BE(0);
      if (boxSize === 1) {
        if (bytesRead < 16) return false;
        boxSize = Number(head.readBigUInt64BE(8));
      } else if (boxSize === 0) {
        return true; // the last box runs to the end of the file
      }
      if (boxSize < 8 || offset + boxSize > size) return false;
      offset += boxSize;
    }
    return true;
  } finally {
    await handle.close();
  }
}

/** One frame at `atSecond`, `width` pixels wide, as a JPEG. */
export async function frameAt(file: string, atSecond: number, width?: number): Promise<Buffer> {
  const { stdout } = await ffmpeg(
    [
      '-ss',
      atSecond.toFixed(3),
      '-i',
      file,
      '-frames:v',
      '1',
      ...(width ? ['-vf', `scale=${width}:-2`] : []),
      '-q:v',
      '2',
      '-f',
      'image2',
      '-c:v',
      'mjpeg',
      'pipe:1',
    ],
    { timeoutMs: 60_000 },
  );
  if (stdout.length === 0) throw new Error(`no frame at ${atSecond.toFixed(2)} s`);
  return stdout;
}
