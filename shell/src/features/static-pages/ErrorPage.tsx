import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useDocumentTitle } from '@finishline/shared/react';

/** Spec texts of the 404 and 500 pages. */
export const ERROR_TEXTS = {
  '404': 'Error 404: the server cannot find the requested resource.',
  '500': 'Error 500: the server encountered an unexpected condition that prevented it from fulfilling the request.',
} as const;

/** /errorone (404 content) and /errortwo (500 content). */
export function ErrorPage({ kind }: { kind: '404' | '500' }) {
  const navigate = useNavigate();
  useDocumentTitle(kind === '404' ? 'Page not found | Finishline' : 'Something went wrong | Finishline');
  return (
    <Result
      status={kind}
      title={kind}
      subTitle={ERROR_TEXTS[kind]}
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          Back Home
        </Button>
      }
    />
  );
}
