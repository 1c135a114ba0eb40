import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAtom } from 'jotai';
import { AutoComplete, Button, Input, Tabs, Typography } from 'antd';
import { HERO_IMAGE_SIZES, type EventSummary, type HeroImage } from '@finishline/shared';
import { useReplacesFirstPaint } from '@finishline/shared/react';
import { rememberSelectedEvent, selectedEventAtom } from '../state/selectedEvent';
import { HERO_SUBTITLE, HERO_TITLE } from '../heroText';

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

/**
 * The hero's picture: WebP or JPEG at the width the screen needs (HERO_IMAGE_SIZES, the same as the
 * page's preload, so one file is downloaded). The shell's page may have painted a copy of it before
 * the JavaScript ran (FIRST_PAINT_ID); that copy is removed once this one is shown, in the same frame
 * when the file is in memory already, so the hero does not blink or move.
 */
function HeroPicture({ image }: { image: HeroImage }) {
  const handover = useReplacesFirstPaint();
  const sources = image.sources ?? [];
  const jpeg = sources.find((source) => source.type === 'image/jpeg');
  return (
    <picture>
      {sources
        .filter((source) => source !== jpeg)
        .map((source) => (
          <source key={source.type} type={source.type} srcSet={source.srcset} sizes={HERO_IMAGE_SIZES} />
        ))}
      <img
        ref={handover.ref}
        className="fl-hero-image"
        src={image.image}
        srcSet={jpeg?.srcset}
        sizes={jpeg ? HERO_IMAGE_SIZES : undefined}
        width={image.width}
        height={image.height}
        alt={image.alt}
        fetchPriority="high"
        onLoad={handover.onLoad}
        onError={handover.onError}
      />
    </picture>
  );
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
        ...(selected.selfiesearch ? [{ key: 'selfie', label: 'Search by Selfie', children: renderSelfieSearch(selected) }] : []),
      ]
    : [];

  return (
    <section className={heroImage?.image ? 'fl-hero fl-hero-pictured' : 'fl-hero'} data-testid="hero">
      {heroImage?.image ? <HeroPicture image={heroImage} /> : null}
      <div className="fl-hero-inner">
        <h1 className="fl-hero-title">{HERO_TITLE}</h1>
        <p className="fl-hero-subtitle">{HERO_SUBTITLE}</p>
        <AutoComplete className="fl-hero-event" options={options} value={text} onChange={setText} onSelect={choose} aria-label="Event">
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
