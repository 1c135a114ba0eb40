import { useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { Alert, App as AntApp, Tag } from 'antd';
import {
  isApiError,
  localStore,
  partnerApi,
  readLocalSession,
  STORAGE_KEYS,
  type PartnerEventOption,
  type PartnerLookupResult,
  type RegisterPartnerInput,
} from '@finishline/shared';
import { ProcessingOverlay, useAccessRefused, useDocumentTitle } from '@finishline/shared/react';
import { EventPicker } from '../components/EventPicker';
import { PartnerForm } from '../components/PartnerForm';

const STATUS_TEXT = {
  pending: ['orange', 'Waiting for the organiser’s approval'],
  approved: ['green', 'Approved'],
  rejected: ['red', 'Not approved'],
} as const;

/**
 * /registration: a signed-in photographer picks a searchable event and registers for it (form_type 0,
 * the reply starts with Welcome) or updates their details (form_type 1). The event's organiser
 * approves or rejects the registration on the Event Dashboard.
 */
export function RegistrationPage() {
  const { message } = AntApp.useApp();
  const session = readLocalSession();
  const refused = useAccessRefused('/registration');
  const [events, setEvents] = useState<PartnerEventOption[]>([]);
  const [event, setEvent] = useState<PartnerEventOption | null>(null);
  const [found, setFound] = useState<PartnerLookupResult | null>(null);
  const [reply, setReply] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useDocumentTitle('Event registration');

  useEffect(() => {
    if (!session.signedIn) return;
    partnerApi
      .events()
      .then(({ result }) => setEvents(result))
      .catch((error: unknown) => {
        if (!refused(error)) message.error('Error');
      });
  }, [session.signedIn, refused, message]);

  const choose = (next: PartnerEventOption) => {
    setEvent(next);
    setFound(null);
    setReply(null);
    setBusy(true);
    partnerApi
      .lookup({ eventId: next.event_id })
      .then(({ result }) => setFound(result))
      .catch((error: unknown) => {
        if (!refused(error)) message.error(isApiError(error) && error.kind === 'http' ? error.message : 'Error');
      })
      .finally(() => setBusy(false));
  };

  const submit = async (values: RegisterPartnerInput) => {
    setBusy(true);
    setReply(null);
    try {
      const answer = await partnerApi.register({
        ...values,
        form_type: values.form_type as 0 | 1,
        isterms: values.isterms as 1,
        bankacctype: values.bankacctype as 1 | 2,
        event_id: values.eventId,
      });
      // The server made this account a partner: the navbar's partner pages appear without signing in again.
      localStore.set(STORAGE_KEYS.isPartner, 'true');
      setReply(answer.message);
      message.success(answer.message);
      setFound((f) => f && { ...f, form_type: 1, partner: answer.result.partner, registration: answer.result.registration });
    } catch (error) {
      if (!refused(error)) message.error(isApiError(error) && error.kind === 'http' ? error.message : 'Error');
    } finally {
      setBusy(false);
    }
  };

  if (!session.signedIn) return <Navigate to="/sign-in" replace state={{ redirectTo: '/registration' }} />;
  const status = found?.registration ? STATUS_TEXT[found.registration.status] : null;
  return (
    <div className="fl-partner-page" data-testid="partner-registration" style={{ maxWidth: 720, margin: '0 auto', padding: 16 }}>
      <h1>Event registration</h1>
      <p>Photographers register for an event with their bank and tax details. The event’s organiser approves each registration.</p>
      <EventPicker events={events} selected={event} onSelect={choose} />
      {reply ? <Alert type="success" showIcon title={reply} data-testid="partner-reply" style={{ marginBottom: 16 }} /> : null}
      {status ? (
        <p data-testid="partner-status">
          Your registration for this event: <Tag color={status[0]}>{status[1]}</Tag>
        </p>
      ) : null}
      {event && found ? <PartnerForm event={event} found={found} busy={busy} onSubmit={(v) => void submit(v)} /> : null}
      {busy && !found ? <ProcessingOverlay /> : null}
    </div>
  );
}
