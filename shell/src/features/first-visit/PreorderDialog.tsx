import { Button, Modal } from 'antd';
import { AntdRoot } from '@finishline/shared/react';
import type { EventSummary } from '@finishline/shared';

const formatDate = (iso: string) => new Date(`${iso}T00:00:00`).toLocaleDateString('en-IN', { day: 'numeric', month: 'long', year: 'numeric' });

/** The pre-order popup's dialog (its own chunk, with antd and its theme, see PreorderPopup). */
export function PreorderDialog({
  open,
  event,
  onIgnore,
  onPreOrder,
}: {
  open: boolean;
  event: EventSummary | null;
  onIgnore: () => void;
  onPreOrder: () => void;
}) {
  return (
    <AntdRoot component={false}>
      <Modal
        open={open}
        title="Pre-order your race photos"
        onCancel={onIgnore}
        footer={[
          <Button key="ignore" onClick={onIgnore}>
            Ignore
          </Button>,
          <Button key="preorder" type="primary" onClick={onPreOrder}>
            Pre Order
          </Button>,
        ]}
      >
        {event ? (
          <div data-testid="preorder-popup">
            {event.event_logo ? <img src={event.event_logo} alt="" style={{ maxHeight: 72, marginBottom: 8 }} /> : null}
            <p style={{ fontWeight: 600, marginBottom: 4 }}>{event.event_name}</p>
            <p style={{ marginBottom: 4 }}>Race day: {formatDate(event.event_from_date)}</p>
            <p>Running it? Pre-order your photos now at the early price and get your download link as soon as the photos are out.</p>
          </div>
        ) : null}
      </Modal>
    </AntdRoot>
  );
}
