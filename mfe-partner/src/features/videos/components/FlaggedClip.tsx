import { useState } from 'react';
import { Button, Popconfirm, Space, Typography } from 'antd';
import { formatRaceTime, type FinishClip } from '@finishline/shared';

/**
 * A clip the BIB check held back: the watermarked preview to watch, why it was flagged, and the
 * videographer's choice: publish it on the runner's page as it is, or remove it.
 */
export function FlaggedClip(props: { clip: FinishClip; onPublish: () => Promise<void>; onRemove: () => Promise<void> }) {
  const { clip } = props;
  const [busy, setBusy] = useState<'publish' | 'remove' | null>(null);
  const act = (which: 'publish' | 'remove', action: () => Promise<void>) => async () => {
    setBusy(which);
    try {
      await action();
    } finally {
      setBusy(null);
    }
  };
  return (
    <li
      data-testid="flagged-clip"
      data-photo-id={clip.photoId}
      data-bib={clip.bibNumber}
      style={{ padding: '8px 0', borderBottom: '1px solid #f0f0f0', listStyle: 'none' }}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text strong>
          BIB {clip.bibNumber} at {formatRaceTime(clip.crossingSecond)} into the video
        </Typography.Text>
        <Typography.Text type="warning" data-testid="flagged-reason">
          {clip.reviewReason}
        </Typography.Text>
        {clip.previewUrl && (
          <video
            src={clip.previewUrl}
            poster={clip.thumbUrl ?? undefined}
            controls
            muted
            playsInline
            preload="metadata"
            style={{ width: '100%', maxWidth: 480, display: 'block' }}
            aria-label={`Clip of BIB ${clip.bibNumber}`}
          />
        )}
        <Space wrap>
          <Button type="primary" loading={busy === 'publish'} disabled={busy !== null} onClick={() => void act('publish', props.onPublish)()}>
            Publish
          </Button>
          {clip.sold ? (
            <Typography.Text type="secondary">Sold: it cannot be removed.</Typography.Text>
          ) : (
            <Popconfirm title={`Remove the clip of BIB ${clip.bibNumber}?`} okText="Remove" cancelText="Keep" onConfirm={act('remove', props.onRemove)}>
              <Button danger loading={busy === 'remove'} disabled={busy !== null}>
                Remove
              </Button>
            </Popconfirm>
          )}
        </Space>
      </Space>
    </li>
  );
}
