import { Link } from 'react-router-dom';
import { getRuntimeConfig } from '@finishline/shared';

const LINKS: Array<{ label: string; to: string }> = [
  { label: 'FAQ', to: '/faqs' },
  { label: 'Contact Us', to: '/contact-us' },
  { label: 'Terms and Conditions', to: '/terms-and-conditions' },
  { label: 'Privacy Policy', to: '/privacypolicy' },
];

export function Footer() {
  const { supportEmail } = getRuntimeConfig();
  return (
    <footer style={{ background: '#1d2129', color: '#c9cdd4', padding: '24px 16px', textAlign: 'center', fontSize: 14 }}>
      <nav aria-label="Footer" className="fl-footer-nav" style={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: 8, marginBottom: 8 }}>
        {LINKS.map((link) => (
          <Link key={link.to} to={link.to} style={{ color: '#fff' }}>
            {link.label}
          </Link>
        ))}
      </nav>
      <div>
        Questions?{' '}
        <a className="fl-footer-mail" href={`mailto:${supportEmail}`} style={{ color: '#fff' }}>
          {supportEmail}
        </a>
      </div>
      <div style={{ marginTop: 8 }}>© {new Date().getFullYear()} Finishline. Race photos for runners across India.</div>
    </footer>
  );
}
