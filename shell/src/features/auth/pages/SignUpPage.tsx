import { Link, useNavigate } from 'react-router-dom';
import { App } from 'antd';
import { FormCard, SignUpForm } from '@finishline/shared/react';
import { GoogleSignInButton } from '../components/GoogleSignInButton';
import { readCurrPage } from '../redirects';

/** Spec: success goes to /sign-in after 1 second (or reloads when the current page was NotLoggedIn). */
export const SIGN_UP_REDIRECT_MS = 1000;

/** /sign-up: names, email, ISD code and phone, password and confirmation, captcha, link to sign in. */
export function SignUpPage() {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const afterSignUp = () => {
    if (readCurrPage() === 'NotLoggedIn') window.location.reload();
    else setTimeout(() => navigate('/sign-in'), SIGN_UP_REDIRECT_MS);
  };

  return (
    <FormCard title="Create your account" subtitle="Sign up to keep your race photos and orders in one place." width={520}>
      <GoogleSignInButton
        onSignedIn={(_login, text) => {
          message.success(text, 3);
          navigate('/');
        }}
      />
      <SignUpForm idPrefix="signup" onSignedUp={afterSignUp} />
      <p style={{ textAlign: 'center', marginTop: 16, marginBottom: 0 }}>
        Already have an account?{' '}
        <Link to="/sign-in" className="fl-touch-link">
          Sign in
        </Link>
      </p>
    </FormCard>
  );
}
