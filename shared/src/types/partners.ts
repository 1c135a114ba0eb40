/**
 * Photographer partners as the event's organiser sees them. A photographer registers for an event
 * (the partner remote's /registration); the registration waits as 'pending' until the organiser of
 * that event approves or rejects it. Only an approved partner uploads photos to the event, and the
 * share percentage agreed here is what My Share pays out from the sales of their photos.
 */
export type PartnerRegistrationStatus = 'pending' | 'approved' | 'rejected';

export const PARTNER_REGISTRATION_STATUSES: readonly PartnerRegistrationStatus[] = ['pending', 'approved', 'rejected'];

/** A photographer's share of the sales of their photos unless the organiser agrees another. */
export const DEFAULT_PARTNER_SHARE_PERCENT = 70;

export interface EventPartnerRegistration {
  eventId: number;
  partnerUserId: number;
  firstName: string;
  lastName: string;
  nickname: string;
  email: string;
  mobile: string;
  status: PartnerRegistrationStatus;
  /** ISO dates (YYYY-MM-DD) of the event the photographer is available on. */
  datesAvailable: string[];
  /** Camera and availability remarks. */
  remarks: string;
  sharePercent: number;
  registeredAt: string;
  decidedAt: string | null;
}

/** Registrations of photographers for one event the caller runs. */
export interface PartnerRegistrationsRequest {
  eventId: number;
}

export interface DecidePartnerRegistrationRequest {
  eventId: number;
  partnerUserId: number;
  decision: 'approved' | 'rejected';
  /** The share agreed with this photographer, in percent; unchanged when left out. */
  sharePercent?: number;
}

/**
 * The photographer's own side (partner remote): registration for an event and My Share. Field names
 * follow the spec's register-partner and partner-share calls.
 */

/** Spec: form_type 0 is a new registration (the reply starts with Welcome), 1 an existing partner's update. */
export type PartnerFormType = 0 | 1;

/** Spec: bank account type 1 savings, 2 current. */
export const BANK_ACCOUNT_TYPES = [
  { value: 1, label: 'Savings' },
  { value: 2, label: 'Current' },
] as const;

/** An event a photographer may register for: only searchable, published events that have not ended. */
export interface PartnerEventOption {
  event_id: number;
  event_name: string;
  /** YYYY-MM-DD */
  event_from_date: string;
  event_to_date: string;
  event_location: string | null;
  /** Every day from the event's from date to its to date (YYYY-MM-DD), offered as tick boxes. */
  dates: string[];
}

/** The partner as the registration page shows it: bank account number and PAN masked (last 4 only). */
export interface PartnerProfileView {
  partnerid: number;
  firstname: string;
  lastname: string;
  partnername: string;
  email: string;
  mobile: string;
  /** Locked once set (spec). */
  nickname: string;
  bankaccname: string;
  /** Masked: "XXXXXXXX1234". */
  bankaccnum: string;
  bankacctype: 1 | 2;
  bankname: string;
  bankbranch: string;
  bankifsc: string;
  /** Masked: "XXXXXX234F". */
  pannum: string;
}

export interface PartnerOwnRegistration {
  eventId: number;
  status: PartnerRegistrationStatus;
  datesAvailable: string[];
  remarks: string;
  sharePercent: number;
}

/** Spec's "eventId and partnerid (look up partner)": the signed-in account's profile and its registration for the event. */
export interface PartnerLookupRequest {
  eventId: number;
}
export interface PartnerLookupResult {
  form_type: PartnerFormType;
  /** The signed-in account's email (the form's emailId). */
  email: string;
  partner: PartnerProfileView | null;
  registration: PartnerOwnRegistration | null;
}

/** Spec's full register-partner payload. bankaccnum and pannum may be left empty on an update (form_type 1): the stored ones stay. */
export interface RegisterPartnerRequest {
  eventId: number;
  event_id?: number;
  emailId: string;
  form_type: PartnerFormType;
  isterms: 0 | 1;
  bankifsc: string;
  pannum: string;
  availabledate: string[];
  partnerremarks: string;
  nickname: string;
  firstname: string;
  lastname: string;
  mobilenumber: string;
  bankaccname: string;
  bankaccnum: string;
  bankacctype: 1 | 2;
  bankname: string;
  bankbranch: string;
}
export interface RegisterPartnerResult {
  partner: PartnerProfileView;
  registration: PartnerOwnRegistration;
}

/** Spec's partner-share call: userid is the stored email; eventId narrows the rows to one event. */
export interface PartnerShareRequest {
  userid?: string;
  eventId?: number;
}

/** Spec's share row (price, totalorders, totalimages, userimages, usr_share), one per event. Rupees before GST. */
export interface PartnerRevenueRow {
  event_id: number;
  event_name: string;
  /** Net sales of the partner's photos (after sponsor discounts, before GST). */
  price: number;
  /** Paid orders holding at least one of the partner's photos. */
  totalorders: number;
  /** Photos of any photographer in those orders. */
  totalimages: number;
  /** The partner's own photos sold (a photo sold twice counts twice). */
  userimages: number;
  share_percent: number;
  /** The partner's share of `price`. */
  usr_share: number;
}

export interface PartnerShareEvent {
  event_id: number;
  event_name: string;
  event_from_date: string;
}

/** Beyond the spec: the share earned per day of payment. */
export interface PartnerDailyShare {
  /** YYYY-MM-DD (India time). */
  day: string;
  userimages: number;
  usr_share: number;
}

export interface PartnerPayout {
  id: number;
  event_id: number;
  event_name: string;
  amount: number;
  reference: string;
  /** ISO time. */
  paid_at: string;
}

export interface PartnerShareResult {
  usr_revenue: PartnerRevenueRow[];
  /** The events the partner is approved for (the picker). */
  eventdetails: PartnerShareEvent[];
  daily: PartnerDailyShare[];
  /** Share earned, paid out and still to pay, over the rows shown. */
  payouts: { earned: number; paid: number; pending: number; list: PartnerPayout[] };
}

/** The event's organiser records money paid to a photographer. */
export interface RecordPartnerPayoutRequest {
  eventId: number;
  partnerUserId: number;
  amount: number;
  reference: string;
}

/**
 * The photographer's pages, in menu order and named as each page is titled: the partner remote's own
 * menu and the shell's account menu (desktop dropdown and phone drawer) both list these.
 */
export const PARTNER_PAGES = [
  { key: 'partner-registration', to: '/registration', label: 'Registration' },
  { key: 'partner-upload', to: '/upload', label: 'Upload' },
  { key: 'partner-photos', to: '/photos', label: 'My Photos' },
  { key: 'partner-videos', to: '/videos', label: 'Videos' },
  { key: 'revenue', to: '/show_revenue', label: 'My Share' },
] as const;
