/**
 * Finish-line videos: a partner uploads the finish line filmed for hours (over the same tus path as
 * photos), sets the camera's clock against the race clock, and every participant with an official
 * finish time gets a clip of their own crossing (docs/videos.md).
 */

/** A finish-line video may be several GB: a phone's 4K hour is about 20 GB, a camera's 1080p hour 6-10. */
export const VIDEO_UPLOAD_MAX_BYTES = 32 * 1024 * 1024 * 1024;
/** Smaller than this is no finish-line recording. */
export const VIDEO_UPLOAD_MIN_BYTES = 100 * 1024;
/** Seconds of a clip before and after its runner's crossing, unless the event sets its own. */
export const CLIP_DEFAULT_BEFORE_SECONDS = 4;
export const CLIP_DEFAULT_AFTER_SECONDS = 3;
/** The longest a clip may run on either side of the crossing. */
export const CLIP_MAX_SIDE_SECONDS = 30;

/**
 * needs_clock: uploaded and checked, waiting for its clock; cutting: clips being cut; ready: every
 * clip cut (some may be flagged for review); failed: see failureReason.
 */
export type FinishVideoStatus = 'needs_clock' | 'cutting' | 'ready' | 'failed';
/** ready: on the runner's products page; review: flagged by the BIB check, shown to nobody but its videographer; processing: being cut. */
export type ClipStatus = 'processing' | 'ready' | 'review' | 'failed';

/** The answer to a finished video upload (the tus server's last reply, as for photos). */
export interface VideoUploadReceipt {
  videoId: number;
  /** True when the same file was already uploaded to this event: the earlier video is kept. */
  duplicate: boolean;
  status: FinishVideoStatus;
  durationSeconds: number;
}

export interface FinishClip {
  photoId: number;
  imageId: string;
  bibNumber: string;
  status: ClipStatus;
  /** Why the BIB check flagged it (the BIBs its frames at the line show). */
  reviewReason: string | null;
  /** Signed, watermarked poster frame and preview; null while cutting. */
  thumbUrl: string | null;
  previewUrl: string | null;
  /** Where the runner crosses, in seconds of the video. */
  crossingSecond: number;
  sold: boolean;
}

export interface FinishVideo {
  videoId: number;
  originalName: string | null;
  status: FinishVideoStatus;
  failureReason: string | null;
  durationSeconds: number;
  width: number;
  height: number;
  /** The time the camera recorded as the video's start (ISO), when the file says. */
  recordedAt: string | null;
  /** Race-clock seconds at the video's first frame; null until the clock is set. */
  raceSecondsAtStart: number | null;
  clips: { cut: number; ready: number; review: number; total: number };
  /** The clips of this video, flagged ones first. */
  clipList: FinishClip[];
  uploadedAt: string;
}

export interface FinishVideosResult {
  videos: FinishVideo[];
  clipBeforeSeconds: number;
  clipAfterSeconds: number;
  /** Participants with an official finish time: who can get a clip. */
  finishers: { bibNumber: string; finishSeconds: number }[];
}

/** Sets a video's clock: by the race clock at its first frame, or by a known runner crossing at a frame. */
export type SetVideoClockRequest =
  { videoId: number; mode: 'start'; raceTime: string } | { videoId: number; mode: 'frame'; atSecond: number; bibNumber: string };

export interface ClipLengthsRequest {
  eventId: number;
  beforeSeconds: number;
  afterSeconds: number;
}

export interface VideoFrameRequest {
  videoId: number;
  atSecond: number;
}
