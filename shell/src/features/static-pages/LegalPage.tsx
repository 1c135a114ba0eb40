import type { ReactNode } from 'react';
import { useDocumentTitle } from '@finishline/shared/react';

export interface LegalSection {
  heading: string;
  paragraphs: ReactNode[];
}

/** Layout of the terms and privacy pages: title, effective date, numbered sections. */
export function LegalPage({ title, effective, intro, sections }: { title: string; effective?: string; intro: string; sections: LegalSection[] }) {
  useDocumentTitle(`${title} | Finishline`);
  return (
    <article style={{ maxWidth: 860, margin: '0 auto', padding: '32px 16px 64px', lineHeight: 1.65, background: '#fff' }}>
      <h1 style={{ fontSize: 28, marginBottom: 4 }}>{title}</h1>
      {effective ? <p style={{ color: '#666' }}>Effective {effective}</p> : null}
      <p>{intro}</p>
      {sections.map((section, index) => (
        <section key={section.heading}>
          <h2 style={{ fontSize: 18, marginTop: 24 }}>
            {index + 1}. {section.heading}
          </h2>
          {section.paragraphs.map((paragraph, i) => (
            <p key={i}>{paragraph}</p>
          ))}
        </section>
      ))}
    </article>
  );
}
