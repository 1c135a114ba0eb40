import { API_ROUTES } from './routes';
import { call, get, post } from '@finishline/shared/runtime';
import type { BibSearchResult } from '../types/search';
import type { FaceIndexStatus, FaceOptOutResult, SelfieSearchRequest } from '../types/faces';
import type { BibAvailabilityEntry, BibAvailabilityRequest, PaginatePhotosRequest, PaginatePhotosResult } from '../types/discovery';
import { PHOTOS_PER_PAGE } from '../types/discovery';

/** Typed calls of selfie search, advanced search and the paginated photo pages (storefront spec section 7). */
export const discoveryApi = {
  searchBySelfie: (body: SelfieSearchRequest) => post<BibSearchResult>(API_ROUTES.searchBySelfie, body),
  /** A signed-in runner asks to be left out of face search (selfie or on-device descriptor). */
  faceOptOut: (body: Omit<SelfieSearchRequest, 'eventID' | 'sessionToken' | 'consentVersion' | 'gCaptchToken'>) =>
    post<FaceOptOutResult>(API_ROUTES.faceOptOut, body),
  faceOptOutWithdraw: () => post<FaceOptOutResult>(API_ROUTES.faceOptOutWithdraw, {}),
  bibAvailability: (body: BibAvailabilityRequest) => post<BibAvailabilityEntry[]>(API_ROUTES.bibAvailability, body),
  faceIndexStatus: (eventId?: number) => get<FaceIndexStatus>(API_ROUTES.faceIndexStatus, eventId ? { eventId } : undefined),
  /** Sent as multipart form data, as the spec's paginate call is. */
  paginatePhotos: (request: PaginatePhotosRequest) => {
    const form = new FormData();
    form.append('event_id', String(request.event_id));
    form.append('bib_number', request.bib_number);
    if (request._token) form.append('_token', request._token);
    form.append('page', String(request.page ?? 1));
    form.append('per_page', String(request.per_page ?? PHOTOS_PER_PAGE));
    return call<PaginatePhotosResult>({ method: 'POST', url: API_ROUTES.paginatePhotos, data: form });
  },
};
