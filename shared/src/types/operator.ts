/**
 * "List your race" and the operator console: a signed-in account asks to organise races; an
 * operator approves (the organiser role is granted) or declines with a reason, grants and revokes
 * staff roles, and sees every event with its state.
 */
export const ORGANISER_REQUEST_STATUSES = ['pending', 'approved', 'declined'] as const;
export type OrganiserRequestStatus = (typeof ORGANISER_REQUEST_STATUSES)[number];

/** What the form asks (dates as YYYY-MM-DD). */
export interface OrganiserRequestFields {
  raceName: string;
  fromDate: string;
  toDate: string;
  city: string;
  expectedRunners: number;
  contactName: string;
  contactPhone: string;
  note?: string;
}

export interface OrganiserRequestView extends Required<OrganiserRequestFields> {
  id: number;
  status: OrganiserRequestStatus;
  declineReason: string | null;
  createdAt: string;
  decidedAt: string | null;
  /** The account that asked. */
  accountEmail: string;
  accountName: string;
}

export interface MyOrganiserRequestResult {
  /** The account's newest request, if any. */
  request: OrganiserRequestView | null;
  isOrganiser: boolean;
}

export interface OperatorRequestsResult {
  pending: OrganiserRequestView[];
  /** The latest decided requests, newest first. */
  decided: OrganiserRequestView[];
}

export interface OrganiserRequestDecision {
  requestId: number;
  approve: boolean;
  /** Required to decline: the asker reads it in the mail and on the page. */
  reason?: string;
}

/** Roles the console grants and revokes (the operator role stays with `pnpm admin`). */
export const STAFF_ROLES = ['organiser', 'fulfilment'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const STAFF_ROLE_LABELS: Record<StaffRole, string> = { organiser: 'Organiser', fulfilment: 'Fulfilment (print queue)' };

export interface StaffRoleRequest {
  email: string;
  role: StaffRole;
  grant: boolean;
}

export interface StaffRoleResult {
  email: string;
  role: StaffRole;
  granted: boolean;
}

/** One event as the operator sees it at a glance. */
export interface OperatorEventRow {
  id: number;
  name: string;
  fromDate: string;
  /** Runners find it (published and searchable). */
  published: boolean;
  /** Photographers may register while it is hidden. */
  registrationOpen: boolean;
  organisers: string[];
  photos: number;
  participants: number;
  paidOrders: number;
}

export interface OperatorEventsResult {
  events: OperatorEventRow[];
}
