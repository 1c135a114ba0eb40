import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Result, Spin } from 'antd';
import { emailProofNeededOf, isApiError, ordersApi, readLocalSession, type OrderDetail, type PreauthParams } from '@finishline/shared';
import { EmailProofPanel, useDocumentTitle } from '@finishline/shared/react';
import { OrderView, type DownloadsUi } from '../components/OrderView';
import '../orders.css';

type Mode = 'details' | 'myorders' | 'preauth';

/**
 * /orderDetails (state bibId, orderId), /myorders (?orderid= or state orderId) and /preauthdownload
 * (?orderref&e&lt&h). The first two need the signed-in owner: signed out goes to sign-in with a
 * redirect back; an order the API does not show this account (another's, or an unknown reference:
 * the API answers both alike) goes to /unauthorizeduser; an order of the account's own address that
 * waits for the email proof offers the proof and then shows the order.
 */
export function OrderDetailsPage({ mode, downloads }: { mode: Mode; downloads: DownloadsUi }) {
  const [params] = useSearchParams();
  const state = (useLocation().state ?? {}) as { orderId?: string; bibId?: string };
  const navigate = useNavigate();
  const [order, setOrder] = useState<OrderDetail | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [proofNeeded, setProofNeeded] = useState<{ email: string; message: string } | null>(null);
  const [loads, setLoads] = useState(0);
  const session = readLocalSession();
  const orderId = mode === 'myorders' ? (params.get('orderid') ?? state.orderId ?? '') : (state.orderId ?? '');
  const preauth: PreauthParams | null =
    mode === 'preauth' ? { orderref: params.get('orderref') ?? '', e: params.get('e') ?? '', lt: params.get('lt') ?? '', h: params.get('h') ?? '' } : null;
  const preauthKey = preauth ? `${preauth.orderref}|${preauth.e}|${preauth.lt}|${preauth.h}` : '';
  useDocumentTitle(order ? `${order.eventName} - Order ${order.order_ref}` : 'Order details');

  useEffect(() => {
    if (mode !== 'preauth' && (!session.signedIn || !orderId)) return;
    let alive = true;
    const load = async () => {
      try {
        const answer =
          mode === 'preauth'
            ? await ordersApi.preauthDownload(preauth!)
            : mode === 'myorders'
              ? await ordersApi.myOrder(orderId)
              : await ordersApi.orderDetail({ orderID: orderId, bibNumber: state.bibId });
        if (alive) setOrder(answer.result);
      } catch (error) {
        if (!alive) return;
        const proofFor = mode !== 'preauth' ? emailProofNeededOf(error) : null;
        if (proofFor && isApiError(error)) setProofNeeded({ email: proofFor, message: error.message });
        else if (isApiError(error) && (error.statusCode === 403 || error.statusCode === 404) && mode !== 'preauth')
          navigate('/unauthorizeduser', { replace: true });
        else if (isApiError(error) && error.statusCode === 401)
          navigate('/sign-in', { replace: true, state: { redirectTo: `/myorders?orderid=${encodeURIComponent(orderId)}` } });
        else setFailure(isApiError(error) && error.kind === 'http' ? error.message : 'Something went wrong !');
      }
    };
    void load();
    return () => {
      alive = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- preauthKey stands for the link's values
  }, [mode, orderId, preauthKey, session.signedIn, loads]);

  if (mode !== 'preauth' && !session.signedIn) {
    return <Navigate to="/sign-in" replace state={{ redirectTo: `/myorders?orderid=${encodeURIComponent(orderId)}` }} />;
  }
  if (mode !== 'preauth' && !orderId) return <Navigate to="/order-history" replace />;
  if (failure) return <Result status="warning" title={failure} />;
  if (proofNeeded) {
    return (
      <div style={{ maxWidth: 720, margin: '24px auto', padding: '0 16px' }}>
        <h1 style={{ fontSize: 24 }}>{proofNeeded.message}</h1>
        <EmailProofPanel
          email={proofNeeded.email}
          waiting={1}
          onConfirmed={() => {
            setProofNeeded(null);
            setLoads((n) => n + 1);
          }}
        />
      </div>
    );
  }
  if (!order) {
    return (
      <div style={{ textAlign: 'center', padding: 64 }}>
        <Spin size="large" />
      </div>
    );
  }
  return <OrderView order={order} preauth={preauth} downloads={downloads} onChanged={() => setLoads((n) => n + 1)} />;
}
