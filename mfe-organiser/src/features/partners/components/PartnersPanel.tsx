import { useCallback, useEffect, useState } from 'react';
import { Button, InputNumber, Space, Tag } from 'antd';
import { organiserApi, type EventPartnerRegistration } from '@finishline/shared';
import { CsvButton, RecordsTable, useRowAction } from '@finishline/shared/react';
import { PayoutForm } from './PayoutForm';

const STATUS_COLOUR = { pending: 'orange', approved: 'green', rejected: 'red' } as const;

/** Photographers who registered for the event: approve (with their share) or reject. */
export function PartnersPanel({ eventId }: { eventId: number }) {
  const [rows, setRows] = useState<EventPartnerRegistration[] | null>(null);
  const [shares, setShares] = useState<Record<number, number>>({});

  const load = useCallback(() => {
    organiserApi
      .partnerRegistrations({ eventId })
      .then(({ result }) => setRows(result))
      .catch(() => setRows([]));
  }, [eventId]);
  useEffect(load, [load]);
  const { busy, run } = useRowAction<number>(load);

  const decide = (r: EventPartnerRegistration, decision: 'approved' | 'rejected') =>
    run(r.partnerUserId, () =>
      organiserApi.decidePartnerRegistration({ eventId, partnerUserId: r.partnerUserId, decision, sharePercent: shares[r.partnerUserId] ?? r.sharePercent }),
    );

  const list = rows ?? [];
  return (
    <section aria-label="Photographers" className="fl-org-panel">
      <div className="fl-org-table-head">
        <p style={{ margin: 0 }}>
          Photographers who registered for this event. Approved photographers upload photos and earn their share of the sales of their photos.
        </p>
        <CsvButton
          fileName={`event-${eventId}-photographers.csv`}
          header={['Photographer', 'Nickname', 'Email', 'Mobile', 'Dates', 'Remarks', 'Share %', 'Status']}
          rows={list.map((r) => [
            `${r.firstName} ${r.lastName}`,
            r.nickname,
            r.email,
            r.mobile,
            r.datesAvailable.join(' '),
            r.remarks,
            r.sharePercent,
            r.status,
          ])}
        />
      </div>
      <RecordsTable<EventPartnerRegistration>
        rows={rows}
        rowKey="partnerUserId"
        label="Photographers"
        columns={[
          { title: 'Photographer', key: 'name', render: (_v, r) => `${r.firstName} ${r.lastName} (${r.nickname})` },
          { title: 'Status', key: 'status', render: (_v, r) => <Tag color={STATUS_COLOUR[r.status]}>{r.status}</Tag> },
          {
            title: 'Decision',
            key: 'decide',
            render: (_v, r) => (
              <Space wrap>
                <Button
                  size="small"
                  type="primary"
                  disabled={r.status === 'approved'}
                  loading={busy === r.partnerUserId}
                  onClick={() => decide(r, 'approved')}
                  aria-label={`Approve ${r.firstName} ${r.lastName}`}
                >
                  Approve
                </Button>
                <Button
                  size="small"
                  danger
                  disabled={r.status === 'rejected'}
                  onClick={() => decide(r, 'rejected')}
                  aria-label={`Reject ${r.firstName} ${r.lastName}`}
                >
                  Reject
                </Button>
              </Space>
            ),
          },
          {
            title: 'Share %',
            key: 'share',
            render: (_v, r) => (
              <InputNumber
                aria-label={`Share of ${r.firstName} ${r.lastName}`}
                size="small"
                min={0}
                max={100}
                style={{ width: 72 }}
                value={shares[r.partnerUserId] ?? r.sharePercent}
                onChange={(v) => setShares((s) => ({ ...s, [r.partnerUserId]: Number(v ?? 0) }))}
              />
            ),
          },
          { title: 'Email', dataIndex: 'email' },
          { title: 'Mobile', dataIndex: 'mobile' },
          { title: 'Dates', key: 'dates', render: (_v, r) => r.datesAvailable.join(', ') || '-' },
          { title: 'Remarks', dataIndex: 'remarks' },
        ]}
      />
      <PayoutForm eventId={eventId} photographers={list} />
    </section>
  );
}
