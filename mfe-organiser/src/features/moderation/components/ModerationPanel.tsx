import { useCallback, useEffect, useState } from 'react';
import { App as AntApp, Button, Image, Segmented, Space, Table } from 'antd';
import { DASHBOARD_PAGE_SIZE, isApiError, NO_MATCHING_RECORDS, organiserApi, type PhotoReportRow, type ReportStatus } from '@finishline/shared';
import { CsvButton } from '@finishline/shared/react';

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
  const { message } = AntApp.useApp();
  const [status, setStatus] = useState<ReportStatus>('open');
  const [rows, setRows] = useState<PhotoReportRow[] | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [page, setPage] = useState(1);

  const load = useCallback(() => {
    setRows(null);
    organiserApi
      .reports({ eventId, status })
      .then(({ result }) => setRows(result))
      .catch(() => setRows([]));
  }, [eventId, status]);
  useEffect(load, [load]);

  const decide = async (r: PhotoReportRow, decision: 'upheld' | 'dismissed') => {
    setBusy(r.report_id);
    try {
      const answer = await organiserApi.decideReport({ eventId, reportId: r.report_id, decision });
      message.success(answer.message);
      load();
    } catch (error) {
      message.error(isApiError(error) ? error.message : 'Something went wrong. Please try again.');
    } finally {
      setBusy(null);
    }
  };

  const list = rows ?? [];
  return (
    <section aria-label="Reported photos" className="fl-org-panel">
      <div className="fl-org-table-head">
        <Segmented<ReportStatus> options={TABS} value={status} onChange={(v) => { setStatus(v); setPage(1); }} />
        <CsvButton fileName={`event-${eventId}-reports-${status}.csv`} header={['Photo ID', 'BIB', 'Reported by', 'Reported at', 'Status']} rows={list.map((r) => [r.image_id, r.bib_number, r.reporter, r.reported_at, r.status])} />
      </div>
      <Table<PhotoReportRow>
        rowKey="report_id"
        size="small"
        loading={rows === null}
        dataSource={list}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: NO_MATCHING_RECORDS }}
        pagination={{ current: page, pageSize: DASHBOARD_PAGE_SIZE, onChange: setPage, showSizeChanger: false }}
        columns={[
          { title: 'Photo', key: 'thumb', render: (_v, r) => <Image src={r.thumb} alt={`Photo ${r.image_id}`} width={96} /> },
          { title: 'BIB', dataIndex: 'bib_number' },
          {
            title: 'Decision',
            key: 'decide',
            render: (_v, r) => (
              <Space>
                <Button size="small" type="primary" danger disabled={r.status === 'upheld'} loading={busy === r.report_id} onClick={() => decide(r, 'upheld')} aria-label={`Confirm report of ${r.image_id}`}>
                  Confirm: not this runner
                </Button>
                <Button size="small" disabled={r.status === 'dismissed'} onClick={() => decide(r, 'dismissed')} aria-label={`Dismiss report of ${r.image_id}`}>
                  Dismiss
                </Button>
              </Space>
            ),
          },
          { title: 'Photo ID', dataIndex: 'image_id' },
          { title: 'Reported by', dataIndex: 'reporter' },
          { title: 'Reported at', dataIndex: 'reported_at', render: (v: string) => new Date(v).toLocaleString('en-IN') },
        ]}
      />
    </section>
  );
}
