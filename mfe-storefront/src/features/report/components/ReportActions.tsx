import { useState } from 'react';
import { App, Button } from 'antd';
import { cartApi, isApiError, isSignedInValue, STORAGE_KEYS, localStore } from '@finishline/shared';
import { REPORT_BUTTON_TEXT } from '../reportText';

export const LOGIN_REQUIRED_TEXT = 'You must log in to perform this action';
export const SELECT_ONE_TEXT = 'Select atleast one photo.';
const UNDO_KEY = 'report-undo';

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
 * too); feedback 1 hides the photos (only the BIB's owner may), 2 reports them as not me to the
 * organiser. Either can be undone from the confirmation.
 */
export function ReportActions({ bibNumber, eventId, reportMode, onReportMode, selectedIds, onRecorded }: ReportActionsProps) {
  const { message, modal } = App.useApp();
  const [busy, setBusy] = useState<1 | 2 | null>(null);
  const signedIn = () => isSignedInValue(localStore.get(STORAGE_KEYS.isSignedIn));

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
    const request = { usrfeedback, bibNumber, eventID: eventId, photoids: selectedIds.join(',') };
    try {
      const answer = await cartApi.recordFeedback(request);
      // The author can take a hide or a report back at once (the photos leave their view).
      const undo = async () => {
        message.destroy(UNDO_KEY);
        try {
          message.success((await cartApi.recordFeedback({ ...request, undo: true })).message);
          await onRecorded();
        } catch (error) {
          message.warning(isApiError(error) ? error.message : 'Server Error');
        }
      };
      message.success({
        key: UNDO_KEY,
        duration: 8,
        content: (
          <>
            {answer.message}{' '}
            <Button type="link" size="small" onClick={() => void undo()}>
              Undo
            </Button>
          </>
        ),
      });
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
        {reportMode ? 'Back' : REPORT_BUTTON_TEXT}
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
