import { NavLink } from 'react-router-dom';

export interface PartnerNavItem {
  to: string;
  label: string;
}

/** The photographer's menu above each partner page; App.tsx lists the pages this remote serves. */
export function PartnerNav({ items }: { items: readonly PartnerNavItem[] }) {
  return (
    <nav aria-label="Partner" style={{ display: 'flex', gap: 16, maxWidth: 1000, margin: '12px auto 0', padding: '0 16px', flexWrap: 'wrap' }}>
      {items.map((item) => (
        <NavLink
          key={item.to}
          to={item.to}
          className="fl-touch-link"
          style={({ isActive }) => ({ fontWeight: isActive ? 700 : 400, textDecoration: isActive ? 'underline' : 'none' })}
        >
          {item.label}
        </NavLink>
      ))}
    </nav>
  );
}
