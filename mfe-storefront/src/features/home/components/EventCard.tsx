import { Button, Card, Tooltip } from 'antd';
import type { EventSummary } from '@finishline/shared';

const dateFormat = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric' });

export function formatEventDates(event: Pick<EventSummary, 'event_from_date' | 'event_to_date'>): string {
  const from = dateFormat.format(new Date(event.event_from_date));
  const to = dateFormat.format(new Date(event.event_to_date));
  return from === to ? from : `${from} - ${to}`;
}

/** Spec: an upcoming card shows Pre Order only when pre-order is allowed and the event has not started. */
export function showsPreOrder(event: EventSummary, today = new Date()): boolean {
  return event.preorder_allowed === 1 && new Date(event.event_from_date) > today;
}

interface Props {
  event: EventSummary;
  onChoose: (event: EventSummary) => void;
  onPreOrder?: (event: EventSummary) => void;
}

export function EventCard({ event, onChoose, onPreOrder }: Props) {
  return (
    <Card
      hoverable
      className="fl-event-card"
      onClick={() => onChoose(event)}
      cover={<img className="fl-event-logo" src={event.event_logo} alt={event.event_name} loading="lazy" decoding="async" />}
    >
      {/* The full name on two lines (2026 and 2027 editions must be told apart), then a tooltip. */}
      <Card.Meta
        title={
          <Tooltip title={event.event_name} placement="top">
            <span className="fl-event-name">{event.event_name}</span>
          </Tooltip>
        }
        description={formatEventDates(event)}
      />
      {onPreOrder && showsPreOrder(event) ? (
        <Button
          type="primary"
          size="small"
          style={{ marginTop: 12 }}
          onClick={(click) => {
            click.stopPropagation();
            onPreOrder(event);
          }}
        >
          Pre Order
        </Button>
      ) : null}
    </Card>
  );
}
