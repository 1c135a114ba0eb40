import type { AchievementsEligibility } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { normaliseBib } from '../../rules/privacy';
import { searchLinksExpireAt } from '../../rules/photos';
import { finishedAchievementOf } from './results';
import { uploadedCertificateOf } from './runs';

/**
 * The BIB search's achievementsEligibility: eligible when the event results show this BIB's runner
 * finishing every event of an achievement holding this event (an official time in each).
 * certificate_url is the certificate this very session made for it, if any (never someone else's).
 */
/**
 * Whether an active achievement holds the event (eventParam: its placeholder): where none does, no
 * BIB of the event can be eligible, and the search skips the queries of achievementsEligibility.
 */
export const IN_ACTIVE_ACHIEVEMENT_SQL = (eventParam: string): string =>
  `exists (select 1 from achievement_events ae join achievements a on a.id = ae.achievement_id and a.active where ae.event_id = ${eventParam})`;

export async function achievementsEligibility(ctx: AppContext, eventId: number, bib: string, sessionId: number | null): Promise<AchievementsEligibility> {
  const finished = await finishedAchievementOf(ctx.db, eventId, bib);
  if (!finished) return { certificate_eligible: false, certificate_url: null, achievement_id: null };
  const key = sessionId === null ? null : await uploadedCertificateOf(ctx.db, sessionId, finished.achievementId, eventId, normaliseBib(bib));
  return {
    certificate_eligible: true,
    certificate_url: key ? await ctx.storage.signedUrl(key, searchLinksExpireAt(ctx)) : null,
    achievement_id: finished.achievementId,
  };
}
