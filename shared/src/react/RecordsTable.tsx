import { useState } from 'react';
import type { TableColumnsType } from 'antd';
import { PhoneCardsTable } from './PhoneCardsTable';
import { DASHBOARD_PAGE_SIZE, NO_MATCHING_RECORDS } from '../types/organiser';

interface RecordsTableProps<Row> {
  /** null while loading. */
  rows: Row[] | null;
  rowKey: keyof Row & string;
  columns: TableColumnsType<Row>;
  /** Names the rows' cards on a phone. */
  label: string;
}

/**
 * A dashboard table as the spec has them: 15 rows a page, "No matching records found" when empty,
 * a spinner until the rows arrive, and one card per row on a phone.
 */
export function RecordsTable<Row extends object>({ rows, rowKey, columns, label }: RecordsTableProps<Row>) {
  const [page, setPage] = useState(1);
  return (
    <PhoneCardsTable<Row>
      cardsLabel={label}
      rowKey={rowKey}
      size="small"
      loading={rows === null}
      dataSource={rows ?? []}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: NO_MATCHING_RECORDS }}
      pagination={{ current: page, pageSize: DASHBOARD_PAGE_SIZE, onChange: setPage, showSizeChanger: false }}
      columns={columns}
    />
  );
}
