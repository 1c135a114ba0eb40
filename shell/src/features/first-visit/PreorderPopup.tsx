import { Suspense, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { eventsApi, getRuntimeConfig, readLocalSession, STORAGE_KEYS, type EventSummary, localStore } from '@finishline/shared';
import { lazyPage } from '@finishline/shared/react';
import { popupEvent, popupMayOpen, shouldShowPreorderPopup } from './preorderPopupRules';
import { hasCookieConsent } from './cookieConsent';

const HOME_PATHS = ['/', '/home'];

// antd's Modal is not part of the shell's first load: the dialog's file loads when there is an event to offer.
const PreorderDialog = lazyPage(() => import('./PreorderDialog'), 'PreorderDialog');

/** The home page's upcoming-marathon pre-order popup with 'Pre Order' and 'Ignore'. */
export function PreorderPopup() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [event, setEvent] = useState<EventSummary | null>(null);
  // Read once per page load: a cookie answer given now makes the popup wait for the next visit.
  const [consentedBeforeThisVisit] = useState(hasCookieConsent);
  const onHome = HOME_PATHS.includes(pathname.toLowerCase());
  // Rendered from the first event on, so it keeps antd's closing animation.
  const [dialogUsed, setDialogUsed] = useState(false);

  useEffect(() => {
    const { preorderPopupUntil, preorderPopupEventId } = getRuntimeConfig();
    // The session is read as the home page shows (an organiser who just signed in is at work).
    const { isOrganiser, isPartner } = readLocalSession();
    if (!onHome || !popupMayOpen({ consentedBeforeThisVisit, isOrganiser, isPartner })) return;
    if (!shouldShowPreorderPopup(localStore.get(STORAGE_KEYS.preOrderPopupShown), preorderPopupUntil)) return;
    let alive = true;
    eventsApi
      .eventNames()
      .then((answer) => alive && setEvent(popupEvent(answer.result.events, preorderPopupEventId, preorderPopupUntil)))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [onHome, consentedBeforeThisVisit]);

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

  if (event && !dialogUsed) setDialogUsed(true);
  return dialogUsed ? (
    <Suspense fallback={null}>
      <PreorderDialog open={onHome && event !== null} event={event} onIgnore={close} onPreOrder={preOrder} />
    </Suspense>
  ) : null;
}
