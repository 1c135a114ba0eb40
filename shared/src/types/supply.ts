/**
 * The photographer supply line: uploads over tus, the processing of each photo, and the
 * photographer's review of their own photos of an event.
 */

/** Partner terms: photos are JPGs of 3 to 4 MB. Larger files are accepted up to this hard cap. */
export const UPLOAD_MAX_BYTES = 15 * 1024 * 1024;
/** The smallest file worth reading as a photo (a thumbnail-sized JPEG is refused as too small). */
export const UPLOAD_MIN_BYTES = 20 * 1024;
/** Files a photographer drops at once: the browser refuses more in one drop. */
export const UPLOAD_MAX_FILES_PER_DROP = 1000;

/** What the upload screen and the review show for each photo. */
export type SupplyPhotoStatus = 'processing' | 'tagged' | 'unlabeled' | 'failed';

/** An event the signed-in photographer is approved for (the upload and review screens' event choice). */
export interface SupplyEvent {
  eventId: number;
  eventName: string;
  fromDate: string | null;
  toDate: string | null;
}

/** The answer to a finished upload (the body of the tus server's last reply). */
export interface UploadReceipt {
  photoId: number;
  imageId: string;
  /** True when the same file was already uploaded to this event: the earlier photo is kept. */
  duplicate: boolean;
  status: SupplyPhotoStatus;
}

/** The running count of one photographer's photos of one event. */
export interface SupplyCounts {
  uploaded: number;
  processing: number;
  searchable: number;
  needsAttention: number;
}

export interface SupplyBib {
  bibNumber: string;
  source: 'seed' | 'ocr' | 'manual' | 'timing';
  confidence: number | null;
}

export interface SupplyPhoto {
  photoId: number;
  imageId: string;
  originalName: string | null;
  status: SupplyPhotoStatus;
  failureReason: string | null;
  bibs: SupplyBib[];
  /** Signed thumbnail (watermarked); null while the photo is processing. */
  thumbUrl: string | null;
  /** A sold photo cannot be removed. */
  sold: boolean;
  uploadedAt: string;
}

/**
 * How long until the photographer's photos still processing are findable, computed by the server
 * with findableInSeconds (docs/supply-line.md, "When many photos arrive").
 */
export interface SupplyFindableWait {
  /** Photos waiting on the whole line (every photographer's) up to and including this partner's last waiting photo of the event. */
  waitingAhead: number;
  /** Photos the line finished a minute, measured over the last few minutes; null when too few finished to measure (the rule's fallback rate applies). */
  photosPerMinute: number | null;
  /** Seconds until the partner's waiting photos are findable; null when that is within the promised minute (nothing to show). */
  estimateSeconds: number | null;
}

export interface SupplyPhotosResult {
  counts: SupplyCounts;
  /** Null while none of the partner's photos of the event are waiting to be processed. */
  findable: SupplyFindableWait | null;
  /** One page of the partner's photos of the event (newest first), of those with the status asked for. */
  photos: SupplyPhoto[];
  page: number;
  perPage: number;
  /** Photos with the status asked for, over all pages. */
  total: number;
}

/** Photos per page of the review screen (at most SUPPLY_MAX_PER_PAGE). */
export const SUPPLY_PHOTOS_PER_PAGE = 48;
export const SUPPLY_MAX_PER_PAGE = 200;

export interface SupplyEventRequest {
  eventId: number;
}

/** The partner's photo list: a page (perPage 0: the counts only, as the upload screen polls), optionally of one status. */
export interface SupplyPhotosRequest {
  eventId: number;
  page?: number;
  perPage?: number;
  status?: SupplyPhotoStatus | 'all';
}
export interface SetPhotoBibsRequest {
  photoId: number;
  bibs: string[];
}
export interface PhotoIdRequest {
  photoId: number;
}

/** tus metadata the browser sends with each file. */
export interface UploadMetadata {
  eventId: string;
  filename: string;
  filetype: string;
}
