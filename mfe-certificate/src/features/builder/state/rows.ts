import { CERTIFICATE_LIMITS, type CertificateRow, type EventBibPair } from '@finishline/shared';

/** An event the builder offers (the home page's slam_events). */
export interface CertificateEvent {
  event_id: number;
  event_name: string;
  achievement_id?: number;
}

export const emptyRow = (): CertificateRow => ({ eventId: null, bibNumber: '' });

/**
 * A row can be added when the current (last) row has an event and a BIB, there are more events
 * than rows, and not every event is used yet (spec: certificate flow, rows).
 */
export function canAddRow(rows: CertificateRow[], events: CertificateEvent[]): boolean {
  const current = rows[rows.length - 1];
  const used = new Set(rows.map((r) => r.eventId).filter((id): id is number => id !== null));
  return (
    Boolean(current?.eventId && current.bibNumber.trim()) &&
    events.length > rows.length &&
    used.size < events.length &&
    rows.length < CERTIFICATE_LIMITS.maxPairs
  );
}

/** A row can be removed while more than one row exists. */
export const canRemoveRow = (rows: CertificateRow[]): boolean => rows.length > 1;

/** The events row `index` may choose: its own, and none chosen in another row. */
export function eventsForRow(rows: CertificateRow[], index: number, events: CertificateEvent[]): CertificateEvent[] {
  const elsewhere = new Set(rows.filter((_, i) => i !== index).map((r) => r.eventId));
  return events.filter((event) => !elsewhere.has(event.event_id));
}

/**
 * The first row as the builder opens: the event whose name matches the stored one (case-insensitive:
 * equal, or one containing the other; an equal name wins), or the only event when there is just
 * one; the BIB the runner came with once an event is chosen.
 */
export function prefilledRows(events: CertificateEvent[], storedEventName: string | null, bibNumber: string | null): CertificateRow[] {
  const wanted = storedEventName?.trim().toLowerCase() ?? '';
  const byName = wanted
    ? (events.find((e) => e.event_name.toLowerCase() === wanted) ??
      events.find((e) => e.event_name.toLowerCase().includes(wanted) || wanted.includes(e.event_name.toLowerCase())))
    : undefined;
  const event = byName ?? (events.length === 1 ? events[0] : undefined);
  return [{ eventId: event?.event_id ?? null, bibNumber: event ? (bibNumber ?? '').trim() : '' }];
}

/**
 * The events of the builder: those of the achievement the BIB search named, else every achievement's
 * (each once): the series' (slam_events) and the races with a finisher certificate.
 */
export function builderEvents(
  lists: Record<string, CertificateEvent[]>,
  achievementId: number | null,
  finisherEvents: CertificateEvent[] = [],
): CertificateEvent[] {
  const all = [...Object.values(lists).flat(), ...finisherEvents];
  const own = achievementId ? all.filter((e) => e.achievement_id === achievementId) : [];
  const chosen = own.length > 0 ? own : all;
  return chosen.filter((event, i) => chosen.findIndex((e) => e.event_id === event.event_id) === i);
}

/** The search call's pairs: every row, then empty slots up to four. */
export function pairsOf(rows: CertificateRow[]): EventBibPair[] {
  const pairs: EventBibPair[] = rows.map((r) => ({ event_id: r.eventId ?? '', bib_number: r.bibNumber.trim() }));
  while (pairs.length < CERTIFICATE_LIMITS.maxPairs) pairs.push({ event_id: '', bib_number: '' });
  return pairs;
}
