import type { ReactNode } from 'react';
import { Pagination } from 'antd';
import type { OrderHistoryRow } from '@finishline/shared';

/**
 * The order history on a phone: one card per order with every column of the table as a labelled line,
 * so BIB, value and status are in view without scrolling sideways.
 */
export function OrderCards(props: {
  rows: OrderHistoryRow[];
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  statusCell: (row: OrderHistoryRow) => ReactNode;
  emptyText: string;
}) {
  const { rows, page, pageSize } = props;
  const shown = rows.slice((page - 1) * pageSize, page * pageSize);
  if (rows.length === 0) return <p className="fl-muted">{props.emptyText}</p>;
  return (
    <>
      <ol className="fl-order-cards" start={(page - 1) * pageSize + 1} aria-label="Your orders">
        {shown.map((row) => (
          <li key={row.order_ref} className="fl-order-card" data-testid="order-card">
            <h2 className="fl-order-card-race">{row.name}</h2>
            <dl>
              <dt>Order Ref#</dt>
              <dd>{row.order_ref}</dd>
              <dt>BIB ID</dt>
              <dd>{row.bib_id}</dd>
              <dt>Photos</dt>
              <dd>{row.photos_count}</dd>
              <dt>Order Value</dt>
              <dd>₹{row.price}</dd>
              <dt>GST</dt>
              <dd>₹{row.gst}</dd>
              <dt>Payment ID</dt>
              <dd>{row.payment_id ?? '-'}</dd>
            </dl>
            <div className="fl-order-card-status">{props.statusCell(row)}</div>
          </li>
        ))}
      </ol>
      <Pagination
        current={page}
        pageSize={pageSize}
        total={rows.length}
        onChange={props.onPage}
        showSizeChanger={false}
        size="small"
        style={{ textAlign: 'center' }}
      />
    </>
  );
}
