import type { EventSummary } from '@finishline/shared';

/** Spec: the popup shows once per browser (remembered) until its configured end date (inclusive). */
export function shouldShowPreorderPopup(shownFlag: string | null, until: string, today: Date = new Date()): boolean {
  if (shownFlag === 'true') return false;
  const end = new Date(`${until}T23:59:59`);
  return !Number.isNaN(end.getTime()) && today.getTime() <= end.getTime();
}

/**
 * The popup never lands on top of another decision or on someone at work: not in the visit whose
 * cookie question was just answered (it waits for the next visit), never for a signed-in organiser or
 * photographer.
 */
export function popupMayOpen(visit: { consentedBeforeThisVisit: boolean; isOrganiser: boolean; isPartner: boolean }): boolean {
  return visit.consentedBeforeThisVisit && !visit.isOrganiser && !visit.isPartner;
}

/**
 * The event the popup announces: the configured one when it can still be pre-ordered, else the next
 * upcoming pre-order event starting on or before the popup's end date.
 */
export function popupEvent(events: EventSummary[], configuredId: number | null, until: string, today: Date = new Date()): EventSummary | null {
  const open = events.filter((e) => e.preorder_allowed === 1 && new Date(e.event_from_date) > today);
  if (configuredId !== null) return open.find((e) => e.event_id === configuredId) ?? null;
  const candidates = open.filter((e) => e.event_from_date <= until).sort((a, b) => a.event_from_date.localeCompare(b.event_from_date));
  return candidates.at(-1) ?? null;
}
