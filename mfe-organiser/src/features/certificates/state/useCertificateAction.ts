import { useCallback, useState } from 'react';
import { isApiError } from '@finishline/shared';

export type CertificateAction = 'save' | 'preview' | 'upload';

// A shared-schema refusal (yup's ValidationError) carries the message to show, as the server's does.
export const problemOf = (error: unknown) =>
  isApiError(error) ? error.message : error instanceof Error && error.name === 'ValidationError' ? error.message : 'Something went wrong. Please try again.';

/**
 * One certificate action at a time (save, preview, upload) for the Certificate tab and the series:
 * which one runs (its button spins), and its failure shown as the panel's problem.
 */
export function useCertificateAction(setProblem: (problem: string | null) => void) {
  const [busy, setBusy] = useState<CertificateAction | null>(null);
  const run = useCallback(
    async (action: CertificateAction, work: () => Promise<void>) => {
      setBusy(action);
      try {
        await work();
      } catch (error) {
        setProblem(problemOf(error));
      } finally {
        setBusy(null);
      }
    },
    [setProblem],
  );
  return { busy, run };
}
