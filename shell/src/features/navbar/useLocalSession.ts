import { useEffect, useState } from 'react';
import {
  authApi,
  forgetSession,
  isApiError,
  logOut,
  readLocalSession,
  rememberEmailVerified,
  SESSION_CHANGED_EVENT,
  type LocalSession,
} from '@finishline/shared';

/**
 * The signed-in user as stored in the browser, kept current when any page (or another tab) signs in
 * or out. On first use the token is checked with the server: an expired or revoked one is forgotten.
 */
export function useLocalSession(): LocalSession {
  const [session, setSession] = useState<LocalSession>(() => readLocalSession());

  useEffect(() => {
    const refresh = () => setSession(readLocalSession());
    window.addEventListener(SESSION_CHANGED_EVENT, refresh);
    window.addEventListener('storage', refresh);
    return () => {
      window.removeEventListener(SESSION_CHANGED_EVENT, refresh);
      window.removeEventListener('storage', refresh);
    };
  }, []);

  useEffect(() => {
    if (!readLocalSession().signedIn) return;
    // The server also says whether the account proved its address (the menu offers Confirm Email until then).
    authApi.currentUser().then(
      ({ result }) => rememberEmailVerified(result.emailVerified),
      (error: unknown) => {
        if (isApiError(error) && error.statusCode === 401) forgetSession();
      },
    );
  }, []);

  return session;
}

/** Log out: the server revokes the session, then the local session keys are cleared. */
export const signOutEverywhere = logOut;
