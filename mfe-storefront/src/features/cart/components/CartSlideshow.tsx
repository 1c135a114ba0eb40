import { useEffect, useState } from 'react';
import { Button } from 'antd';
import { usePrefersReducedMotion } from '@finishline/shared/react';

export const SLIDESHOW_INTERVAL_MS = 2500;

/**
 * Three cart images, advancing every 2.5 seconds and looping (spec). It is captioned as the photos
 * chosen, so it is not mistaken for a product of its own, and it can be paused (WCAG 2.2.2: anything
 * that moves for more than 5 seconds); with reduced motion asked for, it starts paused.
 */
export function CartSlideshow({ images }: { images: string[] }) {
  const slides = images.slice(0, 3);
  const [index, setIndex] = useState(0);
  const reducedMotion = usePrefersReducedMotion();
  // Until the visitor presses Pause or Play, the system's motion setting decides.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const playing = chosen ?? !reducedMotion;
  useEffect(() => {
    if (slides.length < 2 || !playing) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % slides.length), SLIDESHOW_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [slides.length, playing]);
  if (slides.length === 0) return null;
  const shown = index % slides.length;
  return (
    <figure className="fl-slideshow-figure" aria-label="Photos in your cart">
      <div className="fl-slideshow" data-testid="cart-slideshow" data-index={shown}>
        {slides.map((src, i) => (
          <img key={src} src={src} alt="" className={i === shown ? 'fl-slide-active' : undefined} />
        ))}
      </div>
      <figcaption className="fl-slideshow-caption">
        <span>Photos in your cart{slides.length > 1 ? ` (${shown + 1} of ${slides.length})` : ''}</span>
        {slides.length > 1 ? (
          <Button type="text" size="small" onClick={() => setChosen(!playing)}>
            {playing ? 'Pause' : 'Play'}
          </Button>
        ) : null}
      </figcaption>
    </figure>
  );
}
