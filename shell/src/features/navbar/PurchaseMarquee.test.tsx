import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MarqueeStrip } from './PurchaseMarquee';

const TEXT = 'A runner just bought photos of Mumbai Coastal Marathon 2026';

/** The visitor's system setting for motion, as the browser reports it through matchMedia. */
function systemAsksForLessMotion(reduce: boolean): void {
  window.matchMedia = (query: string) =>
    ({
      matches: reduce && query.includes('prefers-reduced-motion: reduce'),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

const strip = () => screen.getByTestId('purchase-marquee');

describe('purchase marquee', () => {
  const original = window.matchMedia;
  afterEach(() => {
    window.matchMedia = original;
  });

  it('scrolls the notification and a labelled Pause button stops it until Play', async () => {
    systemAsksForLessMotion(false);
    const user = userEvent.setup();
    render(<MarqueeStrip text={TEXT} />);
    expect(screen.getByRole('marquee')).toHaveTextContent(TEXT);
    expect(strip()).toHaveAttribute('data-moving', 'true');

    await user.click(screen.getByRole('button', { name: 'Pause purchase news' }));
    // Pointer and focus leaving the strip do not restart it: only Play does.
    await user.unhover(strip());
    await user.tab();
    expect(strip()).toHaveAttribute('data-moving', 'false');
    expect(screen.getByRole('button', { name: 'Play purchase news' })).toHaveTextContent('Play');

    await user.click(screen.getByRole('button', { name: 'Play purchase news' }));
    // It moves again once the pointer that pressed Play has left it.
    expect(strip()).toHaveAttribute('data-moving', 'false');
    await user.unhover(strip());
    await user.tab();
    expect(strip()).toHaveAttribute('data-moving', 'true');
    expect(screen.getByRole('button', { name: 'Pause purchase news' })).toHaveTextContent('Pause');
  });

  it('stands still while a mouse pointer is over it or its button has keyboard focus', async () => {
    systemAsksForLessMotion(false);
    const user = userEvent.setup();
    render(<MarqueeStrip text={TEXT} />);
    await user.hover(screen.getByRole('marquee'));
    expect(strip()).toHaveAttribute('data-moving', 'false');
    await user.unhover(screen.getByRole('marquee'));
    expect(strip()).toHaveAttribute('data-moving', 'true');

    await user.tab();
    expect(screen.getByRole('button', { name: 'Pause purchase news' })).toHaveFocus();
    expect(strip()).toHaveAttribute('data-moving', 'false');
    await user.tab();
    expect(strip()).toHaveAttribute('data-moving', 'true');
  });

  // A finger's tap (a focus that is not :focus-visible) is the phone journey's to check: jsdom takes any focus as visible.

  it('shows the whole text standing still, with no button, when the system asks for less motion', () => {
    systemAsksForLessMotion(true);
    render(<MarqueeStrip text={TEXT} />);
    expect(screen.getByRole('marquee')).toHaveTextContent(TEXT);
    expect(strip()).toHaveAttribute('data-motion', 'reduced');
    expect(strip()).toHaveAttribute('data-moving', 'false');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
