import { API_ROUTES } from './routes';
import { get, getRuntimeConfig, post } from '@finishline/shared/runtime';
import { STORAGE_KEYS } from '../storageKeys';
import { localStore } from '../storage/localStore';
import type { PhotoIdRequest, SetPhotoBibsRequest, SupplyEvent, SupplyPhoto, SupplyPhotosRequest, SupplyPhotosResult, UploadReceipt } from '../types/supply';
import type { ClipLengthsRequest, FinishVideosResult, SetVideoClockRequest, VideoFrameRequest } from '../types/videos';

/** Typed calls of the photographer's upload and review screens (the files themselves go over tus to API_ROUTES.partnerUploads). */
export const supplyApi = {
  events: () => get<SupplyEvent[]>(API_ROUTES.partnerSupplyEvents),
  photos: (body: SupplyPhotosRequest) => post<SupplyPhotosResult>(API_ROUTES.partnerPhotos, body),
  setBibs: (body: SetPhotoBibsRequest) => post<SupplyPhoto>(API_ROUTES.partnerPhotoBibs, body),
  removePhoto: (body: PhotoIdRequest) => post<{ removed: number }>(API_ROUTES.partnerRemovePhoto, body),
};

/** Typed calls of the videographer's Videos screen (docs/videos.md); the videos themselves go over tus like photos. */
export const videoApi = {
  videos: (eventId: number) => post<FinishVideosResult>(API_ROUTES.partnerVideos, { eventId }),
  frame: (body: VideoFrameRequest) => post<{ atSecond: number; image: string }>(API_ROUTES.partnerVideoFrame, body),
  setClock: (body: SetVideoClockRequest) => post<FinishVideosResult>(API_ROUTES.partnerVideoClock, body),
  clipLengths: (body: ClipLengthsRequest) => post<FinishVideosResult>(API_ROUTES.partnerClipLengths, body),
  publishClip: (body: PhotoIdRequest) => post<FinishVideosResult>(API_ROUTES.partnerClipPublish, body),
  removeClip: (body: PhotoIdRequest) => post<FinishVideosResult>(API_ROUTES.partnerClipRemove, body),
};

/**
 * Why the upload server refused a file, from the tus client's last answer (its status and body): the
 * server's own message (plain text, or the JSON envelope's Message), else a word on the connection.
 */
export function uploadRefusalReason(status: number | null, body: string | null | undefined): string {
  if (status !== null && body && status >= 400 && status < 500 && !body.trim().startsWith('{')) return body.trim();
  if (status !== null && body) {
    try {
      const parsed = JSON.parse(body) as { Message?: string };
      if (parsed.Message) return parsed.Message;
    } catch {
      // not the JSON envelope: fall through
    }
  }
  return 'The upload failed. Please check your connection and add the file again.';
}

/** Where the browser's tus client sends files, and the session header it sends with every request. */
export function supplyUploadTarget(): { endpoint: string; headers: Record<string, string> } {
  const token = localStore.get(STORAGE_KEYS.sessionToken);
  return { endpoint: `${getRuntimeConfig().apiBaseUrl}${API_ROUTES.partnerUploads}`, headers: token ? { Authorization: `Bearer ${token}` } : {} };
}

/** The UploadReceipt the last chunk's answer carries (base64 JSON in the Upload-Receipt header). */
export function readUploadReceipt<T = UploadReceipt>(header: string | null | undefined): T | null {
  if (!header) return null;
  try {
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(header), (c) => c.charCodeAt(0)))) as T;
  } catch {
    return null;
  }
}

/** The schema of a file about to be sent (photos: uploadFileSchema, videos: uploadVideoSchema). */
interface UploadFileCheck {
  validate(value: { eventId: number; filename: string; filetype: string; size: number }): Promise<unknown>;
}

/**
 * A chosen file checked in the browser before a byte is sent: a key of its own in the page's list,
 * and why it is refused (the schema's first message), or null.
 */
export async function checkUploadFile(schema: UploadFileCheck, eventId: number, file: File): Promise<{ key: string; reason: string | null }> {
  const key = `${file.name}:${file.size}:${file.lastModified}:${Math.random().toString(36).slice(2)}`;
  try {
    await schema.validate({ eventId, filename: file.name, filetype: file.type, size: file.size });
    return { key, reason: null };
  } catch (error) {
    const errors = (error as { errors?: unknown }).errors;
    return { key, reason: Array.isArray(errors) && typeof errors[0] === 'string' ? errors[0] : 'This file cannot be uploaded.' };
  }
}

/** What the tus client's answers look like to these helpers (tus-js-client's HttpResponse and DetailedError). */
interface TusAnswer {
  getStatus(): number;
  getBody(): string;
  getHeader(name: string): string | undefined;
}

/**
 * The options of one partner upload over tus (tus-js-client's UploadOptions): the endpoint and
 * session, chunks of `chunkSize` retried after a dropped connection, the event and file in its
 * metadata, a fingerprint by which a file added again after a reload finds its unfinished upload,
 * and the server's receipt or reason handed on.
 */
export function partnerUploadOptions<R>(input: {
  eventId: number;
  file: File;
  chunkSize: number;
  retryDelays: number[];
  fingerprint: string;
  onProgress: (sent: number, total: number) => void;
  onAccepted: (receipt: R | null) => void;
  onRefused: (reason: string) => void;
}) {
  const { file } = input;
  const target = supplyUploadTarget();
  return {
    endpoint: target.endpoint,
    headers: target.headers,
    chunkSize: input.chunkSize,
    retryDelays: input.retryDelays,
    metadata: { eventId: String(input.eventId), filename: file.name, filetype: file.type },
    fingerprint: async () => input.fingerprint,
    removeFingerprintOnSuccess: true,
    onProgress: input.onProgress,
    onSuccess: ({ lastResponse }: { lastResponse: TusAnswer }) => input.onAccepted(readUploadReceipt<R>(lastResponse.getHeader('Upload-Receipt'))),
    onError: (error: Error & { originalResponse?: TusAnswer | null }) => {
      const response = error.originalResponse ?? null;
      input.onRefused(uploadRefusalReason(response ? response.getStatus() : null, response?.getBody()));
    },
  };
}

/** Starts an upload, first continuing an unfinished one of the same file when the browser kept it (tus-js-client's Upload). */
export function startResumingUpload<P>(
  upload: { findPreviousUploads(): Promise<P[]>; resumeFromPreviousUpload(previous: P): void; start(): void },
  onResumed: () => void,
): void {
  void upload.findPreviousUploads().then((previous) => {
    const earlier = previous[0];
    if (earlier) {
      upload.resumeFromPreviousUpload(earlier);
      onResumed();
    }
    upload.start();
  });
}
