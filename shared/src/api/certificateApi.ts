import { API_ROUTES } from './routes';
import { call, post } from '@finishline/shared/runtime';
import { CERTIFICATE_LIMITS } from '../certificates/constants';
import type {
  AchievementsSearchRequest,
  AchievementsSearchResult,
  CertificateUploadResult,
  RecordCertificateDownloadResult,
  TemplateDetailsRequest,
  TemplateDetailsResult,
} from '../types/certificates';
import type { AchievementsEligibility } from '../types/entities';
import type { CertificateEligibilityInput } from '../schemas/certificates';

const multipart = <T>(url: string, form: FormData) => call<T>({ method: 'POST', url, data: form });

/**
 * The certificate builder's calls (accounts spec section 7). The search, template and upload travel
 * as multipart forms, as the spec's do; the event list is the home page's slam_events
 * (eventsApi.homePage) and further pages of photos the paginate call (discoveryApi.paginatePhotos).
 */
export const certificateApi = {
  /** event_bib_pairs[i][event_id] / [bib_number] for all four slots, the unused ones empty. */
  searchAchievements: (request: AchievementsSearchRequest) => {
    const form = new FormData();
    for (let i = 0; i < CERTIFICATE_LIMITS.maxPairs; i++) {
      const pair = request.event_bib_pairs[i];
      form.append(`event_bib_pairs[${i}][event_id]`, pair ? String(pair.event_id) : '');
      form.append(`event_bib_pairs[${i}][bib_number]`, pair ? pair.bib_number : '');
    }
    if (request._token) form.append('_token', request._token);
    form.append('page', String(request.page ?? 1));
    if (request.achievement_id) form.append('achievement_id', String(request.achievement_id));
    return multipart<AchievementsSearchResult>(API_ROUTES.achievementsSearch, form);
  },
  /** achievement_id and selected_photos[{eventId}] = photo id. */
  templateDetails: (request: TemplateDetailsRequest) => {
    const form = new FormData();
    form.append('achievement_id', String(request.achievement_id));
    for (const [eventId, photoId] of Object.entries(request.selected_photos)) form.append(`selected_photos[${eventId}]`, String(photoId));
    return multipart<TemplateDetailsResult>(API_ROUTES.certificateTemplate, form);
  },
  /** The certificate download call: achievement_id and the JPEG as the file field certificate_url. */
  uploadCertificate: (achievementId: number, jpeg: Blob, fileName: string) => {
    const form = new FormData();
    form.append('achievement_id', String(achievementId));
    form.append('certificate_url', jpeg, fileName);
    return multipart<CertificateUploadResult>(API_ROUTES.certificateUpload, form);
  },
  /** Whether the race's results give this BIB a certificate (and the one this session made, if any). */
  eligibility: (request: CertificateEligibilityInput) => post<AchievementsEligibility>(API_ROUTES.certificateEligibility, request),
  recordDownload: (achievementId: number) => post<RecordCertificateDownloadResult>(API_ROUTES.certificateDownloadRecord, { achievement_id: achievementId }),
};
