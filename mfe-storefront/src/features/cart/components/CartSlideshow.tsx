import { useEffect, useState } from 'react';

export const SLIDESHOW_INTERVAL_MS = 2500;

/** Three cart images, advancing every 2.5 seconds and looping. */
export function CartSlideshow({ images }: { images: string[] }) {
  const slides = images.slice(0, 3);
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (slides.length < 2) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % slides.length), SLIDESHOW_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [slides.length]);
  if (slides.length === 0) return null;
  return (
    <div className="fl-slideshow" data-testid="cart-slideshow" data-index={index % slides.length}>
      {slides.map((src, i) => (
        <img key={src} src={src} alt="" className={i === index % slides.length ? 'fl-slide-active' : undefined} />
      ))}
    </div>
  );
}
