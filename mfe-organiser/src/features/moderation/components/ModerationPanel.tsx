import { useCallback, useEffect, useState } from 'react';
import { Image, Segmented } from 'antd';
import { organiserApi, type PhotoReportRow, type ReportStatus } from '@finishline/shared';
import { CsvButton, decisionColumn, RecordsTable, useRowAction } from '@finishline/shared/react';

const TABS: Array<{ value: ReportStatus; label: string }> = [
  { value: 'open', label: 'Waiting' },
  { value: 'upheld', label: 'Confirmed' },
  { value: 'dismissed', label: 'Dismissed' },
];

/**
 * Photos runners reported as "Not me": confirm (the photo leaves that BIB's results for everyone) or
 * dismiss (it stays). Decisions can be changed later from the other lists.
 */
export function ModerationPanel({ eventId }: { eventId: number }) {
  const [status, setStatus] = useState<ReportStatus>('open');
  const [rows, setRows] = useState<PhotoReportRow[] | null>(null);

  const load = useCallback(() => {
    setRows(null);
    organiserApi
      .reports({ eventId, status })
      .then(({ result }) => setRows(result))
      .catch(() => setRows([]));
  }, [eventId, status]);
  useEffect(load, [load]);
  const { busy, run } = useRowAction<number>(load);

  const decide = (r: PhotoReportRow, decision: 'upheld' | 'dismissed') =>
    run(r.report_id, () => organiserApi.decideReport({ eventId, reportId: r.report_id, decision }));

  const list = rows ?? [];
  return (
    <section aria-label="Reported photos" className="fl-org-panel">
      <div className="fl-org-table-head">
        <Segmented<ReportStatus> options={TABS} value={status} onChange={setStatus} />
        <CsvButton
          fileName={`event-${eventId}-reports-${status}.csv`}
          header={['Photo ID', 'BIB', 'Reported by', 'Reported at', 'Status']}
          rows={list.map((r) => [r.image_id, r.bib_number, r.reporter, r.reported_at, r.status])}
        />
      </div>
      <RecordsTable<PhotoReportRow>
        key={status}
        rows={rows}
        rowKey="report_id"
        label="Reported photos"
        columns={[
          { title: 'Photo', key: 'thumb', render: (_v, r) => <Image src={r.thumb} alt={`Photo ${r.image_id}`} width={96} /> },
          { title: 'BIB', dataIndex: 'bib_number' },
          decisionColumn<PhotoReportRow, 'upheld' | 'dismissed'>({
            decided: (r) => r.status,
            busy: (r) => busy === r.report_id,
            decide,
            first: { decision: 'upheld', text: 'Confirm: not this runner', ariaLabel: (r) => `Confirm: not this runner, photo ${r.image_id}`, danger: true },
            second: { decision: 'dismissed', text: 'Dismiss', ariaLabel: (r) => `Dismiss report of ${r.image_id}` },
          }),
          { title: 'Photo ID', dataIndex: 'image_id' },
          { title: 'Reported by', dataIndex: 'reporter' },
          { title: 'Reported at', dataIndex: 'reported_at', render: (v: string) => new Date(v).toLocaleString('en-IN') },
        ]}
      />
    </section>
  );
}
