import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { isApiError } from '@finishline/shared/runtime';

/**
 * What a role-guarded page does when the server refuses it: 401 goes to sign-in (and back here
 * afterwards), 403 to /unauthorizeduser. Returns true when it navigated away, so the caller handles
 * every other failure itself.
 */
export function useAccessRefused(backTo: string): (error: unknown) => boolean {
  const navigate = useNavigate();
  return useCallback(
    (error: unknown) => {
      if (!isApiError(error)) return false;
      if (error.statusCode === 401) navigate('/sign-in', { replace: true, state: { redirectTo: backTo } });
      else if (error.statusCode === 403) navigate('/unauthorizeduser', { replace: true });
      else return false;
      return true;
    },
    [navigate, backTo],
  );
}
