import { useCallback, useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { App as AntApp, Alert, Button, Form, Input, InputNumber, Modal, Radio, Space, Tag } from 'antd';
import {
  COURIER_REQUIRED_MESSAGE,
  formatRupees,
  fulfilmentApi,
  printRefundSchema,
  REFUND_AMOUNT_MESSAGE,
  REFUND_POLICY,
  isApiError,
  printLineStatusSchema,
  PRINT_BATCH_MAX_LINES,
  PRINT_BATCH_MESSAGES,
  PRINT_BATCH_STATUSES,
  PRINT_LINE_NEXT,
  readLocalSession,
  type FulfilmentLine,
  type PrintLineStatus,
} from '@finishline/shared';
import { PhoneCardsTable, saveBlob, useAccessRefused, useDocumentTitle, useSearchedPages } from '@finishline/shared/react';
import { ReplacementRequests } from '../components/ReplacementRequests';

type Filter = PrintLineStatus | 'all';
const FILTERS: Array<{ value: Filter; label: string }> = [
  { value: 'queued', label: 'Queued' },
  { value: 'printed', label: 'Printed' },
  { value: 'shipped', label: 'Shipped' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'returned', label: 'Returned' },
  { value: 'all', label: 'All' },
];
const STATUS_COLOUR: Record<PrintLineStatus, string> = { queued: 'orange', printed: 'blue', shipped: 'geekblue', delivered: 'green', returned: 'red' };
const MOVE_LABEL: Record<PrintLineStatus, string> = {
  queued: 'Queue',
  printed: 'Mark printed',
  shipped: 'Mark shipped',
  delivered: 'Mark delivered',
  returned: 'Mark returned',
};
const PAGE_SIZE = 15;
/** A tag holding a sentence wraps like text (antd keeps tags on one line, which pushed the table past the page). */
const WRAPPING_TAG = { whiteSpace: 'normal', overflowWrap: 'anywhere' } as const;

/** What may still be refunded of a line: paid, less refunded, less refunds pending at the gateway. */
const refundableOf = (line: FulfilmentLine) => Math.max(0, Math.round((line.amount - line.refunded - line.refundPending) * 100) / 100);

/** The lines a batch takes from what the list shows: still to print or ship, file ready, oldest first, at most PRINT_BATCH_MAX_LINES. */
const batchLinesOf = (lines: FulfilmentLine[]) =>
  lines.filter((l) => PRINT_BATCH_STATUSES.includes(l.status) && l.fileState === 'ready').slice(0, PRINT_BATCH_MAX_LINES);

/** How long a line has waited while it is still to be printed or shipped; afterwards the day it was paid. */
function waitingText(line: FulfilmentLine): string {
  if (line.status !== 'queued' && line.status !== 'printed') return line.paidAt ? `Paid ${new Date(line.paidAt).toLocaleDateString('en-IN')}` : '-';
  return line.ageHours < 48 ? `${line.ageHours} h` : `${Math.floor(line.ageHours / 24)} days`;
}

/**
 * /print-orders: the print queue for fulfilment staff and operators. Paid print and collage lines,
 * oldest first; each line's print-ready file, where it goes, and its next step (printed, shipped
 * with courier and tracking number, delivered, returned). The server checks the role on every
 * call and refuses a step backwards or a line someone else moved meanwhile.
 */
export function PrintOrdersPage() {
  const session = readLocalSession();
  const { message } = AntApp.useApp();
  const refused = useAccessRefused('/print-orders');
  const [filter, setFilter] = useState<Filter>('queued');
  const [lines, setLines] = useState<FulfilmentLine[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { search, setSearch, page, setPage } = useSearchedPages();
  const [busyLine, setBusyLine] = useState<number | null>(null);
  const [shipping, setShipping] = useState<FulfilmentLine | null>(null);
  const [shipForm] = Form.useForm<{ courier: string; trackingNumber: string }>();
  // The line being refunded and the key of this one refund (kept while the dialog is open: a second
  // click or a retry after a failure sends the same key, and the server refunds once).
  const [refunding, setRefunding] = useState<{ line: FulfilmentLine; requestKey: string } | null>(null);
  const [refundForm] = Form.useForm<{ amount: number }>();
  const [requestsVersion, setRequestsVersion] = useState(0);
  const [batchBusy, setBatchBusy] = useState(false);
  // Each search reads the list again, even for the same reference: staff waiting for a file press it again.
  const [searches, setSearches] = useState(0);
  useDocumentTitle('Print Orders');

  const load = useCallback(() => {
    setLines(null);
    setFailure(null);
    fulfilmentApi
      .queue({ status: filter, search })
      .then(({ result }) => setLines(result.lines))
      .catch((error) => {
        if (refused(error)) return;
        setLines([]);
        setFailure(isApiError(error) ? error.message : 'Something went wrong. Please try again.');
      });
  }, [filter, search, refused]);
  useEffect(() => {
    if (session.signedIn) load();
  }, [session.signedIn, load, searches]);

  if (!session.signedIn) return <Navigate to="/sign-in" replace state={{ redirectTo: '/print-orders' }} />;

  const failed = (error: unknown) => {
    if (refused(error)) return;
    message.error(isApiError(error) ? error.message : 'Something went wrong. Please try again.');
  };

  const move = async (line: FulfilmentLine, status: PrintLineStatus, shipment?: { courier: string; trackingNumber: string }) => {
    setBusyLine(line.id);
    try {
      const answer = await fulfilmentApi.moveLine({ lineId: line.id, status, ...shipment });
      message.success(`Line ${line.id} (order ${line.orderRef}): ${answer.message}`);
      setShipping(null);
      load();
    } catch (error) {
      failed(error);
      // Someone else may have moved it: show the line as it is now.
      if (isApiError(error) && error.statusCode === 409) load();
    } finally {
      setBusyLine(null);
    }
  };

  const ship = async () => {
    if (!shipping) return;
    const values = await shipForm.validateFields();
    try {
      await printLineStatusSchema.validate({ lineId: shipping.id, status: 'shipped', ...values });
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
      return;
    }
    await move(shipping, 'shipped', { courier: values.courier.trim(), trackingNumber: values.trackingNumber.trim() });
  };

  const refund = async () => {
    if (!refunding) return;
    const { amount } = await refundForm.validateFields();
    const body = { orderItemId: refunding.line.orderItemId, amount, requestKey: refunding.requestKey };
    try {
      await printRefundSchema.validate(body);
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
      return;
    }
    setBusyLine(refunding.line.id);
    try {
      const answer = await fulfilmentApi.refund(body);
      if (answer.result.refund.status === 'refunded') message.success(`Line ${refunding.line.id} (order ${refunding.line.orderRef}): ${answer.message}`);
      else message.warning(`Line ${refunding.line.id} (order ${refunding.line.orderRef}): ${answer.message}`);
      setRefunding(null);
      load();
    } catch (error) {
      failed(error);
    } finally {
      setBusyLine(null);
    }
  };

  const download = async (line: FulfilmentLine) => {
    setBusyLine(line.id);
    try {
      saveBlob(await fulfilmentApi.lineFile(line.id), `${line.orderRef}-${line.id}.jpg`);
    } catch (error) {
      failed(error);
    } finally {
      setBusyLine(null);
    }
  };

  // One zip for the print shop: the ready files of the lines shown (oldest first) and their packing list.
  const downloadBatch = async () => {
    const batchLines = batchLinesOf(lines ?? []);
    if (batchLines.length === 0) {
      message.error(PRINT_BATCH_MESSAGES.empty);
      return;
    }
    setBatchBusy(true);
    try {
      const { blob, fileName } = await fulfilmentApi.batch({ lineIds: batchLines.map((l) => l.id) });
      saveBlob(blob, fileName ?? 'print-batch.zip');
      const parcels = new Set(batchLines.map((l) => l.orderRef)).size;
      message.success(
        `Batch downloaded: ${batchLines.length} ${batchLines.length === 1 ? 'line' : 'lines'} in ${parcels} ${parcels === 1 ? 'parcel' : 'parcels'}, with the packing list.`,
      );
      load();
    } catch (error) {
      failed(error);
      if (isApiError(error) && error.statusCode === 409) load();
    } finally {
      setBatchBusy(false);
    }
  };

  const exportCsv = async () => {
    try {
      saveBlob(await fulfilmentApi.exportCsv({ status: filter, search }), 'print-lines.csv');
    } catch (error) {
      failed(error);
    }
  };

  const fileCell = (line: FulfilmentLine) => {
    if (line.fileState === 'held')
      return (
        <Tag color="red" style={WRAPPING_TAG}>
          Held: {line.holdReason}
        </Tag>
      );
    // Only a queued line needs a file: one moved on without it (printed before files were kept) has none.
    if (line.fileState === 'pending') return line.status === 'queued' ? <Tag>Being made</Tag> : <Tag>No file kept</Tag>;
    return (
      <Space direction="vertical" size={2}>
        <span>
          Ready, {line.fileWidth} x {line.fileHeight} px at {line.fileDpi} dpi
        </span>
        {line.warning ? (
          <Tag color="gold" style={WRAPPING_TAG}>
            {line.warning}
          </Tag>
        ) : null}
        {line.lastBatch ? <Tag color="purple">{`In batch ${line.lastBatch}`}</Tag> : null}
      </Space>
    );
  };

  return (
    <div style={{ maxWidth: 1240, margin: '24px auto', padding: '0 16px' }} data-testid="print-orders">
      <h1 style={{ fontSize: 26 }}>Print Orders</h1>
      <p style={{ marginTop: 0 }}>
        Paid prints and collages, oldest first. Download a line&apos;s print-ready file, or a batch of the ready lines shown with their packing list, then move
        each line on as it is printed, shipped and delivered.
      </p>
      {/* Buttons that wrap: six statuses do not fit one row of a phone. */}
      <Radio.Group
        aria-label="Status"
        optionType="button"
        buttonStyle="solid"
        options={FILTERS}
        value={filter}
        onChange={(event) => {
          setFilter(event.target.value as Filter);
          setPage(1);
        }}
        style={{ display: 'flex', flexWrap: 'wrap', rowGap: 6, marginBottom: 12 }}
      />
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, justifyContent: 'space-between', marginBottom: 12 }}>
        <Input.Search
          aria-label="Search by order reference"
          placeholder="Search by order reference"
          allowClear
          onSearch={(value) => {
            setSearch(value.trim());
            setSearches((n) => n + 1);
          }}
          style={{ maxWidth: 360 }}
        />
        <Space wrap>
          <Button type="primary" onClick={downloadBatch} loading={batchBusy} disabled={lines === null || batchLinesOf(lines).length === 0}>
            {`Download batch (${batchLinesOf(lines ?? []).length})`}
          </Button>
          <Button onClick={exportCsv}>Export CSV</Button>
        </Space>
      </div>
      <ReplacementRequests
        version={requestsVersion}
        onDecided={() => {
          setRequestsVersion((n) => n + 1);
          load();
        }}
        refused={refused}
      />
      {failure ? <Alert type="error" showIcon message={failure} style={{ marginBottom: 12 }} /> : null}
      <section aria-label="Print lines">
        <PhoneCardsTable<FulfilmentLine>
          cardsLabel="Print lines"
          rowKey="id"
          size="small"
          loading={lines === null}
          dataSource={lines ?? []}
          // Cells wrap to fit a desktop; narrower than this the table scrolls (a phone gets cards).
          scroll={{ x: 1000 }}
          locale={{ emptyText: 'No print lines here.' }}
          pagination={{ current: page, pageSize: PAGE_SIZE, onChange: setPage, showSizeChanger: false }}
          columns={[
            { title: 'Order', key: 'order', render: (_v, l) => `${l.orderRef} · line ${l.id}` },
            { title: 'Waiting', key: 'age', render: (_v, l) => waitingText(l) },
            {
              title: 'Product',
              key: 'product',
              // A collage's product name already says its orientation.
              render: (_v, l) =>
                `${l.product} x ${l.quantity}${l.orientation && l.kind !== 'collage' ? ` (${l.orientation})` : ''}${l.replacementOf ? `, replacement of line ${l.replacementOf}` : ''}`,
            },
            { title: 'Race and BIB', key: 'race', render: (_v, l) => `${l.eventName}, ${l.bibNumber}` },
            { title: 'File', key: 'file', render: (_v, l) => fileCell(l) },
            { title: 'Ship to', key: 'address', render: (_v, l) => [l.buyerName, l.phone, l.shippingAddress, l.pincode].filter(Boolean).join(', ') },
            {
              title: 'Status',
              key: 'status',
              render: (_v, l) => (
                <Space direction="vertical" size={2}>
                  <Tag color={STATUS_COLOUR[l.status]}>{FILTERS.find((f) => f.value === l.status)?.label}</Tag>
                  {l.courier ? <span>{`${l.courier}, tracking ${l.trackingNumber}`}</span> : null}
                  {l.refunded > 0 ? <span>{`Refunded ${formatRupees(l.refunded)}`}</span> : null}
                  {l.refundPending > 0 ? (
                    <Tag color="gold" title={l.refundError ?? undefined}>
                      {`Refund pending ${formatRupees(l.refundPending)}`}
                    </Tag>
                  ) : null}
                  {l.replacementRequest ? <span>{`Replacement ${l.replacementRequest.status}`}</span> : null}
                </Space>
              ),
            },
            {
              title: 'Actions',
              key: 'actions',
              render: (_v, l) => (
                <Space wrap>
                  <Button
                    size="small"
                    disabled={l.fileState !== 'ready'}
                    loading={busyLine === l.id}
                    onClick={() => download(l)}
                    aria-label={`Download file: line ${l.id}`}
                  >
                    Download file
                  </Button>
                  {PRINT_LINE_NEXT[l.status].map((next) => (
                    <Button
                      key={next}
                      size="small"
                      type={next === 'returned' ? 'default' : 'primary'}
                      danger={next === 'returned'}
                      disabled={l.fileState !== 'ready' && l.status === 'queued'}
                      loading={busyLine === l.id}
                      aria-label={`${MOVE_LABEL[next]}: line ${l.id}`}
                      onClick={() => {
                        if (next === 'shipped') {
                          shipForm.resetFields();
                          setShipping(l);
                        } else void move(l, next);
                      }}
                    >
                      {MOVE_LABEL[next]}
                    </Button>
                  ))}
                  {l.replacementOf === null && refundableOf(l) > 0 ? (
                    <Button
                      size="small"
                      aria-label={`Refund: line ${l.id}`}
                      loading={busyLine === l.id}
                      onClick={() => {
                        refundForm.setFieldsValue({ amount: refundableOf(l) });
                        setRefunding({ line: l, requestKey: crypto.randomUUID() });
                      }}
                    >
                      Refund
                    </Button>
                  ) : null}
                </Space>
              ),
            },
          ]}
        />
      </section>
      <Modal
        open={shipping !== null}
        title={shipping ? `Ship line ${shipping.id} (order ${shipping.orderRef})` : ''}
        okText="Mark shipped"
        onOk={ship}
        confirmLoading={busyLine !== null}
        onCancel={() => setShipping(null)}
        destroyOnHidden
      >
        <Form form={shipForm} layout="vertical" requiredMark={false}>
          <Form.Item label="Courier" name="courier" rules={[{ required: true, whitespace: true, message: COURIER_REQUIRED_MESSAGE }]}>
            <Input autoComplete="off" maxLength={60} />
          </Form.Item>
          <Form.Item label="Tracking number" name="trackingNumber" rules={[{ required: true, whitespace: true, message: COURIER_REQUIRED_MESSAGE }]}>
            <Input autoComplete="off" maxLength={60} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={refunding !== null}
        title={refunding ? `Refund line ${refunding.line.id} (order ${refunding.line.orderRef})` : ''}
        okText="Refund"
        onOk={refund}
        confirmLoading={busyLine !== null}
        onCancel={() => setRefunding(null)}
        destroyOnHidden
      >
        {refunding ? (
          <>
            <p>{`${refunding.line.product}: paid ${formatRupees(refunding.line.amount)}, refunded ${formatRupees(refunding.line.refunded)}${refunding.line.refundPending > 0 ? `, pending ${formatRupees(refunding.line.refundPending)}` : ''}. At most ${formatRupees(refundableOf(refunding.line))} is left to refund.`}</p>
            <p className="fl-muted">{REFUND_POLICY}</p>
          </>
        ) : null}
        <Form form={refundForm} layout="vertical" requiredMark={false}>
          <Form.Item label="Amount to refund (₹)" name="amount" rules={[{ required: true, type: 'number', min: 0.01, message: REFUND_AMOUNT_MESSAGE }]}>
            <InputNumber min={0.01} precision={2} step={1} style={{ width: '100%' }} />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
