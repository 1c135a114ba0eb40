import { useCallback, useEffect, useRef, useState } from 'react';
import { Upload as TusUpload, type DetailedError } from 'tus-js-client';
import { readUploadReceipt, supplyUploadTarget, uploadFileSchema, type UploadReceipt } from '@finishline/shared';
import { ValidationError } from 'yup';
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

/** The server's reason for refusing a file, from the tus client's error. */
function reasonOf(error: Error | DetailedError): string {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  const body = response?.getBody();
  if (response && body && response.getStatus() >= 400 && response.getStatus() < 500 && !body.trim().startsWith('{')) return body.trim();
  if (response && body) {
    try {
      const parsed = JSON.parse(body) as { Message?: string };
      if (parsed.Message) return parsed.Message;
    } catch {
      // not the JSON envelope: fall through
    }
  }
  return 'The upload failed. Please check your connection and add the file again.';
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
        const key = `${file.name}:${file.size}:${file.lastModified}:${Math.random().toString(36).slice(2)}`;
        let reason: string | null = null;
        try {
          await uploadFileSchema.validate({ eventId, filename: file.name, filetype: file.type, size: file.size });
        } catch (error) {
          reason = error instanceof ValidationError ? (error.errors[0] ?? 'This file cannot be uploaded.') : 'This file cannot be uploaded.';
        }
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
      const target = supplyUploadTarget();
      const upload = new TusUpload(file, {
        endpoint: target.endpoint,
        headers: target.headers,
        chunkSize: CHUNK_BYTES,
        retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
        metadata: { eventId: String(eventId), filename: file.name, filetype: file.type },
        // Same event, same file: a re-dropped file after a reload finds its earlier upload.
        fingerprint: async (f) => `${uploadFingerprintPrefix(eventId)}${(f as File).name}-${(f as File).size}-${(f as File).lastModified}`,
        removeFingerprintOnSuccess: true,
        onProgress: (sent) => update(entry.key, { sent }),
        onSuccess: ({ lastResponse }) => {
          running.current.delete(entry.key);
          const receipt = readUploadReceipt(lastResponse.getHeader('Upload-Receipt'));
          update(entry.key, { state: receipt?.duplicate ? 'duplicate' : 'done', sent: file.size, receipt });
        },
        onError: (error) => {
          running.current.delete(entry.key);
          update(entry.key, { state: 'refused', reason: reasonOf(error) });
        },
      });
      running.current.set(entry.key, upload);
      update(entry.key, { state: 'uploading' });
      void upload.findPreviousUploads().then((previous) => {
        const earlier = previous[0];
        if (earlier) {
          upload.resumeFromPreviousUpload(earlier);
          update(entry.key, { resumed: true });
        }
        upload.start();
      });
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
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  const clearFinished = useCallback(() => setFiles((list) => list.filter((f) => f.state === 'uploading' || f.state === 'waiting')), []);

  return { files, busy, add, clearFinished };
}
