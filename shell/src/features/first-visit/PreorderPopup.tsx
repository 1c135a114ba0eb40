import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Button, Modal } from 'antd';
import { eventsApi, getRuntimeConfig, STORAGE_KEYS, type EventSummary, localStore } from '@finishline/shared';
import { popupEvent, shouldShowPreorderPopup } from './preorderPopupRules';
import { COOKIE_CONSENT_EVENT, hasCookieConsent } from './cookieConsent';

const HOME_PATHS = ['/', '/home'];

const formatDate = (iso: string) => new Date(`${iso}T00:00:00`).toLocaleDateString('en-IN', { day: 'numeric', month: 'long', year: 'numeric' });

/** The home page's upcoming-marathon pre-order popup with 'Pre Order' and 'Ignore'. */
export function PreorderPopup() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [event, setEvent] = useState<EventSummary | null>(null);
  // One dialog at a time: the popup follows the cookie dialog's answer.
  const [consented, setConsented] = useState(hasCookieConsent);
  const onHome = HOME_PATHS.includes(pathname.toLowerCase());

  useEffect(() => {
    const onConsent = () => setConsented(true);
    window.addEventListener(COOKIE_CONSENT_EVENT, onConsent);
    return () => window.removeEventListener(COOKIE_CONSENT_EVENT, onConsent);
  }, []);

  useEffect(() => {
    const { preorderPopupUntil, preorderPopupEventId } = getRuntimeConfig();
    if (!consented || !onHome || !shouldShowPreorderPopup(localStore.get(STORAGE_KEYS.preOrderPopupShown), preorderPopupUntil)) return;
    let alive = true;
    eventsApi
      .eventNames()
      .then((answer) => alive && setEvent(popupEvent(answer.result.events, preorderPopupEventId, preorderPopupUntil)))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [onHome, consented]);

  const close = () => {
    localStore.set(STORAGE_KEYS.preOrderPopupShown, 'true');
    setEvent(null);
  };
  const preOrder = () => {
    if (!event) return;
    close();
    navigate(`/preorder?eventId=${event.event_id}`, {
      state: { eventId: event.event_id, eventName: event.event_name, image: event.event_logo, fromDate: event.event_from_date, toDate: event.event_to_date },
    });
  };

  return (
    <Modal
      open={onHome && event !== null}
      title="Pre-order your race photos"
      onCancel={close}
      footer={[
        <Button key="ignore" onClick={close}>
          Ignore
        </Button>,
        <Button key="preorder" type="primary" onClick={preOrder}>
          Pre Order
        </Button>,
      ]}
    >
      {event ? (
        <div data-testid="preorder-popup">
          {event.event_logo ? <img src={event.event_logo} alt="" style={{ maxHeight: 72, marginBottom: 8 }} /> : null}
          <p style={{ fontWeight: 600, marginBottom: 4 }}>{event.event_name}</p>
          <p style={{ marginBottom: 4 }}>Race day: {formatDate(event.event_from_date)}</p>
          <p>Running it? Pre-order your photos now at the early price and get your download link as soon as the photos are out.</p>
        </div>
      ) : null}
    </Modal>
  );
}
