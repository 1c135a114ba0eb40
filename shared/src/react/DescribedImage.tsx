import { useState, type ImgHTMLAttributes } from 'react';
import { IMAGE_FAILED_TEXT } from '../format/photoText';

const FAILED_STYLE = { display: 'block', minHeight: 96, padding: 12, color: '#a33', fontSize: 13 } as const;

/**
 * A result photo with a spoken description (alt); when the file fails to load, the spec's sentence
 * takes its place, visible and read out alike.
 */
export function DescribedImage({ description, className, onError, ...img }: ImgHTMLAttributes<HTMLImageElement> & { description: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <span className={`fl-image-failed${className ? ` ${className}` : ''}`} role="img" aria-label={IMAGE_FAILED_TEXT} style={FAILED_STYLE}>
        {IMAGE_FAILED_TEXT}
      </span>
    );
  }
  return (
    <img
      {...img}
      className={className}
      alt={description}
      onError={(event) => {
        setFailed(true);
        onError?.(event);
      }}
    />
  );
}
