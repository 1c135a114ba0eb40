import { atom } from 'jotai';
import { eventsApi, STORAGE_KEYS, type EventSummary, localStore } from '@finishline/shared';

/** The event chosen in the hero (or from an event card). */
export const selectedEventAtom = atom<EventSummary | null>(null);

/** Cached per-event data that an event change must clear (spec: "Event change"). */
const PER_EVENT_KEYS = [STORAGE_KEYS.achievementsEligibility, STORAGE_KEYS.eventTemplateData, STORAGE_KEYS.eventPhotosData];

/**
 * Remembers the chosen event and opens a search session for it: the server answers with the
 * caller's session token when it is still valid, otherwise a new anonymous one, which is stored.
 */
export async function rememberSelectedEvent(event: EventSummary): Promise<void> {
  const previousId = localStore.get(STORAGE_KEYS.selectedEventId);
  if (previousId !== String(event.event_id)) PER_EVENT_KEYS.forEach((key) => localStore.remove(key));
  localStore.set(STORAGE_KEYS.selectedEvent, event.event_name);
  localStore.set(STORAGE_KEYS.selectedEventId, String(event.event_id));
  localStore.set(STORAGE_KEYS.eventId, String(event.event_id));
  try {
    const answer = await eventsApi.eventDetails({
      eventID: event.event_id,
      eventName: event.event_name,
      sessionToken: localStore.get(STORAGE_KEYS.sessionToken) ?? undefined,
    });
    localStore.set(STORAGE_KEYS.sessionToken, answer.result.session_token);
  } catch {
    // The search works without a session token; privacy-checked events will ask again.
  }
}
