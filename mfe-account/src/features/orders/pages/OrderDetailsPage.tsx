import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Result, Spin } from 'antd';
import { isApiError, ordersApi, readLocalSession, type OrderDetail, type PreauthParams } from '@finishline/shared';
import { useDocumentTitle } from '@finishline/shared/react';
import { OrderView, type DownloadsUi } from '../components/OrderView';
import '../orders.css';

type Mode = 'details' | 'myorders' | 'preauth';

/**
 * /orderDetails (state bibId, orderId), /myorders (?orderid= or state orderId) and /preauthdownload
 * (?orderref&e&lt&h). The first two need the signed-in owner: signed out goes to sign-in with a
 * redirect back, another account goes to /unauthorizeduser (the API refuses it too).
 */
export function OrderDetailsPage({ mode, downloads }: { mode: Mode; downloads: DownloadsUi }) {
  const [params] = useSearchParams();
  const state = (useLocation().state ?? {}) as { orderId?: string; bibId?: string };
  const navigate = useNavigate();
  const [order, setOrder] = useState<OrderDetail | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
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
        if (isApiError(error) && error.statusCode === 403 && mode !== 'preauth') navigate('/unauthorizeduser', { replace: true });
        else if (isApiError(error) && error.statusCode === 401) navigate('/sign-in', { replace: true, state: { redirectTo: `/myorders?orderid=${encodeURIComponent(orderId)}` } });
        else setFailure(isApiError(error) && error.kind === 'http' ? error.message : 'Something went wrong !');
      }
    };
    void load();
    return () => {
      alive = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- preauthKey stands for the link's values
  }, [mode, orderId, preauthKey, session.signedIn]);

  if (mode !== 'preauth' && !session.signedIn) {
    return <Navigate to="/sign-in" replace state={{ redirectTo: `/myorders?orderid=${encodeURIComponent(orderId)}` }} />;
  }
  if (mode !== 'preauth' && !orderId) return <Navigate to="/order-history" replace />;
  if (failure) return <Result status="warning" title={failure} />;
  if (!order) {
    return (
      <div style={{ textAlign: 'center', padding: 64 }}>
        <Spin size="large" />
      </div>
    );
  }
  return <OrderView order={order} preauth={preauth} downloads={downloads} />;
}
