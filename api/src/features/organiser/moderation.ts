import type { PhotoReportRow, ReportStatus } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { AppError } from '../../http/envelope';
import { searchLinksExpireAt } from '../../rules/photos';

/**
 * The organiser's moderation queue over the runners' "Not me" reports (photo_reports): confirming a
 * report (upheld) takes the photo out of that BIB's results for everyone (rules/photos.ts,
 * notReportedSql); dismissing it leaves the photo where it was. A withdrawn report is not listed.
 */
interface ReportDbRow {
  [column: string]: unknown;
  report_id: number;
  photo_id: number;
  image_id: string;
  bib_number: string;
  thumb_key: string;
  reporter: string;
  status: ReportStatus;
  reported_at: Date;
  reviewed_at: Date | null;
}

const REPORT_SELECT = `select r.id as report_id, r.photo_id, p.image_id, r.bib_number, p.thumb_key,
         u.first_name || ' ' || left(u.last_name, 1) || '.' as reporter, r.status, r.created_at as reported_at, r.reviewed_at
    from photo_reports r join photos p on p.id = r.photo_id join users u on u.id = r.reporter_user_id`;

async function toRow(ctx: AppContext, r: ReportDbRow, expiresAt: Date): Promise<PhotoReportRow> {
  return {
    report_id: r.report_id,
    photo_id: r.photo_id,
    image_id: r.image_id,
    bib_number: r.bib_number,
    thumb: await ctx.storage.signedUrl(r.thumb_key, expiresAt),
    reporter: r.reporter,
    status: r.status,
    reported_at: new Date(r.reported_at).toISOString(),
    reviewed_at: r.reviewed_at ? new Date(r.reviewed_at).toISOString() : null,
  };
}

/** Reports of the event with this status (open by default), oldest first; at most 200. */
export async function reportsOfEvent(ctx: AppContext, eventId: number, status: ReportStatus): Promise<PhotoReportRow[]> {
  const rows = await ctx.db.query<ReportDbRow>(
    `${REPORT_SELECT} where r.event_id = $1 and r.status = $2 and r.withdrawn_at is null order by r.created_at, r.id limit 200`,
    [eventId, status],
  );
  const expiresAt = searchLinksExpireAt(ctx);
  return Promise.all(rows.map((r) => toRow(ctx, r, expiresAt)));
}

/** Confirms (upheld) or dismisses one report of the event; the latest decision holds. */
export async function decideReport(
  ctx: AppContext,
  input: { eventId: number; reportId: number; decision: 'upheld' | 'dismissed' },
  organiserId: number,
): Promise<PhotoReportRow> {
  const updated = await ctx.db.query<{ id: number }>(
    `update photo_reports set status = $3, reviewed_at = now(), reviewed_by = $4 where id = $1 and event_id = $2 and withdrawn_at is null returning id`,
    [input.reportId, input.eventId, input.decision, organiserId],
  );
  if (updated.length === 0) throw new AppError(404, 'This report was withdrawn or is not of this event.');
  const rows = await ctx.db.query<ReportDbRow>(`${REPORT_SELECT} where r.id = $1`, [input.reportId]);
  return toRow(ctx, rows[0]!, searchLinksExpireAt(ctx));
}
