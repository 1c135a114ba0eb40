import { atom } from 'jotai';
import { eventsApi, STORAGE_KEYS, type EventSummary } from '@finishline/shared';

/** The event chosen in the hero (or from an event card). */
export const selectedEventAtom = atom<EventSummary | null>(null);

/** Cached per-event data that an event change must clear (spec: "Event change"). */
const PER_EVENT_KEYS = [STORAGE_KEYS.achievementsEligibility, STORAGE_KEYS.eventTemplateData, STORAGE_KEYS.eventPhotosData];

/**
 * Remembers the chosen event and opens a search session for it: the server answers with the
 * caller's session token when it is still valid, otherwise a new anonymous one, which is stored.
 */
export async function rememberSelectedEvent(event: EventSummary): Promise<void> {
  const previousId = localStorage.getItem(STORAGE_KEYS.selectedEventId);
  if (previousId !== String(event.event_id)) PER_EVENT_KEYS.forEach((key) => localStorage.removeItem(key));
  localStorage.setItem(STORAGE_KEYS.selectedEvent, event.event_name);
  localStorage.setItem(STORAGE_KEYS.selectedEventId, String(event.event_id));
  localStorage.setItem(STORAGE_KEYS.eventId, String(event.event_id));
  try {
    const answer = await eventsApi.eventDetails({
      eventID: event.event_id,
      eventName: event.event_name,
      sessionToken: localStorage.getItem(STORAGE_KEYS.sessionToken) ?? undefined,
    });
    localStorage.setItem(STORAGE_KEYS.sessionToken, answer.result.session_token);
  } catch {
    // The search works without a session token; privacy-checked events will ask again.
  }
}
