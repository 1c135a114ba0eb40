import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';

/** /errorone (404 content) and /errortwo (500 content). */
export function ErrorPage({ kind }: { kind: '404' | '500' }) {
  const navigate = useNavigate();
  return (
    <Result
      status={kind}
      title={kind}
      subTitle={kind === '404' ? 'Sorry, the page you visited does not exist.' : 'Sorry, something went wrong.'}
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          Back Home
        </Button>
      }
    />
  );
}
