import { useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Collapse, FloatButton } from 'antd';
import { useDocumentTitle } from '@finishline/shared/react';
import { FAQS } from './faqs';

/** /faqs: 23 expandable questions, a "Still have questions" button to /contact-us and scroll-to-top. */
export function FaqPage() {
  useDocumentTitle('FAQ | Finishline');
  const navigate = useNavigate();
  const items = useMemo(
    () => FAQS.map((faq, index) => ({ key: String(index + 1), label: faq.question, children: <p style={{ margin: 0, lineHeight: 1.6 }}>{faq.answer}</p> })),
    [],
  );
  return (
    <section style={{ maxWidth: 860, margin: '0 auto', padding: '32px 12px 64px' }}>
      <h1 style={{ fontSize: 28, marginBottom: 4 }}>Frequently Asked Questions</h1>
      <p style={{ color: '#666', marginBottom: 24 }}>Everything about finding, buying and downloading your race photos.</p>
      <Collapse items={items} data-testid="faq-list" style={{ background: '#fff' }} />
      <div style={{ textAlign: 'center', marginTop: 32 }}>
        <h2 style={{ fontSize: 20 }}>Still have questions?</h2>
        <Button type="primary" size="large" onClick={() => navigate('/contact-us')}>
          Still have questions
        </Button>
      </div>
      <FloatButton.BackTop visibilityHeight={200} tooltip="Back to top" aria-label="Scroll to top" />
    </section>
  );
}
