import { jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { CartSlideshow, SLIDESHOW_INTERVAL_MS } from './CartSlideshow';

const IMAGES = ['/a.jpg', '/b.jpg', '/c.jpg'];

/** The browser's answer to the shared reduced-motion query (jsdom has no matchMedia of its own). */
function motionSetting(reduce: boolean): void {
  window.matchMedia = ((query: string) => ({
    matches: reduce && query === '(prefers-reduced-motion: reduce)',
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  })) as unknown as typeof window.matchMedia;
}

const caption = () => screen.getByRole('figure', { name: 'Photos in your cart' });

describe('cart slideshow', () => {
  const original = window.matchMedia;
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    window.matchMedia = original;
  });

  it('advances every 2.5 seconds, loops, and Pause stops it where it is', () => {
    motionSetting(false);
    render(<CartSlideshow images={IMAGES} />);
    expect(caption()).toHaveTextContent('Photos in your cart (1 of 3)');
    act(() => jest.advanceTimersByTime(SLIDESHOW_INTERVAL_MS * 3));
    expect(caption()).toHaveTextContent('(1 of 3)');
    act(() => jest.advanceTimersByTime(SLIDESHOW_INTERVAL_MS));
    expect(caption()).toHaveTextContent('(2 of 3)');
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    act(() => jest.advanceTimersByTime(SLIDESHOW_INTERVAL_MS * 2));
    expect(caption()).toHaveTextContent('(2 of 3)');
    expect(screen.getByRole('button', { name: 'Play' })).toBeInTheDocument();
  });

  it('starts paused when the system asks for less motion, and Play starts it', () => {
    motionSetting(true);
    render(<CartSlideshow images={IMAGES} />);
    act(() => jest.advanceTimersByTime(SLIDESHOW_INTERVAL_MS * 2));
    expect(caption()).toHaveTextContent('(1 of 3)');
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    act(() => jest.advanceTimersByTime(SLIDESHOW_INTERVAL_MS));
    expect(caption()).toHaveTextContent('(2 of 3)');
  });
});
