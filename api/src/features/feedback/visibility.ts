/**
 * The one SQL condition that leaves out reported photos of a BIB (photo alias p): those its owner
 * hid, those the organiser upheld a "not me" report on, and those the viewer reported as not them.
 * bibParam and viewerParam are the query's placeholders ($n) for the BIB and the viewer's user id.
 */
export function notReportedSql(bibParam: string, viewerParam: string): string {
  return `not exists (select 1 from photo_feedback f where f.photo_id = p.id and f.bib_number = ${bibParam} and f.feedback = 1)
        and not exists (select 1 from photo_reports r where r.photo_id = p.id and r.withdrawn_at is null
                          and (r.status = 'upheld' or r.reporter_user_id = ${viewerParam}::int))`;
}
