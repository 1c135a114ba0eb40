import { ffmpeg, probeVideo } from '../media/ffmpeg';
import { renderFinishLineVideo } from '../seed/finishLineVideo';

/**
 * A made-up filmed finish line (seed/finishLineVideo.ts) and what FFmpeg says of video files, for
 * trying the Videos screen by hand and for the browser journeys:
 *
 *   tsx src/cli/finishLineVideo.ts render <out.mp4> <seconds> <BIB@second> [...] [--width=1280] [--height=720]
 *       [--fps=2] [--keyframe=10] [--idle=<seconds> [--full-rate=<seconds>]] [--event=MCM26] [--name="..."] [--recorded=<ISO time>]
 *     writes an H.264 MP4 of `seconds` in which each runner is at the finish line at their second
 *   tsx src/cli/finishLineVideo.ts probe <file>
 *     prints ffprobe's reading as JSON (codec, width, height, durationSeconds, hasAudio, recordedAt)
 *   tsx src/cli/finishLineVideo.ts difference <a> <second in a> <b> <second in b> <width> <height>
 *     prints the mean difference (0-255, grey) of a frame of each file, both scaled to width x height
 */
const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const [command, ...rest] = args.filter((a) => !a.startsWith('--'));

async function grey(file: string, second: number, width: number, height: number): Promise<Buffer> {
  const { stdout } = await ffmpeg([
    '-ss',
    String(second),
    '-i',
    file,
    '-frames:v',
    '1',
    '-vf',
    `scale=${width}:${height}`,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'gray',
    'pipe:1',
  ]);
  if (stdout.length !== width * height) throw new Error(`no frame at ${second} s in ${file}`);
  return stdout;
}

if (command === 'render' && rest.length >= 3) {
  const [out, seconds, ...crossings] = rest;
  const runners = crossings.map((c) => {
    const [bib, at] = c.split('@');
    if (!bib || !Number.isFinite(Number(at))) throw new Error(`a runner is BIB@second, got "${c}"`);
    return { bib, crossAt: Number(at) };
  });
  const recorded = option('recorded');
  await renderFinishLineVideo({
    out: out!,
    seconds: Number(seconds),
    width: Number(option('width') ?? 1280),
    height: Number(option('height') ?? 720),
    fps: Number(option('fps') ?? 2),
    keyframeSeconds: Number(option('keyframe') ?? 10),
    runners,
    eventCode: option('event') ?? 'MCM26',
    eventName: option('name') ?? 'Finish line',
    recordedAt: recorded ? new Date(recorded) : undefined,
    idleFrameSeconds: option('idle') ? Number(option('idle')) : undefined,
    fullRateSeconds: option('full-rate') ? Number(option('full-rate')) : undefined,
  });
  console.log(out);
} else if (command === 'probe' && rest.length === 1) {
  console.log(JSON.stringify(await probeVideo(rest[0]!)));
} else if (command === 'difference' && rest.length === 6) {
  const [a, atA, b, atB, width, height] = rest;
  const [one, two] = [await grey(a!, Number(atA), Number(width), Number(height)), await grey(b!, Number(atB), Number(width), Number(height))];
  console.log((one.reduce((sum, v, i) => sum + Math.abs(v - two[i]!), 0) / one.length).toFixed(2));
} else {
  console.error(
    'usage: tsx src/cli/finishLineVideo.ts render <out.mp4> <seconds> <BIB@second> [...] | probe <file> | difference <a> <second> <b> <second> <width> <height>',
  );
  process.exit(2);
}
