import { useEffect, useState } from 'react';
import { App } from 'antd';
import { eventsApi, STORAGE_KEYS, arrivedHome, forgetArrivedHome, type EventSummary, type HomePageResult, localStore } from '@finishline/shared';

export const EVENTS_LOAD_FAILED = 'Failed to load events. Please refresh the page.';

/** The home page sections (upcoming, past, featured, highlights, hero image). Failure: toast with the server's Message. */
export function useHomePage() {
  const { message } = App.useApp();
  // The page's inline script has usually received it already: the first render then shows the hero.
  const [arrived] = useState(arrivedHome);
  const [home, setHome] = useState<HomePageResult | null>(arrived);
  const [loading, setLoading] = useState(arrived === null);
  useEffect(() => {
    if (arrived) {
      forgetArrivedHome();
      return undefined;
    }
    let live = true;
    eventsApi
      .homePage()
      .then((answer) => live && setHome(answer.result))
      .catch((error: Error) => live && message.error(error.message))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [message, arrived]);
  return { home, loading };
}

/** Every event for the hero's autocomplete; the first event's name is remembered as the recent event (spec). */
export function useEventNames() {
  const { message } = App.useApp();
  const [events, setEvents] = useState<EventSummary[]>([]);
  useEffect(() => {
    let live = true;
    eventsApi
      .eventNames()
      .then((answer) => {
        if (!live) return;
        setEvents(answer.result.events);
        const first = answer.result.events[0];
        if (first && !localStore.get(STORAGE_KEYS.selectedEvent)) localStore.set(STORAGE_KEYS.selectedEvent, first.event_name);
      })
      .catch(() => live && message.error(EVENTS_LOAD_FAILED));
    return () => {
      live = false;
    };
  }, [message]);
  return events;
}
