import { useEffect, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSetAtom } from 'jotai';
import { Button, Skeleton } from 'antd';
import { removeFirstPaint, type EventSummary } from '@finishline/shared';
import { useDocumentTitle } from '@finishline/shared/react';
import { useEventNames, useHomePage } from '../api/useHomeData';
import { rememberSelectedEvent, selectedEventAtom } from '../state/selectedEvent';
import { HeroSearch } from '../components/HeroSearch';
import { EventSection, EventSectionByYear } from '../components/EventSection';
import '../home.css';

interface HomePageProps {
  renderBibSearch: (event: EventSummary) => ReactNode;
  renderSelfieSearch: (event: EventSummary) => ReactNode;
  renderAdvancedSearch: () => ReactNode;
  onPreBookedPhotos: (event: EventSummary) => void;
}

/** Home: hero with search, highlights of the season, upcoming, past and featured events (spec order). */
export function HomePage({ renderBibSearch, renderSelfieSearch, renderAdvancedSearch, onPreBookedPhotos }: HomePageProps) {
  useDocumentTitle('Finishline | Find your race photos');
  const navigate = useNavigate();
  const { home, loading } = useHomePage();
  const events = useEventNames();
  const setSelected = useSetAtom(selectedEventAtom);
  // The page's early hero gives way to this hero's picture; with no picture to show, it goes now.
  const pictured = !!home?.hero_image?.image;
  useEffect(() => {
    if (!loading && !pictured) removeFirstPaint();
  }, [loading, pictured]);

  // A card chooses its event in the hero, where the search is.
  const chooseFromCard = (event: EventSummary) => {
    setSelected(event);
    void rememberSelectedEvent(event);
    window.scrollTo({ top: 0, behavior: 'smooth' });
  };
  const preOrder = (event: EventSummary) => navigate(`/preorder?eventId=${event.event_id}`);

  return (
    <div className="fl-home">
      <HeroSearch
        heroImage={home?.hero_image ?? null}
        events={events}
        renderBibSearch={renderBibSearch}
        renderSelfieSearch={renderSelfieSearch}
        renderAdvancedSearch={renderAdvancedSearch}
        onPreBookedPhotos={onPreBookedPhotos}
      />
      {loading ? (
        // A screen tall, like the outlet's placeholder: when /api/home answers after the page's code, the footer waits below the fold instead of jumping down.
        <div className="fl-section fl-home-loading">
          <Skeleton active paragraph={{ rows: 6 }} />
        </div>
      ) : home ? (
        <>
          {(home.highlight_season ?? []).length > 0 ? (
            <section className="fl-section" data-testid="highlights">
              <h2 className="fl-section-title">Highlights of the season</h2>
              <div className="fl-highlights">
                {home.highlight_season.map((item) => (
                  <img key={item.id} src={item.s3} alt="Highlight of the season" loading="lazy" decoding="async" />
                ))}
              </div>
            </section>
          ) : null}
          {home.upcoming_event ? (
            <EventSection title="Upcoming Events" testId="upcoming-events" events={home.upcoming_event} onChoose={chooseFromCard} onPreOrder={preOrder} />
          ) : null}
          {home.past_event ? <EventSectionByYear title="Past Events" testId="past-events" byYear={home.past_event} onChoose={chooseFromCard} /> : null}
          {home.feature_event ? (
            <EventSectionByYear title="Featured Events" testId="featured-events" byYear={home.feature_event} onChoose={chooseFromCard} />
          ) : null}
          {/* The slam_events variant of the home result: events of one series (e.g. a grand slam) together. */}
          {/* Shown once the event list names its events (no greyed-out buttons while it loads). */}
          {Object.entries(home.slam_events ?? {}).map(([series, list]) => {
            const found = list.flatMap((item) => events.filter((candidate) => candidate.event_id === item.event_id).map((event) => ({ item, event })));
            if (found.length === 0) return null;
            return (
              <section key={series} className="fl-section" data-testid="slam-events">
                <h2 className="fl-section-title">{series}</h2>
                <div className="fl-slam-list">
                  {found.map(({ item, event }) => (
                    <Button key={item.event_id} onClick={() => chooseFromCard(event)}>
                      {item.event_name}
                    </Button>
                  ))}
                </div>
              </section>
            );
          })}
        </>
      ) : null}
    </div>
  );
}
