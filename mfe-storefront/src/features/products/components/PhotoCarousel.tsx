import { useEffect, useState } from 'react';
import { Button, Modal, Tag } from 'antd';
import { describePhoto, type Photo } from '@finishline/shared';
import { ZoomStage } from './ZoomStage';

export const INSTANT_DOWNLOAD_TEXT = 'Instant Download Available';

/**
 * Carousel modal: the watermarked preview, Photo ID, 'Instant Download Available', previous/next and
 * an enlarge view. On a phone it fills the screen's width; the photo swipes to the next or previous
 * one and zooms by pinch or double tap (ZoomStage); arrow keys and the buttons do the same.
 */
export function PhotoCarousel({
  photos,
  index,
  onIndex,
  onClose,
  isInCart,
  onToggleCart,
  eventName,
}: {
  photos: Photo[];
  eventName?: string;
  index: number | null;
  onIndex: (index: number) => void;
  onClose: () => void;
  isInCart: (photo: Photo) => boolean;
  onToggleCart: (photo: Photo) => void;
}) {
  const [enlarged, setEnlarged] = useState(false);
  const photo = index === null ? null : photos[index];
  const count = photos.length;

  useEffect(() => {
    if (index === null) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowRight') onIndex((index + 1) % count);
      if (e.key === 'ArrowLeft') onIndex((index - 1 + count) % count);
      if (e.key === 'Escape') setEnlarged(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, count, onIndex]);

  // The neighbours load while this photo is looked at, so a swipe shows the next one at once.
  useEffect(() => {
    if (index === null || count < 2) return;
    for (const neighbour of [photos[(index + 1) % count], photos[(index - 1 + count) % count]]) new Image().src = neighbour.s3;
  }, [index, count, photos]);

  if (!photo || index === null) return null;
  const added = isInCart(photo);
  const step = (direction: -1 | 1) => onIndex((index + direction + count) % count);
  // The stage is keyed by photo, so a new photo starts unzoomed.
  const stage = (className?: string) => (
    <ZoomStage
      key={photo.id}
      src={photo.s3}
      alt={describePhoto({ position: index + 1, total: count, eventName, bibNumber: photo.bibNumber })}
      onSwipe={step}
      className={className}
    />
  );
  const arrows = (
    <>
      <Button className="fl-viewer-prev" aria-label="Previous photo" onClick={() => step(-1)}>
        ‹
      </Button>
      <Button className="fl-viewer-next" aria-label="Next photo" onClick={() => step(1)}>
        ›
      </Button>
    </>
  );

  if (enlarged) {
    return (
      <div className="fl-enlarged" role="dialog" aria-modal="true" aria-label="Enlarged photo" data-testid="enlarged-photo">
        {stage('fl-zoom-full')}
        {arrows}
        <Button className="fl-enlarged-close" onClick={() => setEnlarged(false)} autoFocus>
          Close
        </Button>
      </div>
    );
  }

  return (
    <Modal
      open
      onCancel={onClose}
      footer={null}
      width={900}
      centered
      className="fl-viewer"
      title={<span data-testid="carousel-photo-id">Photo ID: {photo.imageid}</span>}
    >
      <div className="fl-carousel" data-testid="photo-carousel">
        {stage()}
        {arrows}
      </div>
      <div className="fl-carousel-foot">
        {/* antd's green preset is 3.4:1; the coupon badge's greens are AA. */}
        <Tag style={{ color: '#135200', background: '#f6ffed', borderColor: '#b7eb8f' }}>{INSTANT_DOWNLOAD_TEXT}</Tag>
        <span aria-live="polite">
          {index + 1} / {count}
        </span>
        <Button onClick={() => setEnlarged(true)}>Enlarge</Button>
        <Button type={added ? 'default' : 'primary'} onClick={() => onToggleCart(photo)}>
          {added ? 'Added' : 'Add To Cart'}
        </Button>
      </div>
    </Modal>
  );
}
