import { useEffect } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useSetAtom } from 'jotai';
import { Result } from 'antd';
import { emptyCart, readLocalSession, shopAtom, STORAGE_KEYS, localStore } from '@finishline/shared';
import { returnHomeActions, useDocumentTitle } from '@finishline/shared/react';

/** /ordersuccess: the Order Status page after payment (or straight after a free order). */
export function OrderSuccessPage() {
  const [params] = useSearchParams();
  const state = (useLocation().state ?? {}) as { orderId?: string };
  const navigate = useNavigate();
  const setShop = useSetAtom(shopAtom);
  const orderRef = params.get('orderref') ?? state.orderId ?? '';
  const session = readLocalSession();
  const email = localStore.get(STORAGE_KEYS.email);
  useDocumentTitle('Order Status');

  // The paid items leave the cart.
  useEffect(() => {
    if (orderRef) setShop((s) => emptyCart(s));
  }, [orderRef, setShop]);

  return (
    <Result
      status="success"
      title="Thank You. Your order has been placed successfully!"
      subTitle={
        <div data-testid="order-success">
          <p>A confirmation with a download link has been mailed to {email ?? 'your email'}.</p>
          {orderRef ? (
            <p>
              Order ID:{' '}
              {session.signedIn ? (
                <Link to={`/myorders?orderid=${encodeURIComponent(orderRef)}`} state={{ orderId: orderRef }} className="fl-touch-link">
                  {orderRef}
                </Link>
              ) : (
                <strong>{orderRef}</strong>
              )}
            </p>
          ) : null}
          {!session.signedIn ? <p>Log in to view your order history.</p> : null}
        </div>
      }
      extra={returnHomeActions(session.signedIn, navigate)}
    />
  );
}
