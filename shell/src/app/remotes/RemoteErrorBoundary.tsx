import { Component, type ErrorInfo, type ReactNode } from 'react';
import { removeFirstPaint, type RemoteName } from '@finishline/shared';
import { StatusResult } from '../StatusResult';
import { errorMessageOf, isLoadFailure, reportRemote } from './errorReports';

interface Props {
  remote: RemoteName;
  onRetry: () => void;
  children: ReactNode;
}

interface State {
  failed: boolean;
}

export const REMOTE_FALLBACK_TEXT = 'This part of Finishline is not reachable right now.';

/**
 * Catches a remote that cannot be loaded (server down, bad deploy) or that crashes while
 * rendering, so the rest of the shop keeps working. Retry asks the parent to load it again.
 */
export class RemoteErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`Remote "${this.props.remote}" failed`, error, info.componentStack);
    reportRemote(isLoadFailure(error) ? 'load' : 'render', this.props.remote, errorMessageOf(error));
    // The page's early hero must not cover the message.
    removeFirstPaint();
  }

  private retry = (): void => {
    this.setState({ failed: false });
    this.props.onRetry();
  };

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <StatusResult
        status="warning"
        title={REMOTE_FALLBACK_TEXT}
        subTitle="Please check your connection and try again in a moment. The rest of the site still works."
        extra={
          <button type="button" className="fl-btn fl-btn-primary" onClick={this.retry} data-testid="remote-retry">
            Retry
          </button>
        }
        data-testid="remote-fallback"
      />
    );
  }
}
