import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatRupees, type PartnerDailyShare } from '@finishline/shared';

/** The partner's share per day of payment (recharts, bundled into this remote only). The table beside it holds the same figures. */
export function DailyShareChart({ rows }: { rows: PartnerDailyShare[] }) {
  return (
    <figure aria-label="Your share per day chart" style={{ margin: '16px 0' }}>
      <figcaption style={{ fontWeight: 600, marginBottom: 8 }}>Your share per day</figcaption>
      <ResponsiveContainer width="100%" height={240}>
        {/* Room on the right for half of the last date label (centred on its bar), which was cut off. */}
        <BarChart data={rows} margin={{ top: 8, right: 32, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" tick={{ fontSize: 11 }} minTickGap={24} />
          <YAxis tick={{ fontSize: 11 }} width={64} tickFormatter={(v: number) => formatRupees(v)} />
          <Tooltip formatter={(value) => formatRupees(Number(value))} />
          <Bar dataKey="usr_share" name="Your share" fill="#0b5cad" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
