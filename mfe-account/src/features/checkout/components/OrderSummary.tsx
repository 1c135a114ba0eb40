import { Alert, Spin } from 'antd';
import { useAtomValue } from 'jotai';
import { shopAtom, type Bill, type BillLine, type CartItem } from '@finishline/shared';

export const rupees = (n: number) => `₹${n.toLocaleString('en-IN')}`;

/** The label of the payment button: what pressing it does, with the real amount. */
export function payButtonLabel(amount: number | null): string {
  // Until the server priced the cart, and for a free order, there is nothing to pay.
  return amount !== null && amount > 0 ? `Pay ${rupees(amount)}` : 'Place Order';
}

const thumbOf = (items: CartItem[], line: BillLine): string[] => {
  const ids = line.kind === 'pack' ? items.filter((i) => i.type === 'download' && i.category === 'image').map((i) => i.id) : line.photoIds;
  return (
    ids
      .map((id) => items.find((i) => i.id === id && i.category !== 'pack'))
      // a video's s3 is the film itself: only its poster image can be a thumbnail
      .map((i) => (i ? (i.category === 'video' ? i.image : i.image || i.s3) : ''))
      .filter(Boolean)
      .slice(0, 6)
  );
};

/**
 * What is being bought: every bill line with thumbnails of its photos, the sponsor discount, GST and
 * the total, as the server priced the cart. Payment goes through PayU (UPI, cards, net banking).
 */
export function OrderSummary({ bill, error, fallbackTotal }: { bill: Bill | null; error: string | null; fallbackTotal?: number }) {
  const items = useAtomValue(shopAtom).cart;
  return (
    <section className="fl-order-summary" aria-labelledby="order-summary-title" data-testid="order-summary">
      <h2 id="order-summary-title">Your order</h2>
      {error ? <Alert type="warning" showIcon title={error} /> : null}
      {bill ? (
        <>
          <ul className="fl-order-lines">
            {bill.lines.map((line, index) => (
              <li key={index} className="fl-order-line">
                <div className="fl-order-thumbs">
                  {thumbOf(items, line).map((src, i) => (
                    <img key={i} src={src} alt={`${line.label}, item ${i + 1}`} loading="lazy" width={48} height={36} />
                  ))}
                </div>
                <span className="fl-order-label">{line.label}</span>
                <span className="fl-order-amount">{rupees(line.amount)}</span>
              </li>
            ))}
          </ul>
          <dl className="fl-order-totals">
            <dt>Subtotal</dt>
            <dd>{rupees(bill.subtotal)}</dd>
            {bill.discount > 0 ? (
              <>
                <dt>Sponsor discount{bill.offerInfo ? ` (${bill.offerInfo.offerName})` : ''}</dt>
                <dd data-testid="checkout-discount">−{rupees(bill.discount)}</dd>
              </>
            ) : null}
            <dt>GST ({bill.gstInfo[0]?.gst_percent ?? 18}%)</dt>
            <dd data-testid="checkout-gst">{rupees(bill.gstInfo[0]?.gst_amount ?? 0)}</dd>
            <dt className="fl-order-total">Total</dt>
            <dd className="fl-order-total" data-testid="checkout-total">
              {rupees(bill.total_amount)}
            </dd>
          </dl>
          <p className="fl-muted">You pay securely with PayU: UPI, cards or net banking.</p>
        </>
      ) : error === null ? (
        <Spin aria-label="Loading your order" />
      ) : typeof fallbackTotal === 'number' ? (
        <p data-testid="checkout-total">Order total: {rupees(fallbackTotal)} (incl. GST)</p>
      ) : null}
    </section>
  );
}
