import { API_ROUTES } from './routes';
import { post } from '@finishline/shared/runtime';
import type {
  CertificateBackgroundRequest,
  CertificateBackgroundResult,
  CertificateDraftRequest,
  CertificatePreviewResult,
  CertificateSettingsRequest,
  OrganiserCertificate,
  OrganiserSeries,
  OrganiserSeriesList,
  SaveCertificateSettingsRequest,
  SaveSeriesRequest,
  SeriesBackgroundRequest,
} from '../types/certificates';
import type { DecidePartnerRegistrationRequest, EventPartnerRegistration, PartnerRegistrationsRequest } from '../types/partners';
import type {
  CreateEventRequest,
  DecideReportRequest,
  DeleteFaceDataRequest,
  DeleteFaceDataResult,
  EventChange,
  EventIdRequest,
  EventLogoRequest,
  EventSwitchRequest,
  OrganiserDashboardResult,
  OrganiserEvent,
  OrganiserRoleRequest,
  OrganiserRoleResult,
  ParticipantsImportRequest,
  PartnerShareRow,
  ParticipantsImportResult,
  ParticipantsRequest,
  ParticipantsResult,
  PhotoReportRow,
  PhotoReportsRequest,
  UpdateEventRequest,
} from '../types/organiser';

/** Typed calls of the organiser's screens (and the operator's role grant). */
export const organiserApi = {
  partnerRegistrations: (body: PartnerRegistrationsRequest) => post<EventPartnerRegistration[]>(API_ROUTES.organiserPartners, body),
  decidePartnerRegistration: (body: DecidePartnerRegistrationRequest) => post<EventPartnerRegistration>(API_ROUTES.decidePartnerRegistration, body),
  /** The spec's organiser dashboard call: the event list (email), or one event's details (event_id and email). */
  dashboard: (body: { email?: string; event_id?: number }) => post<OrganiserDashboardResult>(API_ROUTES.organiserDashboard, body),
  /** Each photographer's share of the event's sales (the ledger's partner table). */
  partnerShares: (body: EventIdRequest) => post<PartnerShareRow[]>(API_ROUTES.organiserPartnerShares, body),
  event: (body: EventIdRequest) => post<OrganiserEvent>(API_ROUTES.organiserEvent, body),
  createEvent: (body: CreateEventRequest) => post<OrganiserEvent>(API_ROUTES.organiserCreateEvent, body),
  updateEvent: (body: UpdateEventRequest) => post<OrganiserEvent>(API_ROUTES.organiserUpdateEvent, body),
  publishEvent: (body: EventIdRequest) => post<OrganiserEvent>(API_ROUTES.organiserPublishEvent, body),
  setSwitch: (body: EventSwitchRequest) => post<OrganiserEvent>(API_ROUTES.organiserEventSwitch, body),
  uploadLogo: (body: EventLogoRequest) => post<OrganiserEvent>(API_ROUTES.organiserEventLogo, body),
  /** The course map drawn on the race's journey-map collages (same body as the logo: PNG or JPEG as base64). */
  uploadCourseMap: (body: EventLogoRequest) => post<OrganiserEvent>(API_ROUTES.organiserCourseMap, body),
  eventChanges: (body: EventIdRequest) => post<EventChange[]>(API_ROUTES.organiserEventChanges, body),
  deleteFaceData: (body: DeleteFaceDataRequest) => post<DeleteFaceDataResult>(API_ROUTES.organiserDeleteFaceData, body),
  participants: (body: ParticipantsRequest) => post<ParticipantsResult>(API_ROUTES.organiserParticipants, body),
  importParticipants: (body: ParticipantsImportRequest) => post<ParticipantsImportResult>(API_ROUTES.organiserImportParticipants, body),
  reports: (body: PhotoReportsRequest) => post<PhotoReportRow[]>(API_ROUTES.organiserReports, body),
  decideReport: (body: DecideReportRequest) => post<PhotoReportRow>(API_ROUTES.organiserDecideReport, body),
  /** The race's finisher certificate as its organiser set it (Certificate tab). */
  certificate: (body: CertificateSettingsRequest) => post<OrganiserCertificate>(API_ROUTES.organiserCertificate, body),
  saveCertificate: (body: SaveCertificateSettingsRequest) => post<OrganiserCertificate>(API_ROUTES.organiserSaveCertificate, body),
  uploadCertificateBackground: (body: CertificateBackgroundRequest) => post<CertificateBackgroundResult>(API_ROUTES.organiserCertificateBackground, body),
  previewCertificate: (body: CertificateDraftRequest) => post<CertificatePreviewResult>(API_ROUTES.organiserCertificatePreview, body),
  series: () => post<OrganiserSeriesList>(API_ROUTES.organiserSeries, {}),
  saveSeries: (body: SaveSeriesRequest) => post<OrganiserSeries>(API_ROUTES.organiserSaveSeries, body),
  uploadSeriesBackground: (body: SeriesBackgroundRequest) => post<CertificateBackgroundResult>(API_ROUTES.organiserSeriesBackground, body),
  /** The series as on screen, drawn by the server with a runner who finished all its races. */
  previewSeries: (body: SaveSeriesRequest) => post<CertificatePreviewResult>(API_ROUTES.organiserSeriesPreview, body),
  setOrganiserRole: (body: OrganiserRoleRequest) => post<OrganiserRoleResult>(API_ROUTES.operatorOrganiserRole, body),
};
