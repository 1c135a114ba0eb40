import { useEffect } from 'react';
import { Result } from 'antd';
import { getRuntimeConfig } from '@finishline/shared';
import { ResultHeading } from '@finishline/shared/react';

/** /events opens the general events site in a new window; this page offers the link in case a popup blocker stopped it. */
export function EventsPage() {
  const { eventsSiteUrl } = getRuntimeConfig();
  useEffect(() => {
    window.open(eventsSiteUrl, '_blank', 'noopener');
  }, [eventsSiteUrl]);
  return (
    <Result
      status="info"
      title={<ResultHeading>Events</ResultHeading>}
      subTitle={
        <>
          The events site opens in a new window.{' '}
          <a href={eventsSiteUrl} target="_blank" rel="noopener noreferrer" style={{ textDecoration: 'underline' }}>
            Open it here
          </a>{' '}
          if it did not.
        </>
      }
    />
  );
}
