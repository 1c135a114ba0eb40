import type { ReactNode } from 'react';
import { useDocumentTitle } from '../react';

/** The centred card every account form sits in; full width on a 360px phone. */
export function FormCard({ title, subtitle, children, width = 440 }: { title: string; subtitle?: ReactNode; children: ReactNode; width?: number }) {
  useDocumentTitle(`${title} | Finishline`);
  return (
    <section style={{ display: 'flex', justifyContent: 'center', padding: '32px 12px 48px' }}>
      <div
        style={{
          width: '100%',
          maxWidth: width,
          background: '#fff',
          borderRadius: 12,
          boxShadow: '0 4px 24px rgba(0,0,0,0.06)',
          padding: '24px clamp(16px, 5vw, 32px)',
        }}
      >
        <h1 style={{ fontSize: 24, margin: '0 0 4px' }}>{title}</h1>
        {subtitle ? <div style={{ color: '#666', marginBottom: 16 }}>{subtitle}</div> : <div style={{ marginBottom: 16 }} />}
        {children}
      </div>
    </section>
  );
}
