import { useState } from 'react';
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

/** Up to two initials of the race's name ("Kochi Marathon 2026" -> "KM"), for a card without a logo. */
export function raceInitials(name: string): string {
  const words = name.split(/\s+/).filter((word) => /^[\p{L}]/u.test(word));
  return words
    .slice(0, 2)
    .map((word) => word[0].toLocaleUpperCase())
    .join('');
}

/** One of a few calm hues, always the same for one race, so placeholders tell races apart. */
function placeholderHue(name: string): number {
  let sum = 0;
  for (const ch of name) sum = (sum * 31 + ch.charCodeAt(0)) % 360;
  return sum;
}

/** The race's logo; a designed placeholder (initials on the race's hue) when there is none or it fails. */
function EventLogo({ event }: { event: EventSummary }) {
  const [failed, setFailed] = useState(false);
  if (!event.event_logo || failed) {
    const hue = placeholderHue(event.event_name);
    return (
      <div
        className="fl-event-logo fl-event-logo-placeholder"
        role="img"
        aria-label={event.event_name}
        data-testid="event-logo-placeholder"
        style={{ background: `linear-gradient(135deg, hsl(${hue} 55% 42%), hsl(${(hue + 40) % 360} 60% 30%))` }}
      >
        <span aria-hidden>{raceInitials(event.event_name)}</span>
      </div>
    );
  }
  return <img className="fl-event-logo" src={event.event_logo} alt={event.event_name} loading="lazy" decoding="async" onError={() => setFailed(true)} />;
}

interface Props {
  event: EventSummary;
  onChoose: (event: EventSummary) => void;
  onPreOrder?: (event: EventSummary) => void;
}

export function EventCard({ event, onChoose, onPreOrder }: Props) {
  return (
    <Card hoverable className="fl-event-card" onClick={() => onChoose(event)} cover={<EventLogo event={event} />}>
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
