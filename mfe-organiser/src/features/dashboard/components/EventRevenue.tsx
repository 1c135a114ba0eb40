import { useEffect, useState } from 'react';
import { Card, Col, Row, Spin, Statistic } from 'antd';
import {
  formatRupees,
  organiserApi,
  PRODUCT_LABELS,
  type AnalyticsRow,
  type DailySalesRow,
  type EventRevenueRow,
  type EventRevenueTotals,
  type FunnelRow,
  type OrganiserDashboardResult,
  type PartnerShareRow,
  type ProductRevenueRow,
  type SponsorDiscountRow,
} from '@finishline/shared';
import { LedgerTable, type LedgerColumn } from './LedgerTable';
import { DailySalesChart, FunnelChart, ProductChart } from './LedgerCharts';

const PRICE_KIND: Record<EventRevenueRow['price_kind'], string> = { images: 'photos', pack: 'package', preorder: 'pre-order', none: 'videos or prints only' };
export const priceLabel = (r: EventRevenueRow) =>
  r.price_kind === 'none' ? 'No photos (videos or prints only)' : `${formatRupees(r.price)} ${PRICE_KIND[r.price_kind]}`;

type RevenueLine = EventRevenueTotals & { label: string };
const REVENUE_COLUMNS: LedgerColumn<RevenueLine>[] = [
  { title: 'Price', text: (r) => r.label },
  { title: 'Orders', text: (r) => r.totalords },
  { title: 'Photos', text: (r) => r.photos_count },
  { title: 'Videos', text: (r) => formatRupees(r.videoval) },
  { title: 'Prints', text: (r) => formatRupees(r.printval) },
  { title: 'Discount', text: (r) => formatRupees(r.discountamount) },
  { title: 'Order value', text: (r) => formatRupees(r.ordval) },
  { title: 'GST', text: (r) => formatRupees(r.tax) },
  { title: 'Refunded', text: (r) => formatRupees(r.refunded) },
  { title: 'Total revenue', text: (r) => formatRupees(r.totalrev) },
];
const STAGE_COLUMNS: LedgerColumn<AnalyticsRow>[] = [
  { title: 'Order stage', text: (r) => r.stage },
  { title: 'Orders', text: (r) => r.orders },
  { title: 'Value', text: (r) => formatRupees(r.amount) },
];
const DAY_COLUMNS: LedgerColumn<DailySalesRow>[] = [
  { title: 'Day', text: (r) => r.day },
  { title: 'Orders', text: (r) => r.orders },
  { title: 'Revenue', text: (r) => formatRupees(r.revenue) },
];
const FUNNEL_COLUMNS: LedgerColumn<FunnelRow>[] = [
  { title: 'Step', text: (r) => r.step },
  { title: 'Count', text: (r) => r.count },
  { title: 'Drop', text: (r) => r.drop },
  { title: 'Drop %', text: (r) => `${r.drop_percent}%` },
];
const PRODUCT_COLUMNS: LedgerColumn<ProductRevenueRow>[] = [
  { title: 'Product', text: (r) => PRODUCT_LABELS[r.product] },
  { title: 'Quantity', text: (r) => r.quantity },
  { title: 'Before GST', text: (r) => formatRupees(r.net) },
  { title: 'Discount', text: (r) => formatRupees(r.discount) },
  { title: 'GST', text: (r) => formatRupees(r.gst) },
  { title: 'Refunded', text: (r) => formatRupees(r.refunded) },
  { title: 'Total', text: (r) => formatRupees(r.total) },
];
const SPONSOR_COLUMNS: LedgerColumn<SponsorDiscountRow>[] = [
  { title: 'Sponsor', text: (r) => r.sponsor_name },
  { title: 'Coupon', text: (r) => r.coupon_name, align: 'left' },
  { title: 'Orders', text: (r) => r.orders },
  { title: 'Photos discounted', text: (r) => r.photos },
  { title: 'Discount given', text: (r) => formatRupees(r.discount) },
];
const PARTNER_COLUMNS: LedgerColumn<PartnerShareRow>[] = [
  { title: 'Photographer', text: (r) => (r.nickname ? `${r.name} (${r.nickname})` : r.name) },
  { title: 'Share %', text: (r) => `${r.share_percent}%` },
  { title: 'Orders', text: (r) => r.orders },
  { title: 'Photos sold', text: (r) => r.partner_images },
  { title: 'Sales before GST', text: (r) => formatRupees(r.sales) },
  { title: 'Share', text: (r) => formatRupees(r.share) },
];

/** Each photographer's share: its own call, since it reads every photo sale of the event. */
function PartnerShares({ eventId, slug }: { eventId: number; slug: string }) {
  const [rows, setRows] = useState<PartnerShareRow[] | null>(null);
  useEffect(() => {
    let alive = true;
    organiserApi
      .partnerShares({ eventId })
      .then(({ result }) => alive && setRows(result))
      .catch(() => alive && setRows([]));
    return () => {
      alive = false;
    };
  }, [eventId]);
  if (rows === null) return <Spin style={{ marginTop: 20 }} />;
  return (
    <LedgerTable
      title="Photographers' share"
      fileName={`${slug}-photographers-share.csv`}
      rows={rows}
      columns={PARTNER_COLUMNS}
      rowKey={(r) => String(r.partner_user_id)}
    />
  );
}

/** Event details: the spec's revenue rows, totals and analytics, then the live ledger with its charts. */
export function EventRevenue({ data, slug, eventId }: { data: OrganiserDashboardResult; slug: string; eventId: number }) {
  const totals = data.totals!;
  const ledger = data.ledger!;
  const lines: RevenueLine[] = (data.event_revenue ?? []).map((r) => ({ ...r, label: priceLabel(r) }));
  return (
    <div className="fl-org-revenue">
      <Row gutter={[12, 12]}>
        {[
          ['Total revenue', formatRupees(totals.totalrev)],
          ['Paid orders', totals.totalords],
          ['GST', formatRupees(totals.tax)],
          ['Refunded', formatRupees(totals.refunded)],
          ['BIBs with photos', data.totalbibs?.totalbibs ?? 0],
          ['Photos', data.totalimgs?.totalimgs ?? 0],
          ['Different photos sold', data.totunqimgs ?? 0],
        ].map(([title, value]) => (
          <Col key={title} xs={12} sm={8} lg={4}>
            <Card size="small">
              <Statistic title={title} value={value} />
            </Card>
          </Col>
        ))}
      </Row>
      <LedgerTable
        title="Revenue"
        fileName={`${slug}-revenue.csv`}
        rows={lines}
        columns={REVENUE_COLUMNS}
        total={{ ...totals, label: 'Total' }}
        rowKey={(r) => r.label}
      />
      <LedgerTable
        title="Analytics: orders by stage"
        fileName={`${slug}-order-stages.csv`}
        rows={data.analytics ?? []}
        columns={STAGE_COLUMNS}
        rowKey={(r) => r.stage}
      />
      <div className="fl-org-pair">
        <DailySalesChart rows={ledger.daily} />
        <LedgerTable title="Sales per day" fileName={`${slug}-sales-per-day.csv`} rows={ledger.daily} columns={DAY_COLUMNS} rowKey={(r) => r.day} />
      </div>
      <div className="fl-org-pair">
        <FunnelChart rows={ledger.funnel} />
        <LedgerTable title="Funnel" fileName={`${slug}-funnel.csv`} rows={ledger.funnel} columns={FUNNEL_COLUMNS} rowKey={(r) => r.step} />
      </div>
      <div className="fl-org-pair">
        <ProductChart rows={ledger.products} />
        <LedgerTable title="Revenue by product" fileName={`${slug}-products.csv`} rows={ledger.products} columns={PRODUCT_COLUMNS} rowKey={(r) => r.product} />
      </div>
      <LedgerTable
        title="Sponsor discounts"
        fileName={`${slug}-sponsor-discounts.csv`}
        rows={ledger.sponsors}
        columns={SPONSOR_COLUMNS}
        rowKey={(r) => r.coupon_name}
      />
      <PartnerShares eventId={eventId} slug={slug} />
    </div>
  );
}
