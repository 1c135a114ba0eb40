import type { ReactElement } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, LabelList, Line, ComposedChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatRupees, PRODUCT_LABELS, type DailySalesRow, type FunnelRow, type ProductRevenueRow } from '@finishline/shared';

/**
 * The live ledger's charts (recharts, bundled into this remote only: no other deployment loads it).
 * Each chart sits beside the table with the same figures, which is what screen readers and the CSV get.
 */
const BLUE = '#0b5cad';
const ORANGE = '#f08c00';
const FUNNEL_COLOURS = ['#0b5cad', '#1c7ed6', '#4dabf7', '#2f9e44', '#69db7c'];

/** A chart with its caption, named for screen readers, as wide as its column. */
function ChartFigure({ label, caption, height, children }: { label: string; caption: string; height: number; children: ReactElement }) {
  return (
    <figure className="fl-org-chart" aria-label={label}>
      <figcaption>{caption}</figcaption>
      <ResponsiveContainer width="100%" height={height}>
        {children}
      </ResponsiveContainer>
    </figure>
  );
}

export function DailySalesChart({ rows }: { rows: DailySalesRow[] }) {
  return (
    <ChartFigure label="Sales per day chart" caption="Sales per day" height={260}>
      <ComposedChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" tick={{ fontSize: 11 }} minTickGap={24} />
        <YAxis yAxisId="rupees" tick={{ fontSize: 11 }} width={64} tickFormatter={(v: number) => formatRupees(v)} />
        <YAxis yAxisId="orders" orientation="right" tick={{ fontSize: 11 }} width={32} allowDecimals={false} />
        <Tooltip formatter={(value, name) => (name === 'Revenue' ? formatRupees(Number(value)) : value)} />
        <Bar yAxisId="rupees" dataKey="revenue" name="Revenue" fill={BLUE} isAnimationActive={false} />
        <Line yAxisId="orders" dataKey="orders" name="Orders" stroke={ORANGE} dot={false} isAnimationActive={false} />
      </ComposedChart>
    </ChartFigure>
  );
}

export function FunnelChart({ rows }: { rows: FunnelRow[] }) {
  return (
    <ChartFigure label="Funnel chart" caption="Funnel: from search to download" height={240}>
      <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 48, bottom: 4, left: 8 }}>
        <XAxis type="number" hide />
        <YAxis type="category" dataKey="step" width={110} tick={{ fontSize: 12 }} />
        <Tooltip />
        <Bar dataKey="count" name="Count" isAnimationActive={false}>
          {rows.map((r, i) => (
            <Cell key={r.step} fill={FUNNEL_COLOURS[i % FUNNEL_COLOURS.length]} />
          ))}
          <LabelList dataKey="count" position="right" style={{ fontSize: 12 }} />
        </Bar>
      </BarChart>
    </ChartFigure>
  );
}

export function ProductChart({ rows }: { rows: ProductRevenueRow[] }) {
  const data = rows.map((r) => ({ product: PRODUCT_LABELS[r.product], total: r.total }));
  return (
    <ChartFigure label="Revenue by product chart" caption="Revenue by product" height={240}>
      <BarChart data={data} margin={{ top: 16, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="product" tick={{ fontSize: 11 }} interval={0} />
        <YAxis tick={{ fontSize: 11 }} width={64} tickFormatter={(v: number) => formatRupees(v)} />
        <Tooltip formatter={(value) => formatRupees(Number(value))} />
        <Bar dataKey="total" name="Revenue" fill={BLUE} isAnimationActive={false} />
      </BarChart>
    </ChartFigure>
  );
}
