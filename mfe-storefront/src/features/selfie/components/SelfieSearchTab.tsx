import { useState } from 'react';
import { Button, Typography } from 'antd';
import type { EventSummary } from '@finishline/shared';
import { SelfieModal } from './SelfieModal';
import '../selfie.css';

/** The hero's Search by Selfie tab: explains and opens the selfie modal. */
export function SelfieSearchTab({ event }: { event: EventSummary }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="fl-selfie-tab">
      <Typography.Text className="fl-hero-note">Take or upload a selfie and we will find the photos you are in.</Typography.Text>
      <Button size="large" type="primary" onClick={() => setOpen(true)}>
        Search by Selfie
      </Button>
      <SelfieModal event={event} open={open} onClose={() => setOpen(false)} />
    </div>
  );
}
