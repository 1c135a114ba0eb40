import { useEffect, useMemo, useState, type ComponentType } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useAtom } from 'jotai';
import { Button, Grid, Input, Result, Table, Tag } from 'antd';
import { ordersApi, readLocalSession, shopAtom, STORAGE_KEYS, type OrderHistoryResult, type OrderHistoryRow, localStore } from '@finishline/shared';
import { EmailProofPanel, returnHomeActions, useDocumentTitle, useSearchedPages } from '@finishline/shared/react';
import { restoreOrderToCart } from '../api/restoreOrderToCart';
import { OrderCards } from '../components/OrderCards';
import '../orders.css';

export const HISTORY_PAGE_SIZE = 15;
export const PREBOOK_BIB = 'prebook';

/** The pre-order mapping modal, handed in by App.tsx (features do not import each other). */
export interface PrebookModalProps {
  open: boolean;
  onClose: () => void;
  prefill?: { race?: string; orderID?: string; email?: string; phone_number?: string };
}

/**
 * /order-history: the signed-in user's orders with search (event name, BIB or order reference),
 * 15 rows per page and the status actions. `?prebooked=1&race=<event>` opens the 'Pre-Booked Photos'
 * modal (the storefront hero links here), also for a visitor who is not signed in.
 */
export function OrderHistoryPage({ PrebookModal, Overlay }: { PrebookModal: ComponentType<PrebookModalProps>; Overlay: ComponentType }) {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [shop, setShop] = useAtom(shopAtom);
  const session = readLocalSession();
  const [rows, setRows] = useState<OrderHistoryRow[] | null>(null);
  // Orders placed with the account's address without signing in, held back until it proves the address.
  const [proof, setProof] = useState<Pick<OrderHistoryResult, 'withheld_orders' | 'email'> | null>(null);
  const [loads, setLoads] = useState(0);
  const { search, setSearch, page, setPage } = useSearchedPages();
  const [busy, setBusy] = useState(false);
  const [prebook, setPrebook] = useState<PrebookModalProps['prefill'] | null>(
    params.get('prebooked') === '1' ? { race: params.get('race') ?? undefined } : null,
  );
  useDocumentTitle('Order History');
  // Phones get cards: a table there hid BIB, value and status off to the right.
  const phone = Grid.useBreakpoint().md === false;

  useEffect(() => {
    if (!session.signedIn) {
      setRows([]);
      return;
    }
    let alive = true;
    // The history is fetched once; the search box filters the rows here like the spec's table.
    ordersApi
      .orderHistory({ userID: session.userId, searchtext: '' })
      .then(({ result }) => {
        if (!alive) return;
        setRows(result.order_history);
        setProof(result.withheld_orders > 0 ? { withheld_orders: result.withheld_orders, email: result.email } : null);
      })
      .catch((error) => {
        console.error('order history failed', error); // spec: logged only, the page renders empty
        if (alive) setRows([]);
      });
    return () => {
      alive = false;
    };
  }, [session.signedIn, session.userId, loads]);

  const filtered = useMemo(() => {
    const needle = search.trim().toLowerCase();
    if (!rows || !needle) return rows ?? [];
    return rows.filter((r) => r.name.toLowerCase().includes(needle) || r.bib_id.toLowerCase().includes(needle) || r.order_ref.toLowerCase().includes(needle));
  }, [rows, search]);

  const retry = async (row: OrderHistoryRow) => {
    setBusy(true);
    try {
      const { shop: next, route } = await restoreOrderToCart(row.order_ref, shop);
      setShop(next);
      localStore.set(STORAGE_KEYS.bibId, next.bibNumber ?? '');
      localStore.setFlag(STORAGE_KEYS.isUnlabeled, row.unlabeled);
      navigate(route);
    } catch (error) {
      console.error('retry failed', error);
    } finally {
      setBusy(false);
    }
  };

  const open = (row: OrderHistoryRow) =>
    navigate('/orderDetails', { state: { bibId: row.bib_id, orderId: row.order_ref, payment_id: row.payment_id, moveFrom: 'history' } });

  const statusCell = (row: OrderHistoryRow) => {
    if (row.status === 'Pending')
      return (
        <Button size="small" onClick={() => retry(row)}>
          Retry
        </Button>
      );
    if (row.status === 'Paid' && row.bib_id === PREBOOK_BIB) {
      return (
        <Button size="small" type="primary" onClick={() => setPrebook({ race: row.name, orderID: row.order_ref, email: row.email, phone_number: row.phone })}>
          Generate link
        </Button>
      );
    }
    if (row.status === 'Paid')
      return (
        <Button size="small" type="primary" onClick={() => open(row)}>
          Paid
        </Button>
      );
    if (row.status === 'Downloaded')
      return (
        <Button size="small" onClick={() => open(row)}>
          Downloaded
        </Button>
      );
    return <Tag>Cancelled</Tag>;
  };

  const closePrebook = () => {
    setPrebook(null);
    if (params.get('prebooked')) setParams({}, { replace: true });
  };
  const modal = <PrebookModal open={prebook !== null} onClose={closePrebook} prefill={prebook ?? undefined} />;
  // Proven: the held-back orders are the account's now, so the history is read again.
  const proofPanel = proof ? <EmailProofPanel email={proof.email} waiting={proof.withheld_orders} onConfirmed={() => setLoads((n) => n + 1)} /> : null;

  if (rows !== null && rows.length === 0) {
    return (
      <>
        {modal}
        {proofPanel ? <div style={{ maxWidth: 720, margin: '24px auto 0', padding: '0 16px' }}>{proofPanel}</div> : null}
        <Result
          status="info"
          title="No Purchase History"
          subTitle="Check back after Your next Purchase!"
          extra={returnHomeActions(session.signedIn, navigate)}
        />
      </>
    );
  }

  return (
    <div style={{ maxWidth: 1200, margin: '24px auto', padding: '0 16px' }}>
      {busy ? <Overlay /> : null}
      {modal}
      <h1 style={{ fontSize: 26 }}>Order History</h1>
      {proofPanel}
      <Input.Search
        aria-label="Search orders"
        placeholder="Search by event name, BIB or order reference"
        allowClear
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        style={{ maxWidth: 420, marginBottom: 16 }}
      />
      {phone ? (
        rows === null ? null : (
          <OrderCards rows={filtered} page={page} pageSize={HISTORY_PAGE_SIZE} onPage={setPage} statusCell={statusCell} emptyText="No matching records found" />
        )
      ) : (
        <Table<OrderHistoryRow>
          rowKey="order_ref"
          loading={rows === null}
          dataSource={filtered}
          scroll={{ x: 900 }}
          locale={{ emptyText: 'No matching records found' }}
          pagination={{ current: page, pageSize: HISTORY_PAGE_SIZE, onChange: setPage, showSizeChanger: false, hideOnSinglePage: false }}
          columns={[
            { title: 'Sl. No.', key: 'index', render: (_v, _r, i) => (page - 1) * HISTORY_PAGE_SIZE + i + 1 },
            { title: 'Race', dataIndex: 'name' },
            { title: 'Order Ref#', dataIndex: 'order_ref' },
            { title: 'BIB ID', dataIndex: 'bib_id' },
            { title: 'Photos', dataIndex: 'photos_count' },
            { title: 'Order Value', dataIndex: 'price', render: (v: number) => `₹${v}` },
            { title: 'GST', dataIndex: 'gst', render: (v: number) => `₹${v}` },
            { title: 'Payment ID', dataIndex: 'payment_id', render: (v: string | null) => v ?? '-' },
            { title: 'Status', key: 'status', render: (_v, row) => statusCell(row) },
          ]}
        />
      )}
    </div>
  );
}
