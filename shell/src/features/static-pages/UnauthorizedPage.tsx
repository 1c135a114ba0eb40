import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { STORAGE_KEYS } from '@finishline/shared';

/** Local session data that "Log out" clears on this page (spec: clears local session data and returns home). */
const SESSION_KEYS = [STORAGE_KEYS.name, STORAGE_KEYS.email, STORAGE_KEYS.userId, STORAGE_KEYS.isSignedIn, STORAGE_KEYS.sessionToken, STORAGE_KEYS.isOrganiser, STORAGE_KEYS.isPartner];

export function UnauthorizedPage() {
  const navigate = useNavigate();
  const logOut = () => {
    SESSION_KEYS.forEach((key) => localStorage.removeItem(key));
    navigate('/');
  };
  return (
    <Result
      status="403"
      title="You are not authorized to access this page."
      extra={
        <Button type="link" onClick={logOut}>
          Log out
        </Button>
      }
    />
  );
}
