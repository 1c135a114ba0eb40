import { useEffect, useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { Result, Spin } from 'antd';
import { authApi, EMAIL_PROOF_MESSAGES, isApiError, ordersApi, readLocalSession, rememberEmailVerified } from '@finishline/shared';
import { EmailProofPanel, FormCard } from '@finishline/shared/react';

interface Status {
  email: string;
  verified: boolean;
  waiting: number;
}

/**
 * /verify-email: the signed-in account proves its email address with a mailed code. Orders placed
 * with the address without signing in show in the order history only after that.
 */
export function VerifyEmailPage() {
  const session = readLocalSession();
  const [status, setStatus] = useState<Status | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [claimed, setClaimed] = useState<number | null>(null);

  useEffect(() => {
    if (!session.signedIn) return;
    let alive = true;
    // The history says how many orders wait for the proof; the account says whether it is proven.
    Promise.all([authApi.currentUser(), ordersApi.orderHistory({ searchtext: '' })])
      .then(([me, history]) => {
        if (!alive) return;
        rememberEmailVerified(me.result.emailVerified);
        setStatus({ email: me.result.email, verified: me.result.emailVerified, waiting: history.result.withheld_orders });
      })
      .catch((error: unknown) => alive && setFailure(isApiError(error) ? error.message : 'Something Went Wrong'));
    return () => {
      alive = false;
    };
  }, [session.signedIn]);

  if (!session.signedIn) return <Navigate to="/sign-in" replace state={{ redirectTo: '/verify-email' }} />;

  const done = (
    <Result
      status="success"
      title={claimed === null ? EMAIL_PROOF_MESSAGES.alreadyConfirmed : EMAIL_PROOF_MESSAGES.confirmed(claimed)}
      extra={<Link to="/order-history">Order history</Link>}
    />
  );

  return (
    <FormCard title="Confirm Email" subtitle="Prove that you read the mail of your account's address.">
      {failure ? <Result status="warning" title={failure} /> : null}
      {!failure && !status ? (
        <div style={{ textAlign: 'center', padding: 24 }}>
          <Spin />
        </div>
      ) : null}
      {status && (status.verified || claimed !== null) ? done : null}
      {status && !status.verified && claimed === null ? (
        <EmailProofPanel email={status.email} waiting={status.waiting} onConfirmed={(result) => setClaimed(result.ordersClaimed)} />
      ) : null}
    </FormCard>
  );
}
