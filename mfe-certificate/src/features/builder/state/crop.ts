import type { PixelCrop } from 'react-image-crop';

/** The message for a failed canvas export: a tainted canvas (CORS) or anything else. */
export const CORS_FAILED = 'Unable to generate certificate due to image security restrictions (CORS).';
export const IMAGE_FAILED = 'Failed to generate certificate image.';
export const exportFailure = (error: unknown): string => (error instanceof DOMException && error.name === 'SecurityError' ? CORS_FAILED : IMAGE_FAILED);

/**
 * The cropped square at the photo's own resolution: the image turned and zoomed about its centre as
 * the dialog shows it (CSS scale and rotate), then cut to the crop drawn on the displayed image.
 * What zooming out leaves uncovered is white.
 */
export function drawCrop(image: HTMLImageElement, crop: PixelCrop, scale: number, rotate: number): HTMLCanvasElement {
  const scaleX = image.naturalWidth / image.width;
  const scaleY = image.naturalHeight / image.height;
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.floor(crop.width * scaleX));
  canvas.height = Math.max(1, Math.floor(crop.height * scaleY));
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error(IMAGE_FAILED);
  ctx.imageSmoothingQuality = 'high';
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const centreX = image.naturalWidth / 2;
  const centreY = image.naturalHeight / 2;
  ctx.translate(-crop.x * scaleX, -crop.y * scaleY);
  ctx.translate(centreX, centreY);
  ctx.rotate((rotate * Math.PI) / 180);
  ctx.scale(scale, scale);
  ctx.translate(-centreX, -centreY);
  ctx.drawImage(image, 0, 0, image.naturalWidth, image.naturalHeight);
  return canvas;
}

/** canvas.toBlob as a promise (JPEG at the builder's quality). */
export function canvasJpeg(canvas: HTMLCanvasElement, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    try {
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error(IMAGE_FAILED))), 'image/jpeg', quality);
    } catch (error) {
      reject(error);
    }
  });
}
