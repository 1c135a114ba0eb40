import type { CSSProperties, Key, ReactNode } from 'react';
import { Empty, Grid, Pagination, Spin, Table, type TableProps } from 'antd';

type Column<Row> = NonNullable<TableProps<Row>['columns']>[number];

export interface PhoneCardsTableProps<Row extends object> extends TableProps<Row> {
  /** Names the list of cards on a phone (the table's section usually names the table). */
  cardsLabel: string;
  /** A row shown after the others as a last, bold card on a phone (the table's summary row on a wider screen). */
  totalRow?: Row;
  /** The column whose cell heads each card (the first by default); the others are its fields. */
  cardHeadingColumn?: number;
}

const CARD: CSSProperties = { listStyle: 'none', border: '1px solid #e5e5e5', borderRadius: 8, padding: '10px 12px', background: '#fff' };
const PAIR: CSSProperties = { display: 'grid', gridTemplateColumns: 'minmax(96px, 40%) minmax(0, 1fr)', gap: '4px 12px', margin: 0 };
const LABEL: CSSProperties = { color: '#595959', margin: 0 };
const VALUE: CSSProperties = { margin: 0, overflowWrap: 'anywhere' };

function cellOf<Row extends object>(column: Column<Row>, row: Row, index: number): ReactNode {
  const dataIndex = 'dataIndex' in column ? column.dataIndex : undefined;
  const value = typeof dataIndex === 'string' || typeof dataIndex === 'number' ? (row as Record<string | number, unknown>)[dataIndex] : undefined;
  if (column.render) {
    const rendered = column.render(value, row, index);
    // A render may return cell props ({ children, props }); a card wants its content only.
    if (rendered && typeof rendered === 'object' && 'children' in (rendered as object) && !('$$typeof' in (rendered as object)))
      return (rendered as { children: ReactNode }).children;
    return rendered as ReactNode;
  }
  return value === null || value === undefined ? '' : String(value);
}

function keyOf<Row extends object>(rowKey: TableProps<Row>['rowKey'], row: Row, index: number): Key {
  if (typeof rowKey === 'function') return rowKey(row, index);
  if (typeof rowKey === 'string') return String((row as Record<string, unknown>)[rowKey]);
  return index;
}

/**
 * An antd Table on a tablet or desktop; on a phone the same rows as cards, one per row, each
 * field under its column's title. A wide table on a phone either hid columns off to the right or
 * scrolled inside its frame (a region a keyboard cannot reach), and broke dates mid-value.
 * One column (the first by default) heads each card.
 */
export function PhoneCardsTable<Row extends object>(props: PhoneCardsTableProps<Row>) {
  const { cardsLabel, totalRow, cardHeadingColumn = 0, ...tableProps } = props;
  const phone = Grid.useBreakpoint().md === false;
  if (!phone) return <Table<Row> {...tableProps} />;

  const { columns = [], dataSource = [], rowKey, loading, locale, pagination } = tableProps;
  const paging = pagination || null;
  const pageSize = paging?.pageSize ?? dataSource.length;
  const current = paging?.current ?? 1;
  // A server-paged table hands over one page of rows and the total; a local one all of them.
  const serverPaged = paging?.total !== undefined && paging.total > dataSource.length;
  const rows = serverPaged || !paging ? dataSource : dataSource.slice((current - 1) * pageSize, current * pageSize);
  const total = serverPaged ? paging!.total! : dataSource.length;
  const headingColumn = columns[cardHeadingColumn];
  const fieldColumns = columns.filter((_column, i) => i !== cardHeadingColumn);
  const card = (row: Row, index: number, bold: boolean) => (
    <li key={bold ? 'total' : keyOf(rowKey, row, index)} style={{ ...CARD, ...(bold ? { background: '#fafafa', fontWeight: 600 } : {}) }}>
      {headingColumn ? <div style={{ fontWeight: 600, marginBottom: 6 }}>{cellOf(headingColumn, row, index)}</div> : null}
      <dl style={PAIR}>
        {fieldColumns.map((column, i) => (
          <div key={String(column.key ?? i)} style={{ display: 'contents' }}>
            <dt style={LABEL}>{column.title as ReactNode}</dt>
            <dd style={VALUE}>{cellOf(column, row, index)}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
  const busy = Boolean(typeof loading === 'object' ? loading.spinning : loading);
  return (
    <Spin spinning={busy}>
      {rows.length === 0 && !busy ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={locale?.emptyText as ReactNode} />
      ) : (
        <ul aria-label={cardsLabel} style={{ display: 'grid', gap: 10, padding: 0, margin: 0 }}>
          {rows.map((row, index) => card(row, index, false))}
          {totalRow ? card(totalRow, rows.length, true) : null}
        </ul>
      )}
      {paging && total > pageSize ? (
        <Pagination
          style={{ marginTop: 12, justifyContent: 'center' }}
          current={current}
          pageSize={pageSize}
          total={total}
          onChange={(page, size) => paging.onChange?.(page, size)}
          showSizeChanger={false}
        />
      ) : null}
    </Spin>
  );
}
