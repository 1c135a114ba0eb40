import { useCallback, useEffect, useState } from 'react';
import { App as AntApp, Alert, Button, Input, Space, Upload } from 'antd';
import {
  DASHBOARD_PAGE_SIZE,
  isApiError,
  NO_MATCHING_RECORDS,
  organiserApi,
  PARTICIPANTS_CSV_MAX_CHARACTERS,
  type ParticipantRow,
  type ParticipantsImportRefusal,
  type ParticipantsResult,
  toCsv,
} from '@finishline/shared';
import { downloadTextFile, PhoneCardsTable, useSearchedPages } from '@finishline/shared/react';

const isRefusal = (payload: unknown): payload is ParticipantsImportRefusal =>
  typeof payload === 'object' && payload !== null && Array.isArray((payload as ParticipantsImportRefusal).errors);

/**
 * The event's participants or results: import a CSV (BIB, name; finish time, email, phone optional),
 * which replaces the list in one go or, with any bad row, is refused with each row's error.
 */
export function ParticipantsPanel({ eventId }: { eventId: number }) {
  const { message } = AntApp.useApp();
  const [data, setData] = useState<ParticipantsResult | null>(null);
  const { search, setSearch, page, setPage } = useSearchedPages();
  const [importing, setImporting] = useState(false);
  const [refusal, setRefusal] = useState<{ message: string; detail: ParticipantsImportRefusal | null } | null>(null);

  const load = useCallback(() => {
    organiserApi
      .participants({ eventId, page, search })
      .then(({ result }) => setData(result))
      .catch(() => setData({ rows: [], total: 0, page: 1 }));
  }, [eventId, page, search]);
  useEffect(load, [load]);

  const importFile = async (file: File) => {
    setRefusal(null);
    if (file.size > PARTICIPANTS_CSV_MAX_CHARACTERS) {
      setRefusal({ message: 'The file is too large: at most 5 MB.', detail: null });
      return;
    }
    setImporting(true);
    try {
      const answer = await organiserApi.importParticipants({ eventId, csv: await file.text() });
      message.success(answer.message);
      setPage(1);
      load();
    } catch (error) {
      setRefusal({
        message: isApiError(error) ? error.message : 'Something went wrong. Please try again.',
        detail: isApiError(error) && isRefusal(error.payload) ? error.payload : null,
      });
    } finally {
      setImporting(false);
    }
  };

  // Every participant matching the search, not only this page.
  const exportCsv = async () => {
    try {
      const { result } = await organiserApi.participants({ eventId, search, all: true });
      downloadTextFile(
        `event-${eventId}-participants.csv`,
        toCsv(
          ['BIB', 'Name', 'Finish time', 'Email', 'Phone'],
          result.rows.map((r) => [r.bib_number, r.name, r.finish_time, r.email, r.phone]),
        ),
      );
    } catch (error) {
      message.error(isApiError(error) ? error.message : 'Something went wrong. Please try again.');
    }
  };

  return (
    <section aria-label="Participants" className="fl-org-panel">
      <p style={{ marginTop: 0 }}>
        Import the participant list or the results as a CSV file with a header row: <strong>BIB</strong> and <strong>Name</strong>, and where known{' '}
        <strong>Finish time</strong> (3:45:12), <strong>Email</strong> (the privacy check mails the OTP there) and <strong>Phone</strong>. A new import replaces
        the list. The certificate builder and the BIB reader use it.
      </p>
      <Upload accept=".csv,text/csv" showUploadList={false} beforeUpload={(file) => (void importFile(file), false)}>
        <Button type="primary" loading={importing}>
          Import CSV
        </Button>
      </Upload>
      {refusal ? (
        <Alert
          role="alert"
          type="error"
          showIcon
          style={{ marginTop: 12 }}
          message={refusal.message}
          description={
            refusal.detail ? (
              <ul className="fl-org-row-errors">
                {refusal.detail.errors.map((e) => (
                  <li key={e.line}>{e.message}</li>
                ))}
                {refusal.detail.errorCount > refusal.detail.errors.length ? (
                  <li>and {refusal.detail.errorCount - refusal.detail.errors.length} more.</li>
                ) : null}
              </ul>
            ) : undefined
          }
        />
      ) : null}
      <div className="fl-org-toolbar" style={{ marginTop: 16 }}>
        <Input.Search aria-label="Search participants" placeholder="Search by BIB or name" allowClear onSearch={setSearch} style={{ maxWidth: 320 }} />
        <Space wrap>
          <span>{data ? `${data.total} participants` : ''}</span>
          <Button size="small" onClick={exportCsv}>
            Export CSV
          </Button>
        </Space>
      </div>
      <PhoneCardsTable<ParticipantRow>
        cardsLabel="Participants"
        rowKey="bib_number"
        size="small"
        loading={data === null}
        dataSource={data?.rows ?? []}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: NO_MATCHING_RECORDS }}
        pagination={{ current: page, pageSize: DASHBOARD_PAGE_SIZE, total: data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
        columns={[
          { title: 'BIB', dataIndex: 'bib_number' },
          { title: 'Name', dataIndex: 'name' },
          { title: 'Finish time', dataIndex: 'finish_time', render: (v: string | null) => v ?? '-' },
          { title: 'Email', dataIndex: 'email', render: (v: string | null) => v ?? '-' },
          { title: 'Phone', dataIndex: 'phone', render: (v: string | null) => v ?? '-' },
        ]}
      />
    </section>
  );
}
