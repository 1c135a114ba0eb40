import { useCallback, useEffect, useRef, useState } from 'react';
import { Upload as TusUpload } from 'tus-js-client';
import { checkUploadFile, partnerUploadOptions, startResumingUpload, uploadFileSchema, type UploadReceipt } from '@finishline/shared';
import { useLeaveWarning } from '@finishline/shared/react';
import { uploadFingerprintPrefix } from './useInterruptedUploads';

/** Files sent at the same time; the rest wait their turn. */
const PARALLEL_UPLOADS = 3;
/** Chunk size: a dropped connection loses at most one chunk's progress. */
const CHUNK_BYTES = 1024 * 1024;

export type FileState = 'waiting' | 'uploading' | 'done' | 'duplicate' | 'refused';

export interface QueuedFile {
  key: string;
  name: string;
  size: number;
  state: FileState;
  sent: number;
  /** Why the file was refused (shown beside it). */
  reason: string | null;
  /** True when an earlier, unfinished upload of this file was continued. */
  resumed: boolean;
  receipt: UploadReceipt | null;
}

/**
 * The upload queue of the upload screen: checks each dropped file, sends up to three at a time over
 * tus in 1 MB chunks (retrying after a dropped connection; a file dropped again after a page reload
 * resumes from what the server already has), and keeps each file's progress and outcome.
 */
export function useUploadQueue(eventId: number | null) {
  const [files, setFiles] = useState<QueuedFile[]>([]);
  const sources = useRef(new Map<string, File>());
  const running = useRef(new Map<string, TusUpload>());
  const filesRef = useRef(files);
  filesRef.current = files;

  const update = useCallback((key: string, change: Partial<QueuedFile>) => {
    setFiles((list) => list.map((f) => (f.key === key ? { ...f, ...change } : f)));
  }, []);

  const add = useCallback(
    async (dropped: File[]) => {
      if (eventId === null) return;
      const entries: QueuedFile[] = [];
      for (const file of dropped) {
        const { key, reason } = await checkUploadFile(uploadFileSchema, eventId, file);
        sources.current.set(key, file);
        entries.push({ key, name: file.name, size: file.size, state: reason ? 'refused' : 'waiting', sent: 0, reason, resumed: false, receipt: null });
      }
      setFiles((list) => [...entries, ...list]);
    },
    [eventId],
  );

  const start = useCallback(
    (entry: QueuedFile) => {
      const file = sources.current.get(entry.key);
      if (!file || eventId === null) return;
      const upload = new TusUpload(
        file,
        partnerUploadOptions<UploadReceipt>({
          eventId,
          file,
          chunkSize: CHUNK_BYTES,
          retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
          // Same event, same file: a re-dropped file after a reload finds its earlier upload.
          fingerprint: `${uploadFingerprintPrefix(eventId)}${file.name}-${file.size}-${file.lastModified}`,
          onProgress: (sent) => update(entry.key, { sent }),
          onAccepted: (receipt) => {
            running.current.delete(entry.key);
            update(entry.key, { state: receipt?.duplicate ? 'duplicate' : 'done', sent: file.size, receipt });
          },
          onRefused: (reason) => {
            running.current.delete(entry.key);
            update(entry.key, { state: 'refused', reason });
          },
        }),
      );
      running.current.set(entry.key, upload);
      update(entry.key, { state: 'uploading' });
      startResumingUpload(upload, () => update(entry.key, { resumed: true }));
    },
    [eventId, update],
  );

  // Keeps PARALLEL_UPLOADS files in flight.
  useEffect(() => {
    const inFlight = files.filter((f) => f.state === 'uploading').length;
    const next = files.filter((f) => f.state === 'waiting').slice(0, Math.max(0, PARALLEL_UPLOADS - inFlight));
    for (const entry of next) start(entry);
  }, [files, start]);

  // Leaving the page pauses uploads; dropping the same files again resumes them.
  useEffect(() => {
    const current = running.current;
    return () => {
      for (const upload of current.values()) void upload.abort();
    };
  }, []);

  // Closing or reloading the tab mid-batch asks first: the files would have to be dropped again.
  const busy = files.some((f) => f.state === 'uploading' || f.state === 'waiting');
  useLeaveWarning(busy);

  const clearFinished = useCallback(() => setFiles((list) => list.filter((f) => f.state === 'uploading' || f.state === 'waiting')), []);

  return { files, busy, add, clearFinished };
}
