import { useCallback, useEffect, useState } from 'react';
import { InputNumber, Tag } from 'antd';
import { organiserApi, type EventPartnerRegistration } from '@finishline/shared';
import { CsvButton, decisionColumn, RecordsTable, useRowAction } from '@finishline/shared/react';
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
          decisionColumn<EventPartnerRegistration, 'approved' | 'rejected'>({
            decided: (r) => r.status,
            busy: (r) => busy === r.partnerUserId,
            decide,
            first: { decision: 'approved', text: 'Approve', ariaLabel: (r) => `Approve ${r.firstName} ${r.lastName}` },
            second: { decision: 'rejected', text: 'Reject', ariaLabel: (r) => `Reject ${r.firstName} ${r.lastName}`, danger: true },
          }),
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
