import { useEffect, useState } from 'react';
import { discoveryApi, PHOTOS_PER_PAGE, STORAGE_KEYS, type PaginatePhotosResult, localStore, UNLABELED_BIB } from '@finishline/shared';

export const PAGE_FETCH_FAILED = 'Failed to fetch images for page. Please try again.';

/** One page (50 photos) of the event's unlabeled photos from the paginate call. */
export function useUnlabeledPage(eventId: number | null, page: number, attempt: number) {
  const [data, setData] = useState<PaginatePhotosResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(eventId !== null);

  useEffect(() => {
    if (eventId === null) return;
    let live = true;
    setLoading(true);
    setError(null);
    discoveryApi
      .paginatePhotos({
        event_id: eventId,
        bib_number: UNLABELED_BIB,
        _token: localStore.get(STORAGE_KEYS.sessionToken) ?? undefined,
        page,
        per_page: PHOTOS_PER_PAGE,
      })
      .then((answer) => {
        if (!live) return;
        setData(answer.result);
        localStore.set(STORAGE_KEYS.awsImageExpiry, answer.result.awsImageExpary);
      })
      .catch(() => live && setError(PAGE_FETCH_FAILED))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [eventId, page, attempt]);

  return { data, error, loading };
}
