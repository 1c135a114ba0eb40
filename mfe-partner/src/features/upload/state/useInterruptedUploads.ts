import { useCallback, useEffect, useState } from 'react';
import { defaultOptions, Upload as TusUpload, type PreviousUpload } from 'tus-js-client';
import { supplyUploadTarget } from '@finishline/shared';

/** What the browser remembers of an upload that stopped before its last byte (a reload, a crash). */
export interface InterruptedUpload {
  /** Where tus-js-client keeps it (localStorage); forgetting removes this entry. */
  storageKey: string;
  uploadUrl: string;
  name: string;
  size: number;
  /** Bytes the server holds, from a HEAD; null when the server could not be asked just now. */
  received: number | null;
}

/** tus-js-client's key for an upload: `tus::<fingerprint>::<n>`; our fingerprint starts with this. */
export const uploadFingerprintPrefix = (eventId: number) => `finishline-${eventId}-`;

/** Asks the server how much of an upload it holds; 'gone' when it no longer knows it (expired, finished, not ours). */
async function receivedBytes(uploadUrl: string): Promise<number | 'gone' | null> {
  try {
    const response = await fetch(uploadUrl, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0', ...supplyUploadTarget().headers } });
    if (response.status === 404 || response.status === 410 || response.status === 403) return 'gone';
    if (!response.ok) return null;
    const offset = Number(response.headers.get('Upload-Offset'));
    const length = Number(response.headers.get('Upload-Length'));
    // All bytes in: the file was finished (and processed) even if this page never heard the answer.
    if (Number.isFinite(length) && length > 0 && offset >= length) return 'gone';
    return Number.isFinite(offset) ? offset : null;
  } catch {
    return null;
  }
}

/**
 * The uploads of this event that a reload or a closed tab left unfinished. The browser cannot reopen
 * a file by itself, so the page lists them (with how much the server already has) and the
 * photographer drops the same files again: the queue's fingerprint then continues each one from
 * there. Entries the server no longer knows are cleaned away; Forget drops one on both sides.
 *
 * Asked once per event when the page opens: only an earlier page can have left an upload behind.
 * (It used to ask again whenever a file finished: the store then still held the files in flight and
 * the one just finished, whose entry tus removes a moment after reporting success, so every batch
 * sent HEADs for uploads the server had already finished and deleted, each answered 404.)
 */
export function useInterruptedUploads(eventId: number | null) {
  const [interrupted, setInterrupted] = useState<InterruptedUpload[]>([]);

  useEffect(() => {
    if (eventId === null) {
      setInterrupted([]);
      return;
    }
    let stopped = false;
    const prefix = `tus::${uploadFingerprintPrefix(eventId)}`;
    void (async () => {
      const stored = (await defaultOptions.urlStorage.findAllUploads()).filter((u: PreviousUpload) => u.urlStorageKey.startsWith(prefix) && u.uploadUrl);
      const found: InterruptedUpload[] = [];
      for (const upload of stored) {
        const received = await receivedBytes(upload.uploadUrl!);
        if (received === 'gone') {
          await defaultOptions.urlStorage.removeUpload(upload.urlStorageKey);
          continue;
        }
        found.push({
          storageKey: upload.urlStorageKey,
          uploadUrl: upload.uploadUrl!,
          name: upload.metadata.filename ?? 'A photo',
          size: upload.size ?? 0,
          received,
        });
      }
      if (!stopped) setInterrupted(found);
    })();
    return () => {
      stopped = true;
    };
  }, [eventId]);

  const forget = useCallback(async (upload: InterruptedUpload) => {
    // The server's partial file goes too; if that fails it expires there on its own.
    await TusUpload.terminate(upload.uploadUrl, { headers: supplyUploadTarget().headers, retryDelays: null }).catch(() => undefined);
    await defaultOptions.urlStorage.removeUpload(upload.storageKey);
    setInterrupted((list) => list.filter((u) => u.storageKey !== upload.storageKey));
  }, []);

  return { interrupted, forget };
}
