import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import type { RemoteName } from '@finishline/shared';
import { PagePlaceholder } from '../PagePlaceholder';
import { RemoteErrorBoundary } from './RemoteErrorBoundary';
import { loadRemoteApp, type RemoteAppModule } from './federation';
import { reportRemote } from './errorReports';

export type RemoteLoader = (name: RemoteName, attempt: number) => Promise<RemoteAppModule>;

/**
 * Renders one remote's App, loading its code only now (a visitor who never opens a partner page
 * never downloads partner code). Each retry creates a fresh lazy component so loading starts again.
 */
export function RemoteOutlet({ remote, load = loadRemoteApp }: { remote: RemoteName; load?: RemoteLoader }) {
  const [attempt, setAttempt] = useState(0);
  const RemoteApp = useMemo(() => lazy(() => load(remote, attempt)), [remote, attempt, load]);
  // A page view of the remote, whatever then happens to it: its errors are judged per view (canary watch).
  useEffect(() => reportRemote('view', remote), [remote]);
  return (
    <RemoteErrorBoundary key={`${remote}:${attempt}`} remote={remote} onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense fallback={<PagePlaceholder />}>
        {/* Committed only once the remote's App has loaded: tests and tools can tell which remote is on screen. */}
        <div data-remote={remote} style={{ display: 'contents' }}>
          <RemoteApp />
        </div>
      </Suspense>
    </RemoteErrorBoundary>
  );
}
