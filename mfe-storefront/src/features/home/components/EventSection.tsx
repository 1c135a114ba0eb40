import { useState } from 'react';
import { Empty, Segmented } from 'antd';
import type { EventSummary, EventsByYear } from '@finishline/shared';
import { EventCard } from './EventCard';

interface GridProps {
  events: EventSummary[];
  onChoose: (event: EventSummary) => void;
  onPreOrder?: (event: EventSummary) => void;
}

function EventGrid({ events, onChoose, onPreOrder }: GridProps) {
  if (events.length === 0) return <Empty description="No events yet" />;
  return (
    <div className="fl-event-grid">
      {events.map((event) => (
        <EventCard key={event.event_id} event={event} onChoose={onChoose} onPreOrder={onPreOrder} />
      ))}
    </div>
  );
}

export function EventSection({ title, testId, ...grid }: GridProps & { title: string; testId: string }) {
  return (
    <section className="fl-section" data-testid={testId}>
      <h2 className="fl-section-title">{title}</h2>
      <EventGrid {...grid} />
    </section>
  );
}

/** A section with a year filter (past and featured events), newest year first. */
export function EventSectionByYear({
  title,
  testId,
  byYear,
  onChoose,
}: {
  title: string;
  testId: string;
  byYear: EventsByYear;
  onChoose: (event: EventSummary) => void;
}) {
  const years = Object.keys(byYear).sort((a, b) => Number(b) - Number(a));
  const [year, setYear] = useState<string | null>(null);
  const shownYear = year && years.includes(year) ? year : years[0];
  return (
    <section className="fl-section" data-testid={testId}>
      <div className="fl-section-head">
        <h2 className="fl-section-title">{title}</h2>
        {years.length > 0 ? <Segmented options={years} value={shownYear} onChange={(value) => setYear(String(value))} aria-label={`${title} year`} /> : null}
      </div>
      <EventGrid events={shownYear ? (byYear[shownYear] ?? []) : []} onChoose={onChoose} />
    </section>
  );
}
