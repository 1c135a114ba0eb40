import { useEffect, useState } from 'react';
import { certificateApi, type AchievementsEligibility } from '@finishline/shared';

/**
 * Whether the race's results give this order's BIB a certificate (asked once the order is paid). A
 * failed call shows nothing: the order page stays as it was, and the results page offers it too.
 */
export function useCertificateEligibility(eventID: number, bibNumber: string, ask: boolean): AchievementsEligibility | null {
  const [eligibility, setEligibility] = useState<AchievementsEligibility | null>(null);
  useEffect(() => {
    if (!ask) return;
    let live = true;
    certificateApi
      .eligibility({ eventID, bibNumber })
      .then((answer) => live && setEligibility(answer.result))
      .catch(() => live && setEligibility(null));
    return () => {
      live = false;
    };
  }, [eventID, bibNumber, ask]);
  return eligibility;
}
