import { useCallback, useEffect, useRef, useState } from 'react';
import { Upload as TusUpload } from 'tus-js-client';
import { checkUploadFile, partnerUploadOptions, startResumingUpload, uploadVideoSchema, type VideoUploadReceipt } from '@finishline/shared';
import { useLeaveWarning } from '@finishline/shared/react';

/**
 * 8 MB chunks: a recording of several GB in 1 MB requests would be thousands of them, and a dropped
 * connection loses at most one chunk. (With S3 staging each chunk is one multipart part.)
 */
const CHUNK_BYTES = 8 * 1024 * 1024;

export type VideoUploadState = 'waiting' | 'uploading' | 'checking' | 'done' | 'duplicate' | 'refused';

export interface VideoUploadEntry {
  key: string;
  name: string;
  size: number;
  state: VideoUploadState;
  sent: number;
  /** Why the video was refused, in the server's (or the browser check's) words. */
  reason: string | null;
  /** True when an earlier, unfinished upload of this file was continued. */
  resumed: boolean;
  receipt: VideoUploadReceipt | null;
}

/** tus-js-client's key for a video upload starts with this (photos have their own, see the upload feature). */
const fingerprintOf = (eventId: number, file: File) => `finishline-video-${eventId}-${file.name}-${file.size}-${file.lastModified}`;

/**
 * The Videos screen's uploads: each added file is checked in the browser (MP4 or MOV, the size
 * limits), then sent one at a time over tus in 8 MB chunks, retried after a dropped connection; a
 * file added again after a reload continues from what the server already holds. When the last byte
 * is in, the server checks the whole video (it can take a while for hours of video) and answers with
 * the video, or refuses it with its reason. `onFinished` runs after each file's answer.
 */
export function useVideoUpload(eventId: number | null, onFinished: () => void) {
  const [entries, setEntries] = useState<VideoUploadEntry[]>([]);
  const sources = useRef(new Map<string, File>());
  const running = useRef<TusUpload | null>(null);
  const finished = useRef(onFinished);
  finished.current = onFinished;

  const update = useCallback((key: string, change: Partial<VideoUploadEntry>) => {
    setEntries((list) => list.map((e) => (e.key === key ? { ...e, ...change } : e)));
  }, []);

  const add = useCallback(
    async (files: File[]) => {
      if (eventId === null) return;
      const added: VideoUploadEntry[] = [];
      for (const file of files) {
        const { key, reason } = await checkUploadFile(uploadVideoSchema, eventId, file);
        sources.current.set(key, file);
        added.push({ key, name: file.name, size: file.size, state: reason ? 'refused' : 'waiting', sent: 0, reason, resumed: false, receipt: null });
      }
      setEntries((list) => [...added, ...list]);
    },
    [eventId],
  );

  const start = useCallback(
    (entry: VideoUploadEntry) => {
      const file = sources.current.get(entry.key);
      if (!file || eventId === null) return;
      const upload = new TusUpload(
        file,
        partnerUploadOptions<VideoUploadReceipt>({
          eventId,
          file,
          chunkSize: CHUNK_BYTES,
          retryDelays: [0, 1000, 3000, 5000, 10000, 20000, 30000],
          fingerprint: fingerprintOf(eventId, file),
          // All bytes sent: the server is checking the video before it answers.
          onProgress: (sent, total) => update(entry.key, { sent, state: sent >= total ? 'checking' : 'uploading' }),
          onAccepted: (receipt) => {
            running.current = null;
            update(entry.key, { state: receipt?.duplicate ? 'duplicate' : 'done', sent: file.size, receipt });
            finished.current();
          },
          onRefused: (reason) => {
            running.current = null;
            update(entry.key, { state: 'refused', reason });
            finished.current();
          },
        }),
      );
      running.current = upload;
      update(entry.key, { state: 'uploading' });
      startResumingUpload(upload, () => update(entry.key, { resumed: true }));
    },
    [eventId, update],
  );

  // One video at a time: each is large, and the server checks it whole when its last byte is in.
  useEffect(() => {
    if (entries.some((e) => e.state === 'uploading' || e.state === 'checking')) return;
    const next = [...entries].reverse().find((e) => e.state === 'waiting');
    if (next) start(next);
  }, [entries, start]);

  // Leaving the page pauses the upload; adding the same file again continues it.
  useEffect(() => () => void running.current?.abort(), []);

  const busy = entries.some((e) => e.state === 'uploading' || e.state === 'waiting' || e.state === 'checking');
  useLeaveWarning(busy);

  return { entries, busy, add };
}
