import type { EventSummary } from '@finishline/shared';
import { popupEvent, popupMayOpen, shouldShowPreorderPopup } from './preorderPopupRules';

const event = (id: number, from: string, preorder: 0 | 1 = 1): EventSummary => ({
  event_id: id,
  event_name: `Event ${id}`,
  event_logo: '',
  event_from_date: from,
  event_to_date: from,
  issearchable: 0,
  selfiesearch: 0,
  preorder_allowed: preorder,
  showunlabeled: 0,
});

const TODAY = new Date('2026-11-21T10:00:00');

describe('pre-order popup', () => {
  it('waits for the visit after the cookie answer and never interrupts an organiser or a photographer', () => {
    const runner = { isOrganiser: false, isPartner: false };
    expect(popupMayOpen({ consentedBeforeThisVisit: false, ...runner })).toBe(false);
    expect(popupMayOpen({ consentedBeforeThisVisit: true, ...runner })).toBe(true);
    expect(popupMayOpen({ consentedBeforeThisVisit: true, isOrganiser: true, isPartner: false })).toBe(false);
    expect(popupMayOpen({ consentedBeforeThisVisit: true, isOrganiser: false, isPartner: true })).toBe(false);
  });
  it('shows until its end date, once per browser', () => {
    expect(shouldShowPreorderPopup(null, '2027-01-17', TODAY)).toBe(true);
    expect(shouldShowPreorderPopup('true', '2027-01-17', TODAY)).toBe(false);
    expect(shouldShowPreorderPopup(null, '2025-01-19', TODAY)).toBe(false);
    expect(shouldShowPreorderPopup(null, '2026-11-21', TODAY)).toBe(true);
  });
  it('announces the configured event, or the last upcoming pre-order event before the end date', () => {
    const events = [event(1, '2026-12-13'), event(2, '2027-01-17'), event(3, '2027-02-21'), event(4, '2027-01-01', 0), event(5, '2026-01-18')];
    expect(popupEvent(events, 3, '2027-01-17', TODAY)?.event_id).toBe(3);
    expect(popupEvent(events, null, '2027-01-17', TODAY)?.event_id).toBe(2);
    expect(popupEvent(events, 5, '2027-01-17', TODAY)).toBeNull(); // already run
  });
});
