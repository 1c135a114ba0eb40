import { useEffect } from 'react';

/** While `busy` (files still being sent), closing or reloading the tab asks first. */
export function useLeaveWarning(busy: boolean): void {
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);
}
