import { Alert } from 'antd';
import { findableWaitMessage, type SupplyFindableWait } from '@finishline/shared';

/**
 * Race-day back-pressure on the upload and review screens (docs/supply-line.md, "When many photos
 * arrive"): how long until the photographer's photos are findable when more wait than the line
 * clears in its promised minute; nothing while it keeps the promise. The polite status region is on
 * the page before it says anything, so a screen reader reads the message when it appears and when
 * the page's poll changes it (the Alert inside is no alert of its own).
 */
export function FindableWaitNotice(props: { wait: SupplyFindableWait | null }) {
  const message = findableWaitMessage(props.wait?.estimateSeconds ?? null);
  return (
    <div role="status" aria-live="polite" aria-atomic="true" data-testid="findable-wait">
      {message && <Alert type="info" showIcon role="none" title={message} style={{ marginTop: 16 }} />}
    </div>
  );
}
