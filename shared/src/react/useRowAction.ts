import { useState } from 'react';
import { App as AntApp } from 'antd';
import { isApiError } from '@finishline/shared/runtime';

const FALLBACK = 'Something went wrong. Please try again.';

/**
 * One action on one row of a table at a time (approve, dismiss, ...): the row's button spins while the
 * call runs, the server's answer is shown as a toast, and the table reloads after a success.
 */
export function useRowAction<Key>(afterSuccess: () => void) {
  const { message } = AntApp.useApp();
  const [busy, setBusy] = useState<Key | null>(null);
  const run = async (key: Key, call: () => Promise<{ message: string }>): Promise<void> => {
    setBusy(key);
    try {
      message.success((await call()).message);
      afterSuccess();
    } catch (error) {
      message.error(isApiError(error) ? error.message : FALLBACK);
    } finally {
      setBusy(null);
    }
  };
  return { busy, run };
}
