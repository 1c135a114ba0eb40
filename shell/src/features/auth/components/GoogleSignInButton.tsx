import { useEffect, useRef } from 'react';
import { App } from 'antd';
import { authApi, getRuntimeConfig, isApiError, rememberSignIn, type LoginResult } from '@finishline/shared';

interface GoogleIdentity {
  accounts: {
    id: {
      initialize(options: { client_id: string; callback: (response: { credential?: string }) => void }): void;
      renderButton(element: HTMLElement, options: Record<string, unknown>): void;
    };
  };
}

const GSI_SCRIPT = 'https://accounts.google.com/gsi/client';
let scriptLoading: Promise<void> | null = null;

function loadGoogleScript(): Promise<void> {
  scriptLoading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GSI_SCRIPT;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      scriptLoading = null;
      reject(new Error('Google sign-in could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return scriptLoading;
}

/**
 * "Sign in with Google", shown only when the deployment configures a client id. Google hands the
 * browser an ID token; our server verifies it and opens the session.
 */
export function GoogleSignInButton({ onSignedIn }: { onSignedIn: (login: LoginResult, message: string) => void }) {
  const { message } = App.useApp();
  const holder = useRef<HTMLDivElement | null>(null);
  const clientId = getRuntimeConfig().googleClientId;
  const onSignedInRef = useRef(onSignedIn);
  useEffect(() => {
    onSignedInRef.current = onSignedIn;
  }, [onSignedIn]);

  useEffect(() => {
    if (!clientId) return;
    let alive = true;
    loadGoogleScript()
      .then(() => {
        const google = (window as unknown as { google?: GoogleIdentity }).google;
        if (!alive || !google || !holder.current) return;
        google.accounts.id.initialize({
          client_id: clientId,
          callback: async ({ credential }) => {
            if (!credential) return void message.warning('Login failed');
            try {
              const answer = await authApi.socialLogin({ tokenkey: credential, login_type: 2 });
              rememberSignIn(answer.result);
              onSignedInRef.current(answer.result, answer.message);
            } catch (error) {
              message.error(isApiError(error) ? error.message : 'Login failed', 4);
            }
          },
        });
        google.accounts.id.renderButton(holder.current, { theme: 'outline', size: 'large', text: 'continue_with', width: 280 });
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [clientId, message]);

  if (!clientId) return null;
  return (
    <div style={{ marginBottom: 16 }}>
      <div ref={holder} data-testid="google-sign-in" style={{ display: 'flex', justifyContent: 'center', minHeight: 44 }} />
      <div style={{ textAlign: 'center', color: '#595959', margin: '12px 0 0', fontSize: 13 }}>or use your email</div>
    </div>
  );
}
