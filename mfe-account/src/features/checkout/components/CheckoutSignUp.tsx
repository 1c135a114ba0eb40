import { SignUpForm } from '@finishline/shared/react';

/** Sign up tab of checkout: a new account, then the Sign in tab with the email filled in. */
export function CheckoutSignUp({ onSignedUp }: { onSignedUp: (email: string) => void }) {
  return <SignUpForm idPrefix="co-signup" onSignedUp={onSignedUp} />;
}
