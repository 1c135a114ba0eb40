import {
  API_ROUTES,
  CLIENT_REPORT_LIMITS,
  getRuntimeConfig,
  localStore,
  REPORT_LIMIT_KEY,
  REPORT_PENDING_KEY,
  scrubReportText,
  type ClientReport,
  type ClientReportKind,
  type RemoteName,
} from '@finishline/shared';
import type { KeptValues } from './releaseChoice';

/**
 * Tells the API what each remote did in this browser, per release: page views and failures (load,
 * render, unhandled rejection). Reports are folded (the same one again only counts up) and sent in
 * batches: a few seconds after the first, and when the page is hidden. A browser sends at most
 * BATCHES_PER_MINUTE batches a minute (what waits is folded and sent in the next minute, by the next
 * page when this one goes away first: kept in local storage, so a visitor's reloads are not lost); a batch
 * the API does not take (down, refused) is dropped without a word: reporting never troubles the page.
 * Texts carry no personal data: the route has no query, and emails and runs of digits are taken out.
 */
const FLUSH_AFTER_MS = 5000;
const BATCHES_PER_MINUTE = 6;

interface ReportState {
  versions: Partial<Record<RemoteName, string>>;
  /** Manifest folders of the releases this visitor runs: a rejection whose stack names one belongs to that remote. */
  folders: Array<[RemoteName, string]>;
  pending: ClientReport[];
  timer: ReturnType<typeof setTimeout> | null;
  send: (url: string, body: string) => Promise<unknown>;
  store: KeptValues;
}

const defaultSend = (url: string, body: string) =>
  fetch(url, { method: 'POST', body, headers: { 'Content-Type': 'application/json' }, keepalive: true, credentials: 'omit' });

const state: ReportState = { versions: {}, folders: [], pending: [], timer: null, send: defaultSend, store: localStore };

function underLimit(now: number): boolean {
  try {
    const kept = JSON.parse(state.store.get(REPORT_LIMIT_KEY) ?? 'null') as { minute: number; batches: number } | null;
    const minute = Math.floor(now / 60_000);
    const batches = kept?.minute === minute ? kept.batches : 0;
    if (batches >= BATCHES_PER_MINUTE) return false;
    state.store.set(REPORT_LIMIT_KEY, JSON.stringify({ minute, batches: batches + 1 }));
    return true;
  } catch {
    return true;
  }
}

/** What waits, kept for the next page of this browser (or cleared once sent). */
function keepPending(): void {
  try {
    state.store.set(REPORT_PENDING_KEY, JSON.stringify(state.pending));
  } catch {
    // No storage: what waits goes with the page.
  }
}

/** Adds a report to what waits, folded into a like one. */
function fold(report: ClientReport): void {
  const same = state.pending.find(
    (r) => r.kind === report.kind && r.remote === report.remote && r.version === report.version && r.route === report.route && r.message === report.message,
  );
  if (same) same.count = Math.min(CLIENT_REPORT_LIMITS.countPerReport, same.count + report.count);
  else if (state.pending.length < CLIENT_REPORT_LIMITS.batchSize * 2) state.pending.push({ ...report });
}

/** Sends what waits, if this browser is under its limit; otherwise keeps it and tries again later. */
export function flushReports(now = Date.now()): void {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  if (state.pending.length === 0) return;
  if (!underLimit(now)) {
    keepPending();
    state.timer = setTimeout(() => flushReports(), FLUSH_AFTER_MS * 2);
    return;
  }
  const reports = state.pending.splice(0, CLIENT_REPORT_LIMITS.batchSize);
  keepPending();
  const url = `${getRuntimeConfig().apiBaseUrl}${API_ROUTES.clientReports}`;
  try {
    state.send(url, JSON.stringify({ reports })).catch(() => undefined);
  } catch {
    // A browser without fetch, or one that refuses the request: the reports are dropped.
  }
  if (state.pending.length > 0) state.timer = setTimeout(() => flushReports(), FLUSH_AFTER_MS);
}

/** Queues one report of a remote (folded into a like one) and schedules the batch. */
export function reportRemote(kind: ClientReportKind, remote: RemoteName, message = ''): void {
  const route = scrubReportText(globalThis.location?.pathname ?? '/', CLIENT_REPORT_LIMITS.routeLength);
  const report: ClientReport = { kind, remote, version: state.versions[remote] ?? 'initial', route, message: scrubReportText(message), count: 1 };
  fold(report);
  state.timer ??= setTimeout(() => flushReports(), FLUSH_AFTER_MS);
}

export const errorMessageOf = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/** The remote whose files appear in an error's stack, if any. */
function remoteOfStack(error: unknown): RemoteName | null {
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  return state.folders.find(([, folder]) => stack.includes(folder))?.[0] ?? null;
}

/**
 * Starts reporting for this page: the versions the visitor runs (releaseChoice.ts), unhandled
 * rejections from a remote's code, and the batch sent when the page is hidden.
 */
export function startReporting(
  versions: Record<RemoteName, string>,
  remotes: Record<RemoteName, string>,
  options: { send?: ReportState['send']; store?: KeptValues } = {},
): void {
  state.versions = versions;
  state.folders = (Object.entries(remotes) as Array<[RemoteName, string]>).map(([name, url]) => [name, new URL('.', url).href]);
  state.send = options.send ?? defaultSend;
  state.store = options.store ?? localStore;
  // Reports an earlier page of this browser could not send within its limit.
  try {
    const kept = JSON.parse(state.store.get(REPORT_PENDING_KEY) ?? '[]') as ClientReport[];
    if (Array.isArray(kept)) for (const report of kept) if (report && typeof report.kind === 'string' && typeof report.count === 'number') fold(report);
  } catch {
    // Unreadable: nothing kept.
  }
  if (state.pending.length > 0) state.timer ??= setTimeout(() => flushReports(), FLUSH_AFTER_MS);
  globalThis.addEventListener?.('unhandledrejection', (event: PromiseRejectionEvent) => {
    const remote = remoteOfStack(event.reason);
    if (remote) reportRemote('rejection', remote, errorMessageOf(event.reason));
  });
  globalThis.addEventListener?.('pagehide', () => flushReports());
}

/** Errors of loading a remote's code (federation.ts marks them), told apart from its render errors. */
const loadFailures = new WeakSet<object>();
export function markLoadFailure(error: unknown): void {
  if (error && typeof error === 'object') loadFailures.add(error);
}
export const isLoadFailure = (error: unknown): boolean => !!error && typeof error === 'object' && loadFailures.has(error);
