import { useEffect, useState, type ReactNode } from 'react';
import { App, Button, Input, Radio, Select, Space, Tag, Typography } from 'antd';
import { discoveryApi, eventsApi, isApiError, type BibAvailabilityEntry, type EventSummary, type EventThemes } from '@finishline/shared';
import { needsPaging, pageCount, pageRows, type AdvancedMode } from '../advancedSearchRules';
import '../advanced-search.css';

interface Props {
  /** What opens the photos of one event + BIB (the app wires the BIB search here). */
  renderOpenPhotos: (event: EventSummary, bib: string) => ReactNode;
}

/**
 * Advanced search: choose a theme or a year (both from the server), get that theme's or year's
 * events, enter a BIB per event and see which have photos. Previous/Next appear only with more than
 * 4 rows (by theme) or 5 rows (by year).
 */
export function AdvancedSearch({ renderOpenPhotos }: Props) {
  const { message } = App.useApp();
  const [themes, setThemes] = useState<EventThemes | null>(null);
  const [mode, setMode] = useState<AdvancedMode>('theme');
  const [choice, setChoice] = useState<string | null>(null);
  const [events, setEvents] = useState<EventSummary[]>([]);
  const [bibs, setBibs] = useState<Record<number, string>>({});
  const [found, setFound] = useState<Record<number, BibAvailabilityEntry>>({});
  const [page, setPage] = useState(0);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    eventsApi
      .eventThemes()
      .then((answer) => setThemes(answer.result))
      .catch(() => setThemes({ evtthemes: [], evtyears: [] }));
  }, []);

  const pick = async (value: string) => {
    setChoice(value);
    setPage(0);
    setFound({});
    setLoading(true);
    try {
      const answer = await eventsApi.multiEventList(value);
      setEvents(answer.result);
    } catch (error) {
      setEvents([]);
      message.warning(isApiError(error) ? error.message : 'Server Error');
    } finally {
      setLoading(false);
    }
  };

  const check = async () => {
    const entries = events.filter((e) => (bibs[e.event_id] ?? '').trim()).map((e) => ({ eventID: e.event_id, bibNumber: bibs[e.event_id]!.trim() }));
    if (entries.length === 0) {
      message.warning('Please enter a BIB number for at least one event.');
      return;
    }
    setLoading(true);
    try {
      const answer = await discoveryApi.bibAvailability({ entries });
      setFound(Object.fromEntries(answer.result.map((entry) => [entry.eventID, entry])));
    } catch (error) {
      message.warning(isApiError(error) ? error.message : 'Server Error');
    } finally {
      setLoading(false);
    }
  };

  const options =
    mode === 'theme'
      ? (themes?.evtthemes ?? []).map((t) => ({ value: t.evtcode, label: t.evtname }))
      : (themes?.evtyears ?? []).map((y) => ({ value: String(y.evtyear), label: String(y.evtyear) }));
  const visible = pageRows(mode, events, page);
  const pages = pageCount(mode, events.length);

  return (
    <div className="fl-advanced" data-testid="advanced-search">
      <Space wrap>
        <Radio.Group
          value={mode}
          onChange={(change) => {
            setMode(change.target.value as AdvancedMode);
            setChoice(null);
            setEvents([]);
            setFound({});
            setPage(0);
          }}
          optionType="button"
          options={[
            { value: 'theme', label: 'By event' },
            { value: 'year', label: 'By year' },
          ]}
        />
        <Select
          className="fl-advanced-select"
          placeholder={mode === 'theme' ? 'Choose a theme' : 'Choose a year'}
          aria-label={mode === 'theme' ? 'Theme' : 'Year'}
          value={choice}
          options={options}
          onChange={(value: string) => void pick(value)}
          loading={!themes}
        />
      </Space>
      {choice && !loading && events.length === 0 ? <Typography.Paragraph className="fl-advanced-empty">No events found.</Typography.Paragraph> : null}
      {events.length > 0 ? (
        <>
          <table className="fl-advanced-table">
            <thead>
              <tr>
                <th>Event</th>
                <th>BIB number</th>
                <th>Photos</th>
              </tr>
            </thead>
            <tbody>
              {visible.map((event) => {
                const entry = found[event.event_id];
                const bib = bibs[event.event_id] ?? '';
                return (
                  <tr key={event.event_id} data-testid="advanced-row">
                    <td>
                      <div className="fl-advanced-event">{event.event_name}</div>
                      <div className="fl-advanced-date">{event.event_from_date}</div>
                    </td>
                    <td>
                      <Input
                        value={bib}
                        aria-label={`BIB for ${event.event_name}`}
                        placeholder="BIB"
                        onChange={(change) => setBibs({ ...bibs, [event.event_id]: change.target.value })}
                        onPressEnter={() => void check()}
                      />
                    </td>
                    <td>
                      {entry && entry.bibNumber === bib.trim().toUpperCase() ? (
                        entry.hasPhotos ? (
                          <Space wrap>
                            <Tag color="green">
                              {entry.photoCount} photos{entry.videoCount > 0 ? `, ${entry.videoCount} videos` : ''}
                            </Tag>
                            {renderOpenPhotos(event, entry.bibNumber)}
                          </Space>
                        ) : (
                          <Tag>No photos</Tag>
                        )
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <div className="fl-advanced-footer">
            {needsPaging(mode, events.length) ? (
              <Space>
                <Button onClick={() => setPage(page - 1)} disabled={page === 0}>
                  Previous
                </Button>
                <span>
                  {page + 1} / {pages}
                </span>
                <Button onClick={() => setPage(page + 1)} disabled={page >= pages - 1}>
                  Next
                </Button>
              </Space>
            ) : (
              <span />
            )}
            <Button type="primary" onClick={() => void check()} loading={loading}>
              Check photos
            </Button>
          </div>
        </>
      ) : null}
    </div>
  );
}
