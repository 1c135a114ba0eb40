import { useState, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { Alert, Tabs } from 'antd';
import { readLocalSession, STORAGE_KEYS, localStore, storedIsdCode, printsDeliverableTo } from '@finishline/shared';
import { useDocumentTitle, ProcessingOverlay } from '@finishline/shared/react';
import { usePlaceOrder } from '../api/usePlaceOrder';
import { useCartShipsGoods, useCheckoutBill } from '../api/useCheckoutBill';
import { OrderSummary, payButtonLabel } from '../components/OrderSummary';
import { SignedInCheckoutForm } from '../components/SignedInCheckoutForm';
import { GuestCheckoutForm } from '../components/GuestCheckoutForm';
import { CheckoutSignIn } from '../components/CheckoutSignIn';
import { CheckoutSignUp } from '../components/CheckoutSignUp';
import '../checkout.css';

/** Navigation state the cart passes to checkout (spec: selectionType, price, printInstruction). */
export interface CheckoutState {
  selectionType?: 'a' | 'b' | null;
  price?: number;
  printInstruction?: string;
}

function useCheckoutState(): CheckoutState {
  return (useLocation().state ?? {}) as CheckoutState;
}

function Shell({ title, children, checkout }: { title: string; children: ReactNode; checkout: ReturnType<typeof useCheckoutBill> }) {
  const navigate = useNavigate();
  const state = useCheckoutState();
  const back = localStore.getFlag(STORAGE_KEYS.isUnlabeled) ? '/unlabeled-cart' : '/cart';
  return (
    <div className="fl-checkout fl-checkout-enter">
      <button type="button" className="fl-back" aria-label="Back to cart" onClick={() => navigate(back)}>
        ← Back
      </button>
      <h1>{title}</h1>
      <OrderSummary bill={checkout.bill} error={checkout.error} fallbackTotal={state.price} />
      {printsDeliverableTo(storedIsdCode()) && state.printInstruction ? (
        <Alert type="info" showIcon title={`Print instructions: ${state.printInstruction}`} style={{ marginBottom: 16 }} />
      ) : null}
      {children}
    </div>
  );
}

/** /UserOrderdetails and /test: the signed-in checkout form. */
export function UserOrderDetailsPage() {
  const state = useCheckoutState();
  const { place, placing } = usePlaceOrder(state.printInstruction ?? '');
  const checkout = useCheckoutBill();
  const shipsGoods = useCartShipsGoods();
  useDocumentTitle('Checkout');
  if (!readLocalSession().signedIn) return <Navigate to="/checkoutPage-authentication" replace state={state} />;
  return (
    <Shell title="Checkout" checkout={checkout}>
      {placing ? <ProcessingOverlay /> : null}
      <SignedInCheckoutForm
        key={String(shipsGoods)}
        shipsGoods={shipsGoods}
        onSubmit={(buyer) => place(buyer)}
        placing={placing}
        submitLabel={payButtonLabel(checkout.bill?.total_amount ?? null)}
      />
    </Shell>
  );
}

/** /checkoutPage-authentication: Sign in, Sign up or Guest Checkout (captcha). */
export function CheckoutAuthPage() {
  const state = useCheckoutState();
  const navigate = useNavigate();
  const [tab, setTab] = useState('guest');
  const [email, setEmail] = useState<string | undefined>();
  const { place, placing } = usePlaceOrder(state.printInstruction ?? '');
  const checkout = useCheckoutBill();
  const shipsGoods = useCartShipsGoods();
  useDocumentTitle('Checkout');
  localStore.set(STORAGE_KEYS.currPage, 'NotLoggedIn');
  const goOnSignedIn = () => navigate('/UserOrderdetails', { replace: true, state });
  return (
    <Shell title="Checkout" checkout={checkout}>
      {placing ? <ProcessingOverlay /> : null}
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'signin', label: 'Sign in', children: <CheckoutSignIn key={email ?? ''} email={email} onSignedIn={goOnSignedIn} /> },
          {
            key: 'signup',
            label: 'Sign up',
            children: (
              <CheckoutSignUp
                onSignedIn={goOnSignedIn}
                onSignedUp={(address) => {
                  setEmail(address);
                  setTab('signin');
                }}
              />
            ),
          },
          {
            key: 'guest',
            label: 'Guest Checkout',
            children: (
              <GuestCheckoutForm
                key={String(shipsGoods)}
                shipsGoods={shipsGoods}
                onSubmit={(buyer, captcha) => place(buyer, { captcha, newUserFlg: 1 })}
                placing={placing}
                submitLabel={payButtonLabel(checkout.bill?.total_amount ?? null)}
              />
            ),
          },
        ]}
      />
    </Shell>
  );
}
