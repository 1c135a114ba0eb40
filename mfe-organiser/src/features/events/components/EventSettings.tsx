import { useCallback, useEffect, useMemo, useState } from 'react';
import { App as AntApp, Alert, Button, Card, Input, Modal, Switch, Tag, Upload } from 'antd';
import {
  DASHBOARD_PAGE_SIZE,
  EVENT_SWITCH_LABELS,
  EVENT_SWITCHES,
  isApiError,
  NO_MATCHING_RECORDS,
  organiserApi,
  type EventChange,
  type EventSwitch,
  type OrganiserEvent,
  type OrganiserEventForm,
} from '@finishline/shared';
import { CsvButton, PhoneCardsTable } from '@finishline/shared/react';
import { EventForm, formOf } from './EventForm';

const messageOf = (error: unknown) => (isApiError(error) ? error.message : 'Something went wrong. Please try again.');

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** Publishing, the switches (each saved at once and recorded), the logo, the form, the audit trail and face data. */
export function EventSettings({ event, onChanged }: { event: OrganiserEvent; onChanged: (event: OrganiserEvent) => void }) {
  const { message } = AntApp.useApp();
  const [saving, setSaving] = useState(false);
  const [busySwitch, setBusySwitch] = useState<EventSwitch | null>(null);
  const [changes, setChanges] = useState<EventChange[]>([]);
  const [changesPage, setChangesPage] = useState(1);
  const [faceOpen, setFaceOpen] = useState(false);
  const [confirmName, setConfirmName] = useState('');
  // The form starts again from the event only when the event itself changes (not on every render).
  const initial = useMemo(() => formOf(event), [event]);

  const loadChanges = useCallback(() => {
    organiserApi
      .eventChanges({ eventId: event.event_id })
      .then(({ result }) => setChanges(result))
      .catch(() => setChanges([]));
  }, [event.event_id]);
  useEffect(loadChanges, [loadChanges, event]);

  // The participant list the BIB format is checked against while the organiser chooses it.
  const [participantBibs, setParticipantBibs] = useState<string[] | null>(null);
  useEffect(() => {
    let alive = true;
    organiserApi
      .participants({ eventId: event.event_id, all: true })
      .then(({ result }) => alive && setParticipantBibs(result.rows.map((row) => row.bib_number)))
      .catch(() => alive && setParticipantBibs(null));
    return () => {
      alive = false;
    };
  }, [event.event_id]);

  const apply = async (work: () => Promise<{ result: OrganiserEvent; message: string }>) => {
    try {
      const answer = await work();
      onChanged(answer.result);
      message.success(answer.message);
      return true;
    } catch (error) {
      message.error(messageOf(error));
      return false;
    }
  };

  const save = async (form: OrganiserEventForm) => {
    setSaving(true);
    // The switches are saved by their own panel: keep what the event has now.
    const switches = Object.fromEntries(EVENT_SWITCHES.map((name) => [name, event[name]]));
    await apply(() => organiserApi.updateEvent({ ...form, ...switches, eventId: event.event_id } as OrganiserEventForm & { eventId: number }));
    setSaving(false);
  };

  const flip = async (name: EventSwitch, on: boolean) => {
    setBusySwitch(name);
    await apply(() => organiserApi.setSwitch({ eventId: event.event_id, name, on }));
    setBusySwitch(null);
  };

  const deleteFaces = async () => {
    const ok = await apply(async () => {
      const answer = await organiserApi.deleteFaceData({ eventId: event.event_id, confirmName });
      const fresh = await organiserApi.event({ eventId: event.event_id });
      return { result: fresh.result, message: answer.message };
    });
    if (ok) {
      setFaceOpen(false);
      setConfirmName('');
    }
  };

  return (
    <div className="fl-org-settings">
      {event.published ? (
        <Alert type="success" showIcon message="Published: runners find this event on the home page." />
      ) : (
        <Alert
          type="warning"
          showIcon
          message="Hidden: runners cannot see this event until you publish it."
          action={
            <Button type="primary" onClick={() => apply(() => organiserApi.publishEvent({ eventId: event.event_id }))}>
              Publish
            </Button>
          }
        />
      )}

      <Card size="small" title="Photo operation switches (saved at once)">
        <div className="fl-org-switches">
          {EVENT_SWITCHES.map((name) => (
            <label key={name} className="fl-org-switch">
              <Switch checked={event[name]} loading={busySwitch === name} onChange={(on) => flip(name, on)} aria-label={EVENT_SWITCH_LABELS[name]} />{' '}
              <span>{EVENT_SWITCH_LABELS[name]}</span>
            </label>
          ))}
        </div>
      </Card>

      <Card size="small" title="Logo">
        <div style={{ display: 'flex', gap: 16, alignItems: 'center', flexWrap: 'wrap' }}>
          {event.event_logo ? (
            <img src={event.event_logo} alt={`${event.name} logo`} style={{ maxHeight: 64, maxWidth: 200 }} />
          ) : (
            <span style={{ color: '#666' }}>No logo yet.</span>
          )}
          <Upload
            accept="image/png,image/jpeg"
            showUploadList={false}
            beforeUpload={(file) => {
              void apply(async () => organiserApi.uploadLogo({ eventId: event.event_id, image: await readAsDataUrl(file) }));
              return false;
            }}
          >
            <Button>Choose a PNG or JPEG (at most 1 MB)</Button>
          </Upload>
        </div>
      </Card>

      <Card size="small" title="Course map">
        <p style={{ marginTop: 0 }}>
          Printed at the foot of this race&apos;s journey-map collages, and shown in the runner&apos;s collage preview. A PNG or JPEG of at most 5 MB.
        </p>
        <div style={{ display: 'flex', gap: 16, alignItems: 'center', flexWrap: 'wrap' }}>
          {event.course_map ? (
            <img src={event.course_map} alt={`${event.name} course map`} style={{ maxHeight: 120, maxWidth: 280 }} />
          ) : (
            <span style={{ color: '#666' }}>No course map yet.</span>
          )}
          <Upload
            accept="image/png,image/jpeg"
            showUploadList={false}
            beforeUpload={(file) => {
              void apply(async () => organiserApi.uploadCourseMap({ eventId: event.event_id, image: await readAsDataUrl(file) }));
              return false;
            }}
          >
            <Button>Choose a course map</Button>
          </Upload>
        </div>
      </Card>

      <EventForm
        initial={initial}
        printCatalogue={event.print_catalogue}
        onSubmit={save}
        submitLabel="Save changes"
        saving={saving}
        showSwitches={false}
        participantBibs={participantBibs}
      />

      <section aria-label="Changes" className="fl-org-table">
        <div className="fl-org-table-head">
          <h4 style={{ margin: 0 }}>Changes</h4>
          <CsvButton
            fileName={`event-${event.event_id}-changes.csv`}
            header={['When', 'What', 'Before', 'After', 'By']}
            rows={changes.map((c) => [c.changed_at, c.field, c.old_value, c.new_value, c.changed_by])}
          />
        </div>
        <PhoneCardsTable<EventChange>
          cardsLabel="Changes"
          size="small"
          rowKey={(c, i) => `${c.changed_at}-${c.field}-${i}`}
          dataSource={changes}
          // Long values (a certificate's settings) wrap inside their column instead of widening the
          // table past the page, where it scrolled in a frame a keyboard cannot reach.
          tableLayout="fixed"
          onRow={() => ({ style: { overflowWrap: 'anywhere' } })}
          locale={{ emptyText: NO_MATCHING_RECORDS }}
          pagination={{ current: changesPage, pageSize: DASHBOARD_PAGE_SIZE, onChange: setChangesPage, showSizeChanger: false }}
          columns={[
            { title: 'When', dataIndex: 'changed_at', render: (v: string) => new Date(v).toLocaleString('en-IN') },
            { title: 'What', dataIndex: 'field' },
            { title: 'Before', dataIndex: 'old_value', render: (v: string | null) => v ?? '-' },
            { title: 'After', dataIndex: 'new_value', render: (v: string | null) => v ?? '-' },
            { title: 'By', dataIndex: 'changed_by' },
          ]}
        />
      </section>

      <Card size="small" title="Face data (privacy)">
        <p style={{ marginTop: 0 }}>
          Deleting the event&apos;s face data removes every face found in its photos and switches search by selfie off, so nothing is indexed again. It cannot
          be undone; switching selfie search on later indexes the photos afresh.{' '}
          {event.selfiesearch ? <Tag color="blue">Selfie search is on</Tag> : <Tag>Selfie search is off</Tag>}
        </p>
        <Button danger onClick={() => setFaceOpen(true)}>
          Delete face data
        </Button>
        <Modal
          open={faceOpen}
          title="Delete the event's face data"
          okText="Delete face data"
          okButtonProps={{ danger: true, disabled: confirmName.trim().toLowerCase() !== event.name.toLowerCase() }}
          onOk={deleteFaces}
          onCancel={() => setFaceOpen(false)}
        >
          <p>Type the event&apos;s name, {event.name}, to confirm.</p>
          <Input aria-label="Event name to confirm" value={confirmName} onChange={(e) => setConfirmName(e.target.value)} />
        </Modal>
      </Card>
    </div>
  );
}
