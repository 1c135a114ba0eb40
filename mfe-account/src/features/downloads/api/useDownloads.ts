import { useCallback, useState } from 'react';
import { ordersApi, type PreauthParams } from '@finishline/shared';

export interface DownloadTarget {
  orderID: string;
  bibNumber: string;
  preauth?: PreauthParams | null;
}

export interface Downloads {
  processing: boolean;
  downloadZip: (target: DownloadTarget) => Promise<void>;
  downloadImage: (target: DownloadTarget, imageID: number) => Promise<void>;
  /** Message of the last refusal (e.g. downloads expired after 30 days), for the page to show. */
  refusal: string | null;
}

/**
 * Download order zip and single image/video (spec "Download"): a Processing... overlay until the
 * answer; a success navigates the browser to the returned short-lived link. A refusal with a reason
 * the buyer can act on (expired, not paid) is shown; other failures close the overlay silently.
 */
export function useDownloads(): Downloads {
  const [processing, setProcessing] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const run = useCallback(async (call: () => Promise<{ result: string }>) => {
    setProcessing(true);
    setRefusal(null);
    try {
      const { result } = await call();
      window.location.assign(result);
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 410 || status === 409) setRefusal((error as Error).message);
    } finally {
      setProcessing(false);
    }
  }, []);

  const downloadZip = useCallback(
    (t: DownloadTarget) => run(() => ordersApi.downloadOrder({ orderID: t.orderID, bibNumber: t.bibNumber, ...(t.preauth ? { preauth: t.preauth } : {}) })),
    [run],
  );
  const downloadImage = useCallback(
    (t: DownloadTarget, imageID: number) =>
      run(() => ordersApi.downloadImage({ orderID: t.orderID, bibNumber: t.bibNumber, imageID, ...(t.preauth ? { preauth: t.preauth } : {}) })),
    [run],
  );
  return { processing, downloadZip, downloadImage, refusal };
}
