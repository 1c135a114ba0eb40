import { API_ROUTES } from './routes';
import { post } from '@finishline/shared/runtime';
import type {
  PartnerEventOption,
  PartnerLookupRequest,
  PartnerLookupResult,
  PartnerPayout,
  PartnerShareRequest,
  PartnerShareResult,
  RecordPartnerPayoutRequest,
  RegisterPartnerRequest,
  RegisterPartnerResult,
} from '../types/partners';

/** Typed calls of the photographer's screens (registration, My Share) and the organiser's payout record. */
export const partnerApi = {
  /** Spec's register-partner call with no body: the events a photographer may register for. */
  events: (body: { search?: string } = {}) => post<PartnerEventOption[]>(API_ROUTES.partnerEvents, body),
  /** Spec's "eventId and partnerid": the signed-in account's partner details and registration for the event. */
  lookup: (body: PartnerLookupRequest) => post<PartnerLookupResult>(API_ROUTES.partnerLookup, body),
  /** Spec's full payload: form_type 0 registers (reply starts with Welcome), 1 updates. */
  register: (body: RegisterPartnerRequest) => post<RegisterPartnerResult>(API_ROUTES.registerPartner, body),
  share: (body: PartnerShareRequest) => post<PartnerShareResult>(API_ROUTES.partnerShare, body),
  recordPayout: (body: RecordPartnerPayoutRequest) => post<PartnerPayout>(API_ROUTES.recordPartnerPayout, body),
};
