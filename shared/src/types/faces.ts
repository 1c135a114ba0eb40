import type { BibSearchResult } from './search';

/** Search by selfie (storefront spec section 7): the selfie is matched and discarded, never stored. */
export interface SelfieSearchRequest {
  eventID: number;
  /** Base64 JPEG or PNG, with or without a data: URL prefix; at most 2 MB once decoded. */
  selfieimg: string;
  sessionToken?: string;
}

/** Same shape as the BIB search result; bibNumber is 'selfie'. awsImageExpary is also given beside result. */
export type SelfieSearchResult = BibSearchResult;

/** Progress of the background job that computes face embeddings of event photos. */
export interface FaceIndexStatus {
  eventId: number | null;
  total: number;
  pending: number;
  running: number;
  done: number;
  failed: number;
  /** Faces stored so far. */
  faces: number;
  /** Share of photos finished (done or failed), 0 to 100. */
  percent: number;
}

/** Largest selfie accepted, in bytes (copy: 'JPG or PNG, max 2mb'). */
export const SELFIE_MAX_BYTES = 2 * 1024 * 1024;
export const SELFIE_TYPES = ['image/jpeg', 'image/png'] as const;
