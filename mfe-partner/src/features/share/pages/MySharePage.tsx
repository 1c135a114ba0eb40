import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { Button, Descriptions, Select, Space, Table } from 'antd';
import {
  DASHBOARD_PAGE_SIZE,
  formatRupees,
  NO_MATCHING_RECORDS,
  partnerApi,
  readLocalSession,
  type PartnerRevenueRow,
  type PartnerShareResult,
} from '@finishline/shared';
import { CsvButton, ProcessingOverlay, useAccessRefused, useDocumentTitle } from '@finishline/shared/react';

// The chart library is fetched only when there is a chart to draw, never for /registration.
const DailyShareChart = lazy(() => import('../components/DailyShareChart').then((m) => ({ default: m.DailyShareChart })));

const ALL = 0;
const CSV_HEADER = ['Event', 'price', 'totalorders', 'totalimages', 'userimages', 'share_percent', 'usr_share'] as const;

/**
 * /show_revenue (title My Share): the partner's share of the paid orders holding their photos, per
 * event, with a processing overlay while the partner-share call runs, an event picker with GET DATA,
 * the share per day, what was paid out and what is still to pay, and a CSV of the rows. The call
 * sends the stored email as userid (spec); a non-200 answer is logged only (spec), a refusal leads to
 * /unauthorizeduser.
 */
export function MySharePage() {
  const session = readLocalSession();
  const refused = useAccessRefused('/show_revenue');
  const [picked, setPicked] = useState<number>(ALL);
  const [data, setData] = useState<PartnerShareResult | null>(null);
  const [events, setEvents] = useState<PartnerShareResult['eventdetails']>([]);
  const [loading, setLoading] = useState(false);
  useDocumentTitle('My Share');
  // A table wider than a phone scrolls inside its own box: that box takes the keyboard's focus so
  // arrow keys scroll it too (WCAG 2.1.1; axe: scrollable-region-focusable). antd does not expose it.
  const page = useRef<HTMLDivElement>(null);
  useEffect(() => {
    page.current?.querySelectorAll('.ant-table-content, .ant-table-body').forEach((box) => {
      box.setAttribute('tabindex', '0');
      box.setAttribute('role', 'region');
      box.setAttribute('aria-label', 'Table, scrolls sideways');
    });
  });

  const load = useCallback(
    (eventId: number) => {
      setLoading(true);
      partnerApi
        .share({ userid: session.email ?? undefined, ...(eventId === ALL ? {} : { eventId }) })
        .then(({ result }) => {
          setData(result);
          if (eventId === ALL) setEvents(result.eventdetails);
        })
        .catch((error: unknown) => {
          if (!refused(error)) console.error('My Share: the partner share call failed', error);
        })
        .finally(() => setLoading(false));
    },
    [session.email, refused],
  );
  useEffect(() => {
    if (session.signedIn) load(ALL);
  }, [session.signedIn, load]);

  if (!session.signedIn) return <Navigate to="/sign-in" replace state={{ redirectTo: '/show_revenue' }} />;
  const rows = data?.usr_revenue ?? [];
  const payouts = data?.payouts;
  const money = (v: number) => formatRupees(v);
  return (
    <div ref={page} className="fl-partner-page" data-testid="my-share" style={{ maxWidth: 1000, margin: '0 auto', padding: 16 }}>
      {loading ? <ProcessingOverlay /> : null}
      <h1>My Share</h1>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          aria-label="Event"
          style={{ width: 320, maxWidth: '100%' }}
          value={picked}
          onChange={(v: number) => setPicked(v)}
          options={[{ value: ALL, label: 'All my events' }, ...events.map((e) => ({ value: e.event_id, label: `${e.event_name} (${e.event_from_date})` }))]}
        />
        <Button type="primary" onClick={() => load(picked)}>
          GET DATA
        </Button>
      </Space>
      {/* Wider than a phone: the table scrolls inside itself, never the whole page. */}
      <Table<PartnerRevenueRow>
        rowKey="event_id"
        size="small"
        scroll={{ x: 'max-content' }}
        dataSource={rows}
        pagination={{ pageSize: DASHBOARD_PAGE_SIZE, hideOnSinglePage: true }}
        locale={{ emptyText: NO_MATCHING_RECORDS }}
        columns={[
          { title: 'Event', dataIndex: 'event_name' },
          { title: 'Price (sales before GST)', dataIndex: 'price', align: 'right', render: money },
          { title: 'Total orders', dataIndex: 'totalorders', align: 'right' },
          { title: 'Total images', dataIndex: 'totalimages', align: 'right' },
          { title: 'Your images', dataIndex: 'userimages', align: 'right' },
          { title: 'Share %', dataIndex: 'share_percent', align: 'right' },
          { title: 'Your share', dataIndex: 'usr_share', align: 'right', render: money },
        ]}
      />
      <div style={{ margin: '8px 0 16px' }}>
        <CsvButton
          fileName="my-share.csv"
          header={CSV_HEADER}
          rows={rows.map((r) => [r.event_name, r.price, r.totalorders, r.totalimages, r.userimages, r.share_percent, r.usr_share])}
        />
      </div>
      {data && data.daily.length > 0 ? (
        <Suspense fallback={null}>
          <DailyShareChart rows={data.daily} />
        </Suspense>
      ) : null}
      {payouts ? (
        <section aria-label="Payouts">
          <h2>Payouts</h2>
          <Descriptions
            size="small"
            column={{ xs: 1, sm: 3 }}
            items={[
              { key: 'earned', label: 'Earned', children: money(payouts.earned) },
              { key: 'paid', label: 'Paid out', children: money(payouts.paid) },
              { key: 'pending', label: 'Still to pay', children: money(payouts.pending) },
            ]}
          />
          {payouts.list.length === 0 ? (
            <p>No payouts yet.</p>
          ) : (
            <Table
              rowKey="id"
              size="small"
              scroll={{ x: 'max-content' }}
              dataSource={payouts.list}
              pagination={{ pageSize: DASHBOARD_PAGE_SIZE, hideOnSinglePage: true }}
              columns={[
                { title: 'Paid on', dataIndex: 'paid_at', render: (v: string) => v.slice(0, 10) },
                { title: 'Event', dataIndex: 'event_name' },
                { title: 'Reference', dataIndex: 'reference' },
                { title: 'Amount', dataIndex: 'amount', align: 'right', render: money },
              ]}
            />
          )}
        </section>
      ) : null}
    </div>
  );
}
