import type { RemoteName } from '../runtime/runtimeConfig';

/**
 * What the shell tells the API about each remote it ran (POST API_ROUTES.clientReports): page views,
 * and failures (the remote's code could not be loaded, its App threw while rendering, or a promise of
 * its code was rejected and nobody handled it). Carries no personal data: the route is a path without
 * its query, and every text is scrubbed (scrubReportText) in the browser and again by the server.
 */
/** Every remote, as the reports name them. */
export const REMOTE_NAMES: readonly RemoteName[] = ['storefront', 'account', 'partner', 'organiser', 'certificate'];

export const CLIENT_REPORT_KINDS = ['view', 'load', 'render', 'rejection'] as const;
export type ClientReportKind = (typeof CLIENT_REPORT_KINDS)[number];

export interface ClientReport {
  kind: ClientReportKind;
  remote: RemoteName;
  /** The release the visitor ran (`v3`; `initial` for the build the system started with). */
  version: string;
  /** Path of the page, no query or fragment. */
  route: string;
  /** The error's message; empty for a view. */
  message: string;
  /** How many like it were folded into this one (views of one route, the same error again). */
  count: number;
}

export interface ClientReportBatch {
  reports: ClientReport[];
}

/** The answer: how many reports were counted (a batch past the limit is refused with 429). */
export interface ClientReportResult {
  accepted: number;
}

/** Most reports in one batch, longest route and message kept. */
export const CLIENT_REPORT_LIMITS = { batchSize: 50, routeLength: 200, messageLength: 300, countPerReport: 1000 } as const;

const EMAIL = /[\w.%+-]+@[\w-]+(?:\.[\w-]+)+/g;
/** An address's query or fragment: `?a=b`, `#x`, up to the next space or quote. */
const QUERY = /[?#][^\s"'<>)]*/g;
/** A run of 5 or more digits (phone numbers, order and BIB numbers, codes), spaces or dashes between allowed. */
const DIGIT_RUN = /\+?\d(?:[\s-]?\d){4,}/g;

/** A text with emails, queries and long runs of digits taken out, then cut to `max` characters. */
export function scrubReportText(text: string, max: number = CLIENT_REPORT_LIMITS.messageLength): string {
  return text.replace(QUERY, '').replace(EMAIL, '[email]').replace(DIGIT_RUN, '[number]').slice(0, max);
}
