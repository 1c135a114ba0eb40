import { memo, useState } from 'react';
import { Button, Checkbox } from 'antd';
import { FOUND_BY_TEXT, IMAGE_FAILED_TEXT, type Photo } from '@finishline/shared';
import { useReplacesFirstPaint } from '@finishline/shared/react';
import { photoIdText, PRODUCTS_TEXT } from '../productsText';

export interface PhotoCardProps {
  photo: Photo;
  index: number;
  /** Spoken for the photo (event, BIB, place in the list); the spec's sentence replaces it if the file fails. */
  description: string;
  inCart: boolean;
  inCollage: boolean;
  printsAllowed: boolean;
  collagesAllowed: boolean;
  /** Keep the Order prints / Collage buttons' place (invisible) while the master config is on its way. */
  reservePrints?: boolean;
  reserveCollage?: boolean;
  reportMode: boolean;
  reportSelected: boolean;
  onOpen: (index: number) => void;
  onToggleCart: (photo: Photo) => void;
  onOrderPrints: (photo: Photo) => void;
  onToggleCollage: (photo: Photo) => void;
  onToggleReport: (photo: Photo) => void;
}

/** Product card: thumbnail, Add To Cart / Added, Order prints, Collage / Added; a tick box in report mode. */
export const PhotoCard = memo(function PhotoCard(props: PhotoCardProps) {
  const { photo, index, inCart, inCollage, printsAllowed, collagesAllowed, reportMode, reportSelected } = props;
  const [failed, setFailed] = useState(false);
  // The first photo replaces the early copy of the grid the shell's page painted (same file, same place).
  const handover = useReplacesFirstPaint(index === 0);
  return (
    <figure className={`fl-photo${inCart ? ' fl-photo-added' : ''}`} data-testid="photo-card" data-photo-id={photo.id}>
      <button type="button" className="fl-photo-open" onClick={() => props.onOpen(index)} aria-label={`Open photo ${photo.imageid}`}>
        <img
          ref={handover.ref}
          src={photo.image || photo.s3}
          // Known before the thumbnail loads: the card keeps its height and nothing below it moves.
          width={photo.width}
          height={photo.height}
          alt={failed ? IMAGE_FAILED_TEXT : props.description}
          loading={index < 9 ? 'eager' : 'lazy'}
          decoding="async"
          onLoad={handover.onLoad}
          onError={() => {
            setFailed(true);
            handover.onError?.();
          }}
          className={failed ? 'fl-photo-failed' : undefined}
        />
      </button>
      {reportMode ? (
        <Checkbox
          className="fl-report-check"
          checked={reportSelected}
          onChange={() => props.onToggleReport(photo)}
          aria-label={`Select photo ${photo.imageid} to report`}
        />
      ) : null}
      <figcaption>
        <span className="fl-photo-id">{photoIdText(photo.imageid)}</span>
        {photo.foundBy ? (
          <span className="fl-photo-found-by" data-testid="found-by">
            {FOUND_BY_TEXT[photo.foundBy]}
          </span>
        ) : null}
        <span className="fl-photo-actions">
          <Button size="small" type={inCart ? 'default' : 'primary'} onClick={() => props.onToggleCart(photo)} data-testid="add-to-cart">
            {inCart ? PRODUCTS_TEXT.added : PRODUCTS_TEXT.addToCart}
          </Button>
          {printsAllowed ? (
            <Button size="small" onClick={() => props.onOrderPrints(photo)}>
              Order prints
            </Button>
          ) : props.reservePrints ? (
            <ReservedButton label="Order prints" />
          ) : null}
          {collagesAllowed ? (
            <Button size="small" type={inCollage ? 'default' : 'dashed'} onClick={() => props.onToggleCollage(photo)} data-testid="collage">
              {inCollage ? 'Added' : 'Collage'}
            </Button>
          ) : props.reserveCollage ? (
            <ReservedButton label="Collage" />
          ) : null}
        </span>
      </figcaption>
    </figure>
  );
});

/** An invisible button of the real one's size: holds its place, never focused or read out. */
function ReservedButton({ label }: { label: string }) {
  return (
    <Button size="small" className="fl-action-reserved" tabIndex={-1} aria-hidden disabled>
      {label}
    </Button>
  );
}
