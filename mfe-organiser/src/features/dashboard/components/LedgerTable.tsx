import { useState, type ReactNode } from 'react';
import { Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DASHBOARD_PAGE_SIZE, NO_MATCHING_RECORDS, type CsvCell } from '@finishline/shared';
import { CsvButton, PhoneCardsTable } from '@finishline/shared/react';

/** A column of a ledger table: what the screen shows and what the CSV holds are the same text. */
export interface LedgerColumn<T> {
  title: string;
  text: (row: T) => string | number;
  align?: 'left' | 'right';
}

/** A titled dashboard table: 15 rows per page, "No matching records found", an optional total row, CSV export. */
export function LedgerTable<T extends object>({
  title,
  fileName,
  rows,
  columns,
  total,
  rowKey,
  extra,
}: {
  title: string;
  fileName: string;
  rows: T[];
  columns: LedgerColumn<T>[];
  total?: T;
  rowKey: (row: T) => string;
  extra?: ReactNode;
}) {
  const [page, setPage] = useState(1);
  const csvRows: CsvCell[][] = [...rows, ...(total ? [total] : [])].map((r) => columns.map((c) => c.text(r)));
  const antColumns: ColumnsType<T> = columns.map((c, i) => ({
    key: String(i),
    title: c.title,
    align: c.align ?? (i === 0 ? 'left' : 'right'),
    render: (_v, row) => c.text(row),
  }));
  return (
    <section className="fl-org-table" aria-label={title}>
      <div className="fl-org-table-head">
        <Typography.Title level={4} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <span style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          {extra}
          <CsvButton fileName={fileName} header={columns.map((c) => c.title)} rows={csvRows} />
        </span>
      </div>
      <PhoneCardsTable<T>
        cardsLabel={title}
        totalRow={total}
        rowKey={rowKey}
        size="small"
        dataSource={rows}
        columns={antColumns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: NO_MATCHING_RECORDS }}
        pagination={rows.length > DASHBOARD_PAGE_SIZE ? { current: page, pageSize: DASHBOARD_PAGE_SIZE, onChange: setPage, showSizeChanger: false } : false}
        summary={
          total
            ? () => (
                <Table.Summary.Row className="fl-org-total">
                  {columns.map((c, i) => (
                    <Table.Summary.Cell key={i} index={i} align={c.align ?? (i === 0 ? 'left' : 'right')}>
                      <strong>{c.text(total)}</strong>
                    </Table.Summary.Cell>
                  ))}
                </Table.Summary.Row>
              )
            : undefined
        }
      />
    </section>
  );
}
