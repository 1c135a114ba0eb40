import { Alert, Button, Spin } from 'antd';
import type { PricedBill } from '@finishline/shared';

const rupees = (n: number) => `₹${n.toLocaleString('en-IN')}`;

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
                <tr key={i}>
                  <td>{line.label}</td>
                  <td className="fl-amount">{rupees(line.amount)}</td>
                </tr>
              ))}
              <tr className="fl-bill-sub">
                <td>Subtotal</td>
                <td className="fl-amount" data-testid="bill-subtotal">
                  {rupees(bill.subtotal)}
                </td>
              </tr>
              {bill.discount > 0 ? (
                <tr>
                  <td>Sponsor discount{bill.offerInfo ? ` (${bill.offerInfo.offerName})` : ''}</td>
                  <td className="fl-amount" data-testid="bill-discount">
                    −{rupees(bill.discount)}
                  </td>
                </tr>
              ) : null}
              <tr>
                <td>GST ({bill.gstInfo[0]?.gst_percent ?? 18}%)</td>
                <td className="fl-amount" data-testid="bill-gst">
                  {rupees(bill.gstInfo[0]?.gst_amount ?? 0)}
                </td>
              </tr>
              <tr className="fl-bill-total">
                <td>Total</td>
                <td className="fl-amount" data-testid="bill-total">
                  {rupees(bill.total_amount)}
                </td>
              </tr>
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
