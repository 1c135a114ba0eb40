import { useState } from 'react';
import { Table, type TableColumnsType } from 'antd';
import { DASHBOARD_PAGE_SIZE, NO_MATCHING_RECORDS } from '../types/organiser';

interface RecordsTableProps<Row> {
  /** null while loading. */
  rows: Row[] | null;
  rowKey: keyof Row & string;
  columns: TableColumnsType<Row>;
}

/**
 * A dashboard table as the spec has them: 15 rows a page, "No matching records found" when empty,
 * a spinner until the rows arrive, and side scrolling on a narrow screen.
 */
export function RecordsTable<Row extends object>({ rows, rowKey, columns }: RecordsTableProps<Row>) {
  const [page, setPage] = useState(1);
  return (
    <Table<Row>
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
