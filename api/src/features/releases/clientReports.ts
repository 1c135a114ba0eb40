import { CLIENT_REPORT_LIMITS, scrubReportText, type ClientReport } from '@finishline/shared/pure';
import type { Db } from '../../db/db';

/** Views and errors of one release over some minutes. */
export interface ReleaseRates {
  views: number;
  errors: number;
}

/** The path of a reported route, scrubbed again here (the browser's word is not trusted): no origin, query or personal data. */
export function cleanRoute(route: string): string {
  const path = route.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  const clean = scrubReportText(path, CLIENT_REPORT_LIMITS.routeLength);
  return clean.startsWith('/') ? clean : '/';
}

/**
 * Stores a batch: views and errors added to each release's count of this minute, and the batch's
 * errors kept as samples (at most samplesPerMinute per release and minute; the counts keep counting).
 * Returns how many reports were counted.
 */
export async function storeClientReports(db: Db, reports: ClientReport[], samplesPerMinute: number): Promise<number> {
  const totals = new Map<string, { remote: string; version: string; views: number; errors: number }>();
  for (const report of reports) {
    const key = `${report.remote} ${report.version}`;
    const total = totals.get(key) ?? { remote: report.remote, version: report.version, views: 0, errors: 0 };
    if (report.kind === 'view') total.views += report.count;
    else total.errors += report.count;
    totals.set(key, total);
  }
  await db.transaction(async (tx) => {
    for (const total of totals.values()) {
      await tx.query(
        `insert into client_report_counts (remote, version, minute, views, errors) values ($1, $2, date_trunc('minute', now()), $3, $4)
         on conflict (remote, version, minute) do update set views = client_report_counts.views + excluded.views, errors = client_report_counts.errors + excluded.errors`,
        [total.remote, total.version, total.views, total.errors],
      );
    }
    for (const report of reports) {
      if (report.kind === 'view') continue;
      await tx.query(
        `insert into client_error_samples (remote, version, minute, kind, route, message, count)
         select $1, $2, date_trunc('minute', now()), $3, $4, $5, $6
          where (select count(*) from client_error_samples where remote = $1 and version = $2 and minute = date_trunc('minute', now())) < $7`,
        [report.remote, report.version, report.kind, cleanRoute(report.route), scrubReportText(report.message), report.count, samplesPerMinute],
      );
    }
  });
  return reports.length;
}

/** Views and errors of each named release of a remote from `since` (its minute included) until now. */
export async function ratesSince(db: Db, remote: string, versions: string[], since: Date): Promise<Record<string, ReleaseRates>> {
  const rows = await db.query<{ version: string; views: number; errors: number }>(
    `select version, coalesce(sum(views), 0)::int as views, coalesce(sum(errors), 0)::int as errors from client_report_counts
      where remote = $1 and version = any($2::text[]) and minute >= date_trunc('minute', $3::timestamptz) group by version`,
    [remote, versions, since],
  );
  const rates: Record<string, ReleaseRates> = Object.fromEntries(versions.map((version) => [version, { views: 0, errors: 0 }]));
  for (const row of rows) rates[row.version] = { views: row.views, errors: row.errors };
  return rates;
}
