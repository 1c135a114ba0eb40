import { useState } from 'react';
import { App, Button, Input, Select } from 'antd';
import { ArrowLeftOutlined, MinusCircleOutlined, PlusCircleOutlined } from '@ant-design/icons';
import { certificateApi, certificateRowsProblem, isApiError, localStore, STORAGE_KEYS, type CertificateRow } from '@finishline/shared';
import { storedAchievementId } from '../api/useCertificateEvents';
import { canAddRow, canRemoveRow, emptyRow, eventsForRow, pairsOf, type CertificateEvent } from '../state/rows';
import type { CertificateEventRow } from '../state/steps';

export const SEARCH_FAILED = 'Failed to search images. Please check your event and BIB number.';
export const NO_RESULTS = 'No results found for the provided event-bib combinations.';

interface SearchStepProps {
  events: CertificateEvent[];
  rows: CertificateRow[];
  onRows: (rows: CertificateRow[]) => void;
  onFound: (events: CertificateEventRow[]) => void;
  onBack: () => void;
}

/** Step 1, Select Events and Enter BIB Numbers: rows of an event and a BIB, then Search. */
export function SearchStep({ events, rows, onRows, onFound, onBack }: SearchStepProps) {
  const { message } = App.useApp();
  const [searching, setSearching] = useState(false);
  const change = (index: number, row: Partial<CertificateRow>) => onRows(rows.map((r, i) => (i === index ? { ...r, ...row } : r)));

  const search = async () => {
    const problem = certificateRowsProblem(rows);
    if (problem) {
      message.warning(problem);
      return;
    }
    setSearching(true);
    try {
      const { result } = await certificateApi.searchAchievements({
        event_bib_pairs: pairsOf(rows),
        _token: localStore.get(STORAGE_KEYS.sessionToken) ?? undefined,
        page: 1,
        achievement_id: storedAchievementId(),
      });
      if (result.pairs.length === 0 || result.pairs.some((pair) => pair.photos.length === 0)) throw new Error(NO_RESULTS);
      onFound(
        result.pairs.map((pair) => ({
          eventId: pair.event_id,
          eventName: pair.event_name,
          bibNumber: pair.bib_number,
          selectedImage: null,
          eventImages: pair.photos,
          pagination: pair.pagination,
          achievement_id: pair.achievement_id,
          photosUsable: pair.photos_usable,
        })),
      );
    } catch (error) {
      message.error(
        isApiError(error) && !error.isNetworkError ? error.message : error instanceof Error && error.message === NO_RESULTS ? NO_RESULTS : SEARCH_FAILED,
      );
      window.scrollTo({ top: 0 });
    } finally {
      setSearching(false);
    }
  };

  return (
    <section className="fl-cert-step" data-testid="certificate-search">
      <Button type="text" icon={<ArrowLeftOutlined />} onClick={onBack} className="fl-cert-back">
        Back
      </Button>
      <h2 className="fl-cert-heading">Select Events and Enter BIB Numbers</h2>
      <div className="fl-cert-rows">
        {rows.map((row, index) => (
          <div className="fl-cert-row" key={index} data-testid="certificate-row">
            <span className="fl-cert-field">{index + 1}</span>
            <Select
              className="fl-cert-event"
              aria-label={`Event for field ${index + 1}`}
              placeholder="Select an event"
              value={row.eventId ?? undefined}
              disabled={events.length === 1}
              options={eventsForRow(rows, index, events).map((e) => ({ value: e.event_id, label: e.event_name }))}
              onChange={(eventId: number) => change(index, { eventId })}
            />
            <Input
              className="fl-cert-bib"
              aria-label={`BIB Number for field ${index + 1}`}
              placeholder="BIB Number"
              value={row.bibNumber}
              disabled={!row.eventId}
              maxLength={32}
              onChange={(e) => change(index, { bibNumber: e.target.value })}
              onPressEnter={() => void search()}
            />
            <span className="fl-cert-row-actions">
              {index === rows.length - 1 ? (
                <Button
                  aria-label="Add a race"
                  icon={<PlusCircleOutlined />}
                  disabled={!canAddRow(rows, events)}
                  onClick={() => onRows([...rows, emptyRow()])}
                />
              ) : null}
              {canRemoveRow(rows) ? (
                <Button aria-label={`Remove field ${index + 1}`} icon={<MinusCircleOutlined />} onClick={() => onRows(rows.filter((_, i) => i !== index))} />
              ) : null}
            </span>
          </div>
        ))}
      </div>
      <Button type="primary" size="large" loading={searching} onClick={() => void search()} className="fl-cert-search">
        {searching ? 'Searching...' : 'Search'}
      </Button>
    </section>
  );
}
