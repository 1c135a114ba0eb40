import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, Select, Spin } from 'antd';
import { isApiError, localStore, STORAGE_KEYS, supplyApi, type SupplyEvent } from '@finishline/shared';

/**
 * The photographer's choice of event on the upload and review screens: the events whose organiser
 * approved them. A runner or an organiser is sent to /unauthorizeduser, a visitor to sign in.
 * The screen opens on the event chosen last (on either screen) while it is still approved, or on
 * the only one, so moving from Upload to My Photos does not ask for the event again.
 */
export function SupplyEventPicker(props: { value: number | null; onChange: (eventId: number) => void; redirectTo: string }) {
  const navigate = useNavigate();
  const [events, setEvents] = useState<SupplyEvent[] | null>(null);
  const { value, onChange, redirectTo } = props;
  useEffect(() => {
    supplyApi
      .events()
      .then(({ result }) => {
        setEvents(result);
        if (value !== null) return;
        const remembered = Number(localStore.get(STORAGE_KEYS.supplyEventId));
        const preselected = result.find((e) => e.eventId === remembered) ?? (result.length === 1 ? result[0] : undefined);
        if (preselected) onChange(preselected.eventId);
      })
      .catch((error: unknown) => {
        if (isApiError(error) && error.statusCode === 401) navigate('/sign-in', { replace: true, state: { redirectTo } });
        else navigate('/unauthorizeduser', { replace: true });
      });
  }, [navigate, redirectTo, onChange, value]);
  if (!events) return <Spin />;
  if (events.length === 0)
    return <Alert type="info" showIcon message="No event has approved you as a photographer yet. Register for an event on the Registration page." />;
  return (
    <Select
      aria-label="Event"
      data-testid="supply-event"
      style={{ width: 320, maxWidth: '100%' }}
      placeholder="Choose an event"
      value={value ?? undefined}
      onChange={(eventId: number) => {
        localStore.set(STORAGE_KEYS.supplyEventId, String(eventId));
        onChange(eventId);
      }}
      options={events.map((e) => ({ value: e.eventId, label: e.eventName }))}
    />
  );
}
