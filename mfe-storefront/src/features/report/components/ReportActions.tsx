import { useState } from 'react';
import { App, Button } from 'antd';
import { cartApi, isApiError, isSignedInValue, STORAGE_KEYS } from '@finishline/shared';

export const LOGIN_REQUIRED_TEXT = 'You must log in to perform this action';
export const SELECT_ONE_TEXT = 'Select atleast one photo.';

export interface ReportActionsProps {
  bibNumber: string;
  eventId: number;
  reportMode: boolean;
  onReportMode: (on: boolean) => void;
  selectedIds: number[];
  /** Called after the server recorded the feedback: refetch the products and clear the selection. */
  onRecorded: () => Promise<void>;
}

/**
 * Report picture(s) / Back, Hide and Not Me. Reporting needs a signed-in user (the server checks
 * too); feedback 1 hides the photos, 2 marks them as not me.
 */
export function ReportActions({ bibNumber, eventId, reportMode, onReportMode, selectedIds, onRecorded }: ReportActionsProps) {
  const { message, modal } = App.useApp();
  const [busy, setBusy] = useState<1 | 2 | null>(null);
  const signedIn = () => isSignedInValue(localStorage.getItem(STORAGE_KEYS.isSignedIn));

  const toggle = () => {
    if (!reportMode && !signedIn()) {
      modal.warning({ title: LOGIN_REQUIRED_TEXT, content: 'Please sign in to report pictures.' });
      return;
    }
    onReportMode(!reportMode);
  };

  const record = async (usrfeedback: 1 | 2) => {
    if (!signedIn()) {
      modal.warning({ title: LOGIN_REQUIRED_TEXT });
      return;
    }
    if (selectedIds.length === 0) {
      message.warning(SELECT_ONE_TEXT);
      return;
    }
    setBusy(usrfeedback);
    try {
      const answer = await cartApi.recordFeedback({ usrfeedback, bibNumber, eventID: eventId, photoids: selectedIds.join(',') });
      message.success(answer.message);
      await onRecorded();
    } catch (error) {
      if (isApiError(error) && error.statusCode === 401) modal.warning({ title: LOGIN_REQUIRED_TEXT });
      else message.warning(isApiError(error) ? error.message : 'Server Error');
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <Button onClick={toggle} danger={!reportMode}>
        {reportMode ? 'Back' : 'Report picture(s)'}
      </Button>
      {reportMode ? (
        <>
          <Button onClick={() => void record(1)} loading={busy === 1}>
            Hide
          </Button>
          <Button onClick={() => void record(2)} loading={busy === 2}>
            Not Me
          </Button>
        </>
      ) : null}
    </>
  );
}
