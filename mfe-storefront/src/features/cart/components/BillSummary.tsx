import { Alert, Button, Spin } from 'antd';
import type { PricedBill } from '@finishline/shared';

const rupees = (n: number) => `₹${n.toLocaleString('en-IN')}`;

/** One row of the bill: what it is, and its amount in the right-aligned column. */
function BillRow({ label, amount, testId, className }: { label: string; amount: string; testId?: string; className?: string }) {
  return (
    <tr className={className}>
      <td>{label}</td>
      <td className="fl-amount" data-testid={testId}>
        {amount}
      </td>
    </tr>
  );
}

/** Bill summary panel: one row per priced line, subtotal, sponsor discount, GST and the total. */
export function BillSummary({
  bill,
  fromServer,
  error,
  onCheckout,
  checkoutBlocked,
}: {
  bill: PricedBill | null;
  fromServer: boolean;
  error: string | null;
  onCheckout: () => void;
  checkoutBlocked: string | null;
}) {
  return (
    <aside className="fl-bill" data-testid="bill-summary" data-source={fromServer ? 'server' : 'local'}>
      <h2>Bill summary {fromServer ? null : <Spin size="small" />}</h2>
      {error ? <Alert type="warning" showIcon title={error} /> : null}
      {bill ? (
        <>
          <table>
            <tbody>
              {bill.lines.map((line, i) => (
                <BillRow key={i} label={line.label} amount={rupees(line.amount)} />
              ))}
              <BillRow className="fl-bill-sub" label="Subtotal" amount={rupees(bill.subtotal)} testId="bill-subtotal" />
              {bill.discount > 0 ? (
                <BillRow
                  label={`Sponsor discount${bill.offerInfo ? ` (${bill.offerInfo.offerName})` : ''}`}
                  amount={`−${rupees(bill.discount)}`}
                  testId="bill-discount"
                />
              ) : null}
              <BillRow label={`GST (${bill.gstInfo[0]?.gst_percent ?? 18}%)`} amount={rupees(bill.gstInfo[0]?.gst_amount ?? 0)} testId="bill-gst" />
              <BillRow className="fl-bill-total" label="Total" amount={rupees(bill.total_amount)} testId="bill-total" />
            </tbody>
          </table>
        </>
      ) : (
        <p className="fl-muted">Add photos to see your bill.</p>
      )}
      {checkoutBlocked ? <Alert type="warning" showIcon title={checkoutBlocked} /> : null}
      <Button type="primary" size="large" block disabled={!bill || !fromServer || Boolean(checkoutBlocked)} onClick={onCheckout}>
        Proceed to checkout
      </Button>
    </aside>
  );
}
