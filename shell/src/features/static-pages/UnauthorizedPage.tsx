import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { logOut } from '@finishline/shared';

/** Shown to a signed-in user lacking rights. Log out ends the session and clears local session data. */
export function UnauthorizedPage() {
  const navigate = useNavigate();
  const onLogOut = async () => {
    await logOut();
    navigate('/');
  };
  return (
    <Result
      status="403"
      title="You are not authorized to access this page."
      extra={
        <Button type="link" onClick={() => void onLogOut()}>
          Log out
        </Button>
      }
    />
  );
}
