import { expect, type Page } from '@playwright/test';
import { API_URL } from './system';

export const DEMO_EVENT = 'Mumbai Coastal Marathon 2026';
export const DEMO_BIB = 'TT20608';
/** The BIB box's hint: the spec's sentence with an example in the chosen event's own BIB format. */
export const BIB_PLACEHOLDER = /^Enter your BIB number \(ex: [A-Z0-9-]+\)$/;

/** Types in the hero's event autocomplete and picks the event. */
export async function chooseEvent(page: Page, eventName = DEMO_EVENT): Promise<void> {
  await page.getByPlaceholder('Search your event').fill(eventName);
  await page
    .locator('.ant-select-item-option')
    .filter({ hasText: new RegExp(`^${eventName}$`) })
    .click();
  await expect(page.getByTestId('hero-panel')).toContainText(eventName);
}

interface EventRow {
  event_id: number;
  event_name: string;
}

/** Asks the API directly, to compare what the page shows with what the server answers. */
export async function apiEventId(eventName = DEMO_EVENT): Promise<number> {
  const body = (await (await fetch(`${API_URL}/api/events/names`)).json()) as { result: { events: EventRow[] } };
  const event = body.result.events.find((candidate) => candidate.event_name === eventName);
  if (!event) throw new Error(`${eventName} is not in the demo data`);
  return event.event_id;
}

export async function apiBibSearch(
  bibNumber: string,
  eventName = DEMO_EVENT,
): Promise<{ status: number; Message: string; photos: number; totalPhotos: number; photoIds: number[] }> {
  const eventID = await apiEventId(eventName);
  const response = await fetch(`${API_URL}/api/search/bib`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ eventName, eventID, bibNumber }),
  });
  const body = (await response.json()) as { Message: string; result: { photo: Array<{ id: number }>; total_image_count: number } | null };
  return {
    status: response.status,
    Message: body.Message,
    photos: body.result?.photo.length ?? 0,
    totalPhotos: body.result?.total_image_count ?? 0,
    photoIds: body.result?.photo.map((photo) => photo.id) ?? [],
  };
}
