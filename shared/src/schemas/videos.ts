import { mixed, number, object, string, type InferType } from 'yup';
import { chosenId } from './fields';
import { CLIP_MAX_SIDE_SECONDS, VIDEO_UPLOAD_MAX_BYTES, VIDEO_UPLOAD_MIN_BYTES } from '../types/videos';

/** What a videographer reads when a finish-line video or its clock is refused (docs/videos.md). */
export const VIDEO_MESSAGES = {
  chooseEvent: 'Please choose an event.',
  notVideo: 'Only MP4 or MOV videos can be uploaded.',
  tooLarge: `This video is larger than ${VIDEO_UPLOAD_MAX_BYTES / 1024 ** 3} GB. Please split the recording.`,
  tooSmall: 'This file is too small to be a finish-line video.',
  corrupt: 'This video is damaged or cut short: it cannot be read to its end. Please upload the whole file again.',
  codec: 'This video is in a format we cannot decode. Please export it as H.264 MP4 and upload it again.',
  noFinishers: 'This event has no participants with an official finish time yet: import the results before setting the clock.',
  notYourVideo: 'This video is not one of yours.',
  clockFormat: 'Enter the race clock as h:mm:ss.',
  stillCutting: "This video's clips are still being cut. Please set its clock again once they are done.",
  unknownBib: 'No participant with an official finish time has this BIB.',
  frameOutside: 'Choose a moment inside the video.',
  clipLengths: `A clip runs 1 to ${CLIP_MAX_SIDE_SECONDS} seconds before and after the crossing.`,
  notFlagged: 'Only a clip flagged for review can be published this way.',
  sold: 'This clip has been sold and cannot be removed.',
  /** The clock's answer: clips queued, and sold clips of an earlier clock kept. */
  clipsCut: (clips: number, kept: number) =>
    `${clips} clip${clips === 1 ? ' is' : 's are'} being cut.${kept > 0 ? ` ${kept} sold clip${kept === 1 ? ' stays' : 's stay'} as ${kept === 1 ? 'it was' : 'they were'}.` : ''}`,
} as const;

/** "1:02:03", "62:03" or "45" as seconds; NaN when it is none of these. */
export function parseRaceTime(text: string): number {
  const parts = text.trim().split(':');
  if (parts.length > 3 || parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) return Number.NaN;
  return parts.reduce((total, part) => total * 60 + Number(part), 0);
}

/** Seconds as h:mm:ss (tenths when there are any). */
export function formatRaceTime(seconds: number): string {
  const whole = Math.floor(seconds);
  const tenths = Math.round((seconds - whole) * 10);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}${tenths > 0 ? `.${tenths}` : ''}`;
}

/** A file name or type that says MP4 or MOV. */
export function isVideoFile(filename: string, filetype: string): boolean {
  return /^video\/(mp4|quicktime)$/.test(filetype) || ((filetype === '' || filetype === 'application/octet-stream') && /\.(mp4|mov|m4v)$/i.test(filename));
}

const eventId = chosenId(VIDEO_MESSAGES.chooseEvent);
const videoId = chosenId(VIDEO_MESSAGES.notYourVideo);
const second = number().typeError(VIDEO_MESSAGES.frameOutside).min(0, VIDEO_MESSAGES.frameOutside).required(VIDEO_MESSAGES.frameOutside);

/** One finish-line video before it is sent (browser) and at tus creation (server). */
export const uploadVideoSchema = object({
  eventId,
  filename: string().trim().required('The file has no name.').max(255, 'The file name has at most 255 characters.'),
  filetype: string()
    .default('')
    .test('video', VIDEO_MESSAGES.notVideo, (type, context) => isVideoFile(String((context.parent as { filename?: unknown }).filename ?? ''), type ?? '')),
  size: number()
    .typeError(VIDEO_MESSAGES.tooLarge)
    .required(VIDEO_MESSAGES.tooLarge)
    .min(VIDEO_UPLOAD_MIN_BYTES, VIDEO_MESSAGES.tooSmall)
    .max(VIDEO_UPLOAD_MAX_BYTES, VIDEO_MESSAGES.tooLarge),
});

export const setVideoClockSchema = object({
  videoId,
  mode: mixed<'start' | 'frame'>().oneOf(['start', 'frame'], VIDEO_MESSAGES.clockFormat).required(VIDEO_MESSAGES.clockFormat),
  raceTime: string().when('mode', {
    is: 'start',
    then: (s) => s.required(VIDEO_MESSAGES.clockFormat).test('clock', VIDEO_MESSAGES.clockFormat, (v) => Number.isFinite(parseRaceTime(v ?? ''))),
  }),
  atSecond: number().when('mode', { is: 'frame', then: () => second }),
  bibNumber: string()
    .trim()
    .uppercase()
    .when('mode', { is: 'frame', then: (s) => s.matches(/^[A-Z0-9]{1,12}$/i, VIDEO_MESSAGES.unknownBib).required(VIDEO_MESSAGES.unknownBib) }),
});
export type SetVideoClockInput = InferType<typeof setVideoClockSchema>;

const side = number()
  .typeError(VIDEO_MESSAGES.clipLengths)
  .integer(VIDEO_MESSAGES.clipLengths)
  .min(1, VIDEO_MESSAGES.clipLengths)
  .max(CLIP_MAX_SIDE_SECONDS, VIDEO_MESSAGES.clipLengths)
  .required(VIDEO_MESSAGES.clipLengths);
export const clipLengthsSchema = object({ eventId, beforeSeconds: side, afterSeconds: side });
export const videoIdSchema = object({ videoId });
export const videoFrameSchema = object({ videoId, atSecond: second });

/** A video shorter than the span of the event's official finish times. */
export const shorterThanRaceMessage = (durationSeconds: number, spanSeconds: number) =>
  `This video is ${formatRaceTime(durationSeconds)} long, but the official finish times span ${formatRaceTime(spanSeconds)}. Please upload the whole finish-line recording.`;
/** A clock that puts every finisher outside the video. */
export const everyoneOutsideMessage = (fromSeconds: number, toSeconds: number, firstSeconds: number, lastSeconds: number) =>
  `With this clock the video shows race time ${formatRaceTime(Math.max(0, fromSeconds))} to ${formatRaceTime(Math.max(0, toSeconds))}, and no finisher crosses the line then (the first at ${formatRaceTime(firstSeconds)}, the last at ${formatRaceTime(lastSeconds)}). Please check the clock.`;
