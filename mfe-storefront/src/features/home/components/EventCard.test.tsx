import { fireEvent, render, screen } from '@testing-library/react';
import type { EventSummary } from '@finishline/shared';
import { EventCard, raceInitials } from './EventCard';

const race = (logo: string): EventSummary => ({
  event_id: 7,
  event_name: 'Kochi Marathon 2026',
  event_logo: logo,
  event_from_date: '2026-12-13',
  event_to_date: '2026-12-13',
  issearchable: 1,
  selfiesearch: 0,
  preorder_allowed: 0,
  showunlabeled: 0,
});

describe('a race card on the home page', () => {
  it('a race published without a logo shows a designed placeholder with its initials, never a broken image', () => {
    render(<EventCard event={race('')} onChoose={() => undefined} />);
    const placeholder = screen.getByTestId('event-logo-placeholder');
    expect(placeholder).toHaveAccessibleName('Kochi Marathon 2026');
    expect(placeholder).toHaveTextContent('KM');
    expect(document.querySelector('img')).toBeNull();
  });

  it('a logo that fails to load gives way to the same placeholder', () => {
    render(<EventCard event={race('https://media.example/public/logos/kochi.png')} onChoose={() => undefined} />);
    const logo = screen.getByRole('img', { name: 'Kochi Marathon 2026' });
    expect(logo.tagName).toBe('IMG');
    fireEvent.error(logo);
    expect(screen.getByTestId('event-logo-placeholder')).toHaveTextContent('KM');
  });

  it('takes the initials of the first two words that start with a letter', () => {
    expect(raceInitials('Kochi Marathon 2026')).toBe('KM');
    expect(raceInitials('10K Bengaluru run')).toBe('BR');
    expect(raceInitials('ultra')).toBe('U');
  });
});
