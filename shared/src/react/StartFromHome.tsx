import { useNavigate } from 'react-router-dom';
import { Button, Result } from 'antd';

/**
 * A storefront page opened before the search it shows (the photos of a BIB, an event's unlabeled
 * photos): says what to do first, with a button to the home page where the search starts.
 */
export function StartFromHome({ title, subTitle }: { title: string; subTitle?: string }) {
  const navigate = useNavigate();
  return (
    <Result
      status="info"
      title={title}
      subTitle={subTitle}
      extra={
        <Button type="primary" onClick={() => navigate('/home')}>
          Home
        </Button>
      }
    />
  );
}
