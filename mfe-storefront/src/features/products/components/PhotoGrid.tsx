import type { Photo } from '@finishline/shared';

/** Spec: the alt text a photo shows when it fails to load. */
export const IMAGE_FAILED_ALT = 'Please refresh the page or remove this image';

/** Masonry of thumbnails (3 columns, 2 below 700px, 1 below 500px; see products.css). */
export function PhotoGrid({ photos }: { photos: Photo[] }) {
  return (
    <div className="fl-masonry" data-testid="photo-grid">
      {photos.map((photo) => (
        <figure key={photo.id} className="fl-photo">
          <img src={photo.image || photo.s3} alt={IMAGE_FAILED_ALT} loading="lazy" data-photo-id={photo.imageid} />
          <figcaption>Photo ID: {photo.imageid}</figcaption>
        </figure>
      ))}
    </div>
  );
}

export function VideoList({ videos }: { videos: Photo[] }) {
  return (
    <div className="fl-videos" data-testid="video-list">
      {videos.map((video) => (
        <figure key={video.id} className="fl-photo">
          <video src={video.videopath ?? video.s3} poster={video.image || undefined} controls preload="metadata" />
          <figcaption>Video ID: {video.imageid}</figcaption>
        </figure>
      ))}
    </div>
  );
}
