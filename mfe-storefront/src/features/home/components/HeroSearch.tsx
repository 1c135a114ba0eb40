import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAtom } from 'jotai';
import { AutoComplete, Button, Input, Tabs, Typography } from 'antd';
import type { EventSummary, HeroImage } from '@finishline/shared';
import { rememberSelectedEvent, selectedEventAtom } from '../state/selectedEvent';

interface Props {
  heroImage: HeroImage | null;
  events: EventSummary[];
  renderBibSearch: (event: EventSummary) => ReactNode;
  /** Content of the Search by Selfie tab (events with selfiesearch=1). */
  renderSelfieSearch: (event: EventSummary) => ReactNode;
  /** The advanced search panel (theme or year, a BIB per event). */
  renderAdvancedSearch: () => ReactNode;
  /** 'Pre-Booked Photos' (preorder_allowed=1): the pre-order download mapping belongs to the account remote. */
  onPreBookedPhotos: (event: EventSummary) => void;
}

/** Hero: event autocomplete; once a searchable event is chosen, the Search by BIB (and Selfie) tabs. */
export function HeroSearch({ heroImage, events, renderBibSearch, renderSelfieSearch, renderAdvancedSearch, onPreBookedPhotos }: Props) {
  const navigate = useNavigate();
  const [advanced, setAdvanced] = useState(false);
  const [selected, setSelected] = useAtom(selectedEventAtom);
  const [text, setText] = useState(selected?.event_name ?? '');
  // An event card can choose the event too; show its name in the box.
  useEffect(() => {
    if (selected) setText(selected.event_name);
  }, [selected]);

  const options = useMemo(() => {
    const needle = text.trim().toLowerCase();
    // Suggestions in date order, the newest race first (the list itself keeps the server's order).
    return events
      .filter((event) => !needle || event.event_name.toLowerCase().includes(needle))
      .sort((a, b) => b.event_from_date.localeCompare(a.event_from_date) || a.event_name.localeCompare(b.event_name))
      .slice(0, 30)
      .map((event) => ({ value: String(event.event_id), label: event.event_name }));
  }, [events, text]);

  const choose = (eventId: string) => {
    const event = events.find((candidate) => String(candidate.event_id) === eventId);
    if (!event) return;
    setSelected(event);
    setText(event.event_name);
    void rememberSelectedEvent(event);
  };

  const tabs = selected?.issearchable
    ? [
        { key: 'bib', label: 'Search by BIB', children: renderBibSearch(selected) },
        ...(selected.selfiesearch
          ? [{ key: 'selfie', label: 'Search by Selfie', children: renderSelfieSearch(selected) }]
          : []),
      ]
    : [];

  return (
    <section className="fl-hero" data-testid="hero" style={heroImage ? { backgroundImage: `linear-gradient(rgba(10,14,25,.78), rgba(10,14,25,.82)), url("${heroImage.image}")` } : undefined}>
      <div className="fl-hero-inner">
        <h1 className="fl-hero-title">Find your race photos</h1>
        <p className="fl-hero-subtitle">Choose your event, then search by your BIB number or a selfie.</p>
        <AutoComplete
          className="fl-hero-event"
          options={options}
          value={text}
          onChange={setText}
          onSelect={choose}
          aria-label="Event"
        >
          <Input.Search size="large" placeholder="Search your event" />
        </AutoComplete>
        {selected ? (
          <div className="fl-hero-panel" data-testid="hero-panel">
            <div className="fl-hero-event-name">{selected.event_name}</div>
            {tabs.length > 0 ? <Tabs items={tabs} /> : null}
            {!selected.issearchable && !selected.preorder_allowed ? (
              <Typography.Text className="fl-hero-note">Photos of this event are not available for search yet.</Typography.Text>
            ) : null}
            {!selected.issearchable && selected.preorder_allowed ? (
              <Button type="primary" onClick={() => navigate(`/preorder?eventId=${selected.event_id}`)}>
                Pre Order
              </Button>
            ) : null}
            <div className="fl-hero-links">
              {selected.preorder_allowed ? (
                <Button type="link" onClick={() => onPreBookedPhotos(selected)}>
                  Pre-Booked Photos
                </Button>
              ) : null}
              {selected.showunlabeled ? (
                <Button type="link" onClick={() => navigate('/unlabeled-events')}>
                  Unlabeled Photos
                </Button>
              ) : null}
            </div>
          </div>
        ) : null}
        <Button type="link" className="fl-hero-advanced-toggle" onClick={() => setAdvanced(!advanced)} aria-expanded={advanced}>
          Advanced Search
        </Button>
        {advanced ? <div className="fl-hero-advanced">{renderAdvancedSearch()}</div> : null}
      </div>
    </section>
  );
}
