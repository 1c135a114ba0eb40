import { useMemo, useState } from 'react';
import { AutoComplete } from 'antd';
import { PARTNER_EVENT_SEARCH_LETTERS, PARTNER_MESSAGES, type PartnerEventOption } from '@finishline/shared';

/**
 * The event search of the registration page (spec: only searchable events are offered, the search
 * input is limited to 2 letters): the photographer types 2 letters and picks among the events whose
 * name holds them. The server offers searchable, published events only.
 */
export function EventPicker({
  events,
  selected,
  onSelect,
}: {
  events: PartnerEventOption[];
  selected: PartnerEventOption | null;
  onSelect: (event: PartnerEventOption) => void;
}) {
  const [text, setText] = useState('');
  const letters = text.trim().toLowerCase();
  const options = useMemo(
    () =>
      letters.length < PARTNER_EVENT_SEARCH_LETTERS
        ? []
        : events
            .filter((e) => e.event_name.toLowerCase().includes(letters))
            .map((e) => ({ value: String(e.event_id), label: `${e.event_name} (${e.event_from_date})` })),
    [events, letters],
  );
  return (
    <div className="fl-field" style={{ marginBottom: 14 }}>
      <label htmlFor="partner-event-search" style={{ display: 'block', fontWeight: 500, marginBottom: 4 }}>
        Event
      </label>
      <AutoComplete
        id="partner-event-search"
        style={{ width: '100%' }}
        value={text}
        options={options}
        maxLength={PARTNER_EVENT_SEARCH_LETTERS}
        placeholder={PARTNER_MESSAGES.eventSearch}
        onChange={(value: string) => setText(value)}
        onSelect={(value: string) => {
          const event = events.find((e) => String(e.event_id) === value);
          if (event) {
            setText('');
            onSelect(event);
          }
        }}
        notFoundContent={letters.length >= PARTNER_EVENT_SEARCH_LETTERS ? 'No matching records found' : null}
      />
      {selected ? (
        <div data-testid="partner-selected-event" style={{ marginTop: 6 }}>
          <strong>{selected.event_name}</strong> ·{' '}
          {selected.event_from_date === selected.event_to_date ? selected.event_from_date : `${selected.event_from_date} to ${selected.event_to_date}`}
          {selected.event_location ? ` · ${selected.event_location}` : ''}
        </div>
      ) : null}
    </div>
  );
}
