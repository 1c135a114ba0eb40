import { useRef, useState } from 'react';
import { Button } from 'antd';
import type { Photo } from '@finishline/shared';

function VideoCard({ video, added, onToggleCart }: { video: Photo; added: boolean; onToggleCart: (video: Photo) => void }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const toggle = () => {
    const el = ref.current;
    if (!el) return;
    if (el.paused) void el.play().catch(() => setPlaying(false));
    else el.pause();
  };
  return (
    <figure className="fl-photo" data-testid="video-card">
      <video
        ref={ref}
        src={video.videopath ?? video.s3}
        poster={video.image || undefined}
        preload="metadata"
        playsInline
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
      />
      <figcaption>
        <span className="fl-photo-id">Video ID: {video.imageid}</span>
        <span className="fl-photo-actions">
          <Button size="small" onClick={toggle}>
            {playing ? 'Pause' : 'Play'}
          </Button>
          <Button size="small" type={added ? 'default' : 'primary'} onClick={() => onToggleCart(video)}>
            {added ? 'Added' : 'Add To Cart'}
          </Button>
        </span>
      </figcaption>
    </figure>
  );
}

/** Video list with play/pause and add to cart. */
export function VideoList({ videos, isAdded, onToggleCart }: { videos: Photo[]; isAdded: (video: Photo) => boolean; onToggleCart: (video: Photo) => void }) {
  return (
    <div className="fl-videos" data-testid="video-list">
      {videos.map((video) => (
        <VideoCard key={video.id} video={video} added={isAdded(video)} onToggleCart={onToggleCart} />
      ))}
    </div>
  );
}
