import { useEffect, useState } from 'react';
import { Button, Modal, Tag } from 'antd';
import type { Photo } from '@finishline/shared';
import { IMAGE_FAILED_ALT } from './PhotoCard';

export const INSTANT_DOWNLOAD_TEXT = 'Instant Download Available';

/** Carousel modal: the watermarked preview, Photo ID, 'Instant Download Available', previous/next and an enlarge view. */
export function PhotoCarousel({
  photos,
  index,
  onIndex,
  onClose,
  isInCart,
  onToggleCart,
}: {
  photos: Photo[];
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
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, count, onIndex]);

  if (!photo || index === null) return null;
  const added = isInCart(photo);
  return (
    <>
      <Modal open onCancel={onClose} footer={null} width={900} centered title={<span data-testid="carousel-photo-id">Photo ID: {photo.imageid}</span>}>
        <div className="fl-carousel" data-testid="photo-carousel">
          <Button aria-label="Previous photo" onClick={() => onIndex((index - 1 + count) % count)}>
            ‹
          </Button>
          <img className="fl-carousel-img" src={photo.s3} alt={IMAGE_FAILED_ALT} />
          <Button aria-label="Next photo" onClick={() => onIndex((index + 1) % count)}>
            ›
          </Button>
        </div>
        <div className="fl-carousel-foot">
          <Tag color="green">{INSTANT_DOWNLOAD_TEXT}</Tag>
          <span>
            {index + 1} / {count}
          </span>
          <Button onClick={() => setEnlarged(true)}>Enlarge</Button>
          <Button type={added ? 'default' : 'primary'} onClick={() => onToggleCart(photo)}>
            {added ? 'Added' : 'Add To Cart'}
          </Button>
        </div>
      </Modal>
      {enlarged ? (
        <div className="fl-enlarged" role="dialog" aria-label="Enlarged photo" data-testid="enlarged-photo" onClick={() => setEnlarged(false)}>
          <img src={photo.s3} alt={IMAGE_FAILED_ALT} />
          <Button className="fl-enlarged-close" onClick={() => setEnlarged(false)}>
            Close
          </Button>
        </div>
      ) : null}
    </>
  );
}
