import { useState } from 'react';
import { Alert, App, Button, Empty, Grid, Pagination, Tabs } from 'antd';
import { CheckCircleFilled, EditOutlined } from '@ant-design/icons';
import {
  CERTIFICATE_LIMITS,
  CERTIFICATE_MESSAGES,
  certificateApi,
  discoveryApi,
  localStore,
  STORAGE_KEYS,
  type CertificatePhoto,
  type TemplateDetailsResult,
} from '@finishline/shared';
import { allSelected, selectedCount, type CertificateEventRow } from '../state/steps';
import { BuyOffer } from './BuyOffer';

export const PAGE_FAILED = 'Failed to fetch images for page. Please try again.';
export const TEMPLATE_FAILED = 'Failed to fetch template details. Please try again.';

interface SelectStepProps {
  events: CertificateEventRow[];
  onToggle: (eventId: number, photo: CertificatePhoto) => void;
  onPage: (eventId: number, images: CertificatePhoto[], pagination: CertificateEventRow['pagination']) => void;
  onTemplate: (template: TemplateDetailsResult) => void;
  onEditSearch: () => void;
}

/**
 * Step 2, Select Image: one tab per event and BIB (on a phone, one section after another: three event
 * names do not fit a 360 px tab bar, and antd's overflow menu inside the tab list is not accessible),
 * a page of photos each, one photo chosen per event.
 */
export function SelectStep({ events, onToggle, onPage, onTemplate, onEditSearch }: SelectStepProps) {
  const { message } = App.useApp();
  const phone = Grid.useBreakpoint().sm === false;
  const [active, setActive] = useState(String(events[0]?.eventId ?? ''));
  const [paging, setPaging] = useState(false);
  const [next, setNext] = useState(false);

  const openPage = async (row: CertificateEventRow, page: number) => {
    setPaging(true);
    try {
      const { result } = await discoveryApi.paginatePhotos({
        event_id: row.eventId,
        bib_number: row.bibNumber,
        _token: localStore.get(STORAGE_KEYS.sessionToken) ?? undefined,
        page,
        per_page: CERTIFICATE_LIMITS.photosPerPage,
      });
      const participant = row.eventImages[0]?.participant_details ?? { name: '', finish_time: null };
      onPage(
        row.eventId,
        result.photos.map((p) => ({ id: p.id, s3: p.s3, image: p.image, photo_id: p.imageid, event_id: row.eventId, participant_details: participant })),
        result.pagination,
      );
    } catch {
      message.error(PAGE_FAILED);
    } finally {
      setPaging(false);
    }
  };

  const goNext = async () => {
    if (!allSelected(events)) {
      message.warning(CERTIFICATE_MESSAGES.selectImage);
      return;
    }
    setNext(true);
    try {
      const selected = Object.fromEntries(events.map((e) => [String(e.eventId), e.selectedImage!.id]));
      const { result } = await certificateApi.templateDetails({ achievement_id: events[0].achievement_id, selected_photos: selected });
      localStore.setJson(STORAGE_KEYS.eventTemplateData, result.template);
      localStore.setJson(STORAGE_KEYS.eventPhotosData, result.photos);
      onTemplate(result);
    } catch {
      message.error(TEMPLATE_FAILED);
    } finally {
      setNext(false);
    }
  };

  const eventLabel = (row: CertificateEventRow) => (
    <span data-testid="certificate-tab">
      {row.eventName} · {row.bibNumber} {row.selectedImage ? <CheckCircleFilled className="fl-cert-check" aria-label="Image chosen" /> : null}
    </span>
  );

  const offer = (row: CertificateEventRow) =>
    row.photosUsable ? null : (
      <BuyOffer
        eventId={row.eventId}
        eventName={row.eventName}
        bibNumber={row.bibNumber}
        text={CERTIFICATE_MESSAGES.previewsOnly(row.eventName, row.bibNumber)}
      />
    );

  const eventPhotos = (row: CertificateEventRow) =>
    row.eventImages.length === 0 ? (
      <Empty
        description={
          <>
            No images found for this event and BIB number.
            <br />
            Please check your selections or try editing the search.
          </>
        }
      />
    ) : (
      <>
        {offer(row)}
        <h3 className="fl-cert-found">Found {row.pagination.total} Photos - Click to Select</h3>
        <div className="fl-cert-grid" data-testid="certificate-grid">
          {row.eventImages.map((photo) => {
            const chosen = row.selectedImage?.id === photo.id;
            return (
              <button
                type="button"
                key={photo.id}
                className={`fl-cert-thumb${chosen ? ' fl-cert-thumb-chosen' : ''}`}
                aria-pressed={chosen}
                aria-label={`Photo ${photo.photo_id}`}
                onClick={() => onToggle(row.eventId, photo)}
              >
                <img src={photo.image} alt={`Photo ${photo.photo_id}`} loading="lazy" />
                {chosen ? <CheckCircleFilled className="fl-cert-thumb-mark" /> : null}
              </button>
            );
          })}
        </div>
        {row.pagination.total > row.pagination.per_page ? (
          <Pagination
            className="fl-cert-pages"
            current={row.pagination.current_page}
            pageSize={row.pagination.per_page}
            total={row.pagination.total}
            showSizeChanger={false}
            disabled={paging}
            onChange={(page) => void openPage(row, page)}
          />
        ) : null}
      </>
    );

  return (
    <section className="fl-cert-step" data-testid="certificate-select">
      <div className="fl-cert-toolbar">
        <Button icon={<EditOutlined />} onClick={onEditSearch}>
          Edit Search
        </Button>
      </div>
      <Alert type="info" showIcon title="Select one image per event" className="fl-cert-banner" />
      {phone ? (
        events.map((row) => (
          <section key={row.eventId} className="fl-cert-event" data-testid="certificate-event" aria-label={`${row.eventName} · ${row.bibNumber}`}>
            <h2 className="fl-cert-event-name">{eventLabel(row)}</h2>
            {eventPhotos(row)}
          </section>
        ))
      ) : (
        <Tabs
          activeKey={active}
          onChange={setActive}
          items={events.map((row) => ({ key: String(row.eventId), label: eventLabel(row), children: eventPhotos(row) }))}
        />
      )}
      <footer className="fl-cert-footer">
        <span data-testid="certificate-selected-count">
          {selectedCount(events)}/{events.length} images selected
        </span>
        <Button type="primary" loading={next} onClick={() => void goNext()}>
          Next
        </Button>
      </footer>
    </section>
  );
}
