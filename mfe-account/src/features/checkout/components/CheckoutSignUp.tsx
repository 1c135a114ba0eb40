import { rememberSignIn } from '@finishline/shared';
import { SignUpForm } from '@finishline/shared/react';

/**
 * Sign up tab of checkout: the new account is signed in at once and checkout goes on with the signed-in
 * form (the runner typed the password and solved the captcha once). Should the server not start the
 * session, the Sign in tab opens with the email filled in.
 */
export function CheckoutSignUp({ onSignedIn, onSignedUp }: { onSignedIn: () => void; onSignedUp: (email: string) => void }) {
  return (
    <SignUpForm
      idPrefix="co-signup"
      signIn
      onSignedUp={(email, session) => {
        if (session) {
          rememberSignIn(session);
          onSignedIn();
        } else onSignedUp(email);
      }}
    />
  );
}
