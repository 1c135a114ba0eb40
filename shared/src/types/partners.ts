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
