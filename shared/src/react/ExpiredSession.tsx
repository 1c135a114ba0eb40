import { useNavigate } from 'react-router-dom';
import { Button, Result } from 'antd';
import { ResultHeading } from './ResultHeading';
import { clearSearchExpiry, EXPIRED_SESSION_MESSAGE } from '../storage/searchSession';

/** The expired search session message with Go back, which clears the expiry and goes home. */
export function ExpiredSession() {
  const navigate = useNavigate();
  return (
    <Result
      status="warning"
      title={<ResultHeading>{EXPIRED_SESSION_MESSAGE}</ResultHeading>}
      data-testid="expired-session"
      extra={
        <Button
          type="primary"
          onClick={() => {
            clearSearchExpiry();
            navigate('/home');
          }}
        >
          Go back
        </Button>
      }
    />
  );
}
