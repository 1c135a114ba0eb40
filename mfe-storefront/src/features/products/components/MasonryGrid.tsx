import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Photo } from '@finishline/shared';

/** Cards rendered at first and added each time the end of the grid comes near. */
export const GRID_PAGE = 30;

/**
 * Masonry in fixed columns: photo i goes to column i mod N, so cards never move when more are
 * appended (CSS columns would re-flow). A 300-photo BIB stays smooth because cards are rendered a
 * page at a time as the visitor scrolls, images load lazily, and off-screen cards skip painting
 * (content-visibility in products.css).
 */
export function MasonryGrid({ photos, columns, renderCard }: { photos: Photo[]; columns: number; renderCard: (photo: Photo, index: number) => ReactNode }) {
  const [visible, setVisible] = useState(GRID_PAGE);
  const sentinel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const node = sentinel.current;
    if (!node || visible >= photos.length) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setVisible((v) => Math.min(photos.length, v + GRID_PAGE));
      },
      { rootMargin: '1500px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [photos.length, visible]);

  const lanes = useMemo(() => {
    const result: Array<Array<{ photo: Photo; index: number }>> = Array.from({ length: columns }, () => []);
    photos.slice(0, visible).forEach((photo, index) => result[index % columns].push({ photo, index }));
    return result;
  }, [photos, visible, columns]);

  return (
    <>
      <div className="fl-masonry" data-testid="photo-grid" data-columns={columns} style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
        {lanes.map((lane, i) => (
          <div className="fl-masonry-lane" key={i}>
            {lane.map(({ photo, index }) => renderCard(photo, index))}
          </div>
        ))}
      </div>
      {visible < photos.length ? <div ref={sentinel} className="fl-grid-sentinel" aria-hidden /> : null}
    </>
  );
}
