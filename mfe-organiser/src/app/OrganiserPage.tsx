import { useCallback, useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { App as AntApp, Button, Result, Spin, Tabs, Tag } from 'antd';
import { isApiError, organiserApi, readLocalSession, type OrganiserDashboardResult, type OrganiserEvent, type OrganiserEventForm } from '@finishline/shared';
import { useDocumentTitle } from '@finishline/shared/react';
import { EventList } from '../features/dashboard/components/EventList';
import { EventRevenue } from '../features/dashboard/components/EventRevenue';
import { BLANK_EVENT, EventForm } from '../features/events/components/EventForm';
import { EventSettings } from '../features/events/components/EventSettings';
import { ParticipantsPanel } from '../features/participants/components/ParticipantsPanel';
import { PartnersPanel } from '../features/partners/components/PartnersPanel';
import { ModerationPanel } from '../features/moderation/components/ModerationPanel';
import { CertificatePanel } from '../features/certificates/components/CertificatePanel';
import { SeriesPanel } from '../features/certificates/components/SeriesPanel';
import './organiser.css';

const TAB_KEYS = ['revenue', 'event', 'participants', 'photographers', 'reports', 'certificate'] as const;
type TabKey = (typeof TAB_KEYS)[number];
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * /organization_dashboard (title Event Dashboard): the organiser's events, and for one event its
 * revenue and live ledger, its settings, participants, photographers, reported photos and its
 * finisher certificate. The server decides who may see what: a runner or partner gets 403 and goes to /unauthorizeduser.
 * ?event=<id>&tab=<tab> opens an event, ?new=1 the form for a new one.
 */
export function OrganiserPage() {
  const navigate = useNavigate();
  const { message } = AntApp.useApp();
  const [params, setParams] = useSearchParams();
  const session = readLocalSession();
  const eventId = Number(params.get('event')) || null;
  const tab: TabKey = (TAB_KEYS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as TabKey) : 'revenue';
  const creating = params.get('new') === '1';
  const [list, setList] = useState<OrganiserDashboardResult | null>(null);
  const [details, setDetails] = useState<OrganiserDashboardResult | null>(null);
  const [event, setEvent] = useState<OrganiserEvent | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useDocumentTitle('Event Dashboard');

  const refused = useCallback(
    (error: unknown) => {
      if (isApiError(error) && error.statusCode === 403) navigate('/unauthorizeduser', { replace: true });
      else if (isApiError(error) && error.statusCode === 401) navigate('/sign-in', { replace: true, state: { redirectTo: '/organization_dashboard' } });
      else setFailure(isApiError(error) && error.kind === 'http' ? error.message : 'Something went wrong !');
    },
    [navigate],
  );

  useEffect(() => {
    if (!session.signedIn) return;
    organiserApi
      .dashboard({ email: session.email ?? undefined })
      .then(({ result }) => setList(result))
      .catch(refused);
  }, [session.signedIn, session.email, refused]);

  const loadEvent = useCallback(() => {
    if (!eventId) return;
    setDetails(null);
    setEvent(null);
    organiserApi
      .dashboard({ event_id: eventId, email: session.email ?? undefined })
      .then(({ result }) => setDetails(result))
      .catch(refused);
    organiserApi
      .event({ eventId })
      .then(({ result }) => setEvent(result))
      .catch(refused);
  }, [eventId, session.email, refused]);
  useEffect(loadEvent, [loadEvent]);

  if (!session.signedIn) return <Navigate to="/sign-in" replace state={{ redirectTo: '/organization_dashboard' }} />;
  if (failure) return <Result status="warning" title={failure} />;

  const open = (id: number, next: TabKey = 'revenue') => setParams({ event: String(id), tab: next });
  const showList = () => setParams({});

  const create = async (form: OrganiserEventForm) => {
    setSaving(true);
    try {
      const answer = await organiserApi.createEvent(form);
      message.success(answer.message);
      setList(
        (l) =>
          l && {
            ...l,
            eventslist: [
              {
                event_id: answer.result.event_id,
                event_name: answer.result.name,
                event_from_date: answer.result.from_date,
                event_to_date: answer.result.to_date,
                event_location: answer.result.location,
                issearchable: answer.result.issearchable ? 1 : 0,
                published: 0,
              },
              ...l.eventslist,
            ],
          },
      );
      open(answer.result.event_id, 'event');
    } catch (error) {
      message.error(isApiError(error) ? error.message : 'Something went wrong. Please try again.');
    } finally {
      setSaving(false);
    }
  };

  const changed = (next: OrganiserEvent) => {
    setEvent(next);
    setList(
      (l) =>
        l && {
          ...l,
          eventslist: l.eventslist.map((e) =>
            e.event_id === next.event_id
              ? {
                  ...e,
                  event_name: next.name,
                  event_from_date: next.from_date,
                  event_to_date: next.to_date,
                  event_location: next.location,
                  issearchable: next.issearchable ? 1 : 0,
                  published: next.published ? 1 : 0,
                }
              : e,
          ),
        },
    );
  };

  let body;
  if (creating) {
    body = (
      <>
        <div className="fl-org-heading">
          <h2 style={{ margin: 0 }}>New event</h2>
          <Button onClick={showList}>All events</Button>
        </div>
        <p>A new event stays hidden from runners until you publish it.</p>
        <EventForm initial={BLANK_EVENT} onSubmit={create} submitLabel="Create event" saving={saving} />
      </>
    );
  } else if (eventId) {
    const name = event?.name ?? details?.eventslist[0]?.event_name ?? '';
    body = (
      <>
        <div className="fl-org-heading">
          <h2 style={{ margin: 0 }}>
            {name} {event ? event.published ? <Tag color="green">Published</Tag> : <Tag color="orange">Hidden until published</Tag> : null}
          </h2>
          <Button onClick={showList}>All events</Button>
        </div>
        <Tabs
          className="fl-org-tabs"
          activeKey={tab}
          onChange={(key) => open(eventId, key as TabKey)}
          items={[
            {
              key: 'revenue',
              label: 'Revenue',
              children: details?.totals ? <EventRevenue data={details} eventId={eventId} slug={slugOf(name) || `event-${eventId}`} /> : <Spin />,
            },
            { key: 'event', label: 'Event', children: event ? <EventSettings event={event} onChanged={changed} /> : <Spin /> },
            { key: 'participants', label: 'Participants', children: <ParticipantsPanel eventId={eventId} /> },
            { key: 'photographers', label: 'Photographers', children: <PartnersPanel eventId={eventId} /> },
            { key: 'reports', label: 'Reported photos', children: <ModerationPanel eventId={eventId} /> },
            { key: 'certificate', label: 'Certificate', children: <CertificatePanel eventId={eventId} /> },
          ]}
        />
      </>
    );
  } else {
    body = (
      <>
        <div className="fl-org-heading">
          <h2 style={{ margin: 0 }}>Your events</h2>
          <Button type="primary" onClick={() => setParams({ new: '1' })}>
            Create event
          </Button>
        </div>
        <EventList events={list?.eventslist ?? []} loading={list === null} onOpen={(id) => open(id)} />
        <SeriesPanel />
      </>
    );
  }

  return (
    <div className="fl-org-page" data-testid="event-dashboard">
      <h1>Event Dashboard</h1>
      {body}
    </div>
  );
}
