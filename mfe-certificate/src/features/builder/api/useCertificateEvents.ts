import { useEffect, useState } from 'react';
import { App } from 'antd';
import { eventsApi, localStore, STORAGE_KEYS, type AchievementsEligibility } from '@finishline/shared';
import { builderEvents, type CertificateEvent } from '../state/rows';

export const EVENTS_FAILED = 'Failed to load events. Please refresh the page.';

/** The achievement the BIB search found the runner eligible for (stored as achievementsEligibility). */
export function storedAchievementId(): number | null {
  return localStore.getJson<AchievementsEligibility>(STORAGE_KEYS.achievementsEligibility)?.achievement_id ?? null;
}

/** The builder's events: the home page's slam_events and finisher_events (the achievement's own when the BIB search named one). */
export function useCertificateEvents(): { events: CertificateEvent[]; loading: boolean } {
  const { message } = App.useApp();
  const [events, setEvents] = useState<CertificateEvent[]>([]);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    let live = true;
    eventsApi
      .homePage()
      .then((answer) => live && setEvents(builderEvents(answer.result.slam_events ?? {}, storedAchievementId(), answer.result.finisher_events ?? [])))
      .catch(() => live && message.error(EVENTS_FAILED))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [message]);
  return { events, loading };
}
