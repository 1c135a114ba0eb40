import { useState } from 'react';
import { Button, Input } from 'antd';
import { bibPlaceholderFor, type EventSummary } from '@finishline/shared';
import { useBibSearch } from '../api/useBibSearch';
import { ProcessingOverlay } from '@finishline/shared/react';
import '../search.css';

/** The spec's hint; an event with a BIB format of its own shows an example in that format instead. */
export const BIB_PLACEHOLDER = bibPlaceholderFor(null);

/** BIB input with 'Find My Photos' (stacked on phones so the placeholder stays readable); the Enter key searches too. */
export function BibSearchForm({ event }: { event: EventSummary }) {
  const [bib, setBib] = useState('');
  const { search, processing } = useBibSearch(event);
  return (
    <>
      <div className="fl-bib-form">
        <Input
          size="large"
          value={bib}
          placeholder={bibPlaceholderFor(event.bib_example)}
          aria-label="BIB number"
          onChange={(change) => setBib(change.target.value)}
          onPressEnter={() => void search(bib)}
          disabled={processing}
        />
        <Button size="large" type="primary" onClick={() => void search(bib)} loading={processing}>
          Find My Photos
        </Button>
      </div>
      {processing ? <ProcessingOverlay /> : null}
    </>
  );
}
