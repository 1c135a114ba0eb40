import type { Photo } from './entities';

/** Advanced search: which of several event + BIB pairs have photos. */
export interface BibAvailabilityRequest {
  entries: Array<{ eventID: number; bibNumber: string }>;
}

export interface BibAvailabilityEntry {
  eventID: number;
  eventName: string;
  bibNumber: string;
  /** Photos on the server for this BIB (0 when none or the event is not searchable). */
  photoCount: number;
  videoCount: number;
  /** Any photo or video. */
  hasPhotos: boolean;
  issearchable: 0 | 1;
}

/** Paginate event photos (multipart): event_id, bib_number ('unlabeled' for unlabeled photos), _token, page, per_page. */
export interface PaginatePhotosRequest {
  event_id: number;
  bib_number: string;
  _token?: string;
  page?: number;
  per_page?: number;
}

export interface PaginationInfo {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
}

export interface PaginatePhotosResult {
  eventId: number;
  eventName: string;
  eventLogo: string;
  bibNumber: string;
  photos: Photo[];
  pagination: PaginationInfo;
  /** ISO time after which the signed image URLs and the search session expire. */
  awsImageExpary: string;
}

/** Photos per page of the unlabeled and paginated photo calls (spec section 9). */
export const PHOTOS_PER_PAGE = 50;
