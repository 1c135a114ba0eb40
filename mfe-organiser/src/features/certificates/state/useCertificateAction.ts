import { useCallback, useState } from 'react';
import { isApiError, type CertificatePreviewResult } from '@finishline/shared';

export type CertificateAction = 'save' | 'preview' | 'upload';

// A shared-schema refusal (yup's ValidationError) carries the message to show, as the server's does.
export const problemOf = (error: unknown) =>
  isApiError(error) ? error.message : error instanceof Error && error.name === 'ValidationError' ? error.message : 'Something went wrong. Please try again.';

/**
 * One certificate action at a time (save, preview, upload) for the Certificate tab and the series:
 * which one runs (its button spins), the panel's problem (an action's failure, or a check of the
 * draft) and the last preview the server drew.
 */
export function useCertificateAction() {
  const [busy, setBusy] = useState<CertificateAction | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [preview, setPreview] = useState<CertificatePreviewResult | null>(null);
  const run = useCallback(async (action: CertificateAction, work: () => Promise<void>) => {
    setBusy(action);
    try {
      await work();
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(null);
    }
  }, []);
  return { busy, run, problem, setProblem, preview, setPreview };
}
