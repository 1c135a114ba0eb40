import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Progress, Space, Tag, Typography } from 'antd';
import { formatRaceTime, type ClipStatus, type FinishClip, type FinishVideo, type FinishVideosResult, type FinishVideoStatus } from '@finishline/shared';
import { ClockForm } from './ClockForm';
import { FlaggedClip } from './FlaggedClip';

export const VIDEO_STATUS: Record<FinishVideoStatus, { text: string; color: string }> = {
  needs_clock: { text: 'Needs its clock', color: 'gold' },
  cutting: { text: 'Cutting clips', color: 'processing' },
  ready: { text: 'Clips ready', color: 'success' },
  failed: { text: 'Failed', color: 'error' },
};

const CLIP_STATUS: Record<ClipStatus, { text: string; color: string }> = {
  processing: { text: 'being cut', color: 'processing' },
  ready: { text: 'on sale', color: 'success' },
  review: { text: 'flagged', color: 'warning' },
  failed: { text: 'failed', color: 'error' },
};

/**
 * One uploaded video: its state and the server's reason when it failed, the clock form until its
 * clock is set (and again on request once its clips are cut), then how far the cutting is, the clips flagged by the BIB check to review, and every
 * clip by BIB with its state.
 */
export function VideoCard(props: {
  video: FinishVideo;
  finishers: FinishVideosResult['finishers'];
  onChanged: (result: FinishVideosResult, message: string) => void;
  onPublish: (clip: FinishClip) => Promise<void>;
  onRemove: (clip: FinishClip) => Promise<void>;
}) {
  const { video } = props;
  const [settingAgain, setSettingAgain] = useState(false);
  // A clock found wrong (clips flagged, runners missing) is set again once the cutting is over.
  const canSetAgain = video.status === 'ready' || video.status === 'failed';
  const flagged = video.clipList.filter((c) => c.status === 'review');
  const status = VIDEO_STATUS[video.status];
  return (
    <Card
      data-testid="finish-video"
      data-video-id={video.videoId}
      data-status={video.status}
      title={
        <Space wrap style={{ rowGap: 0 }}>
          <span style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>{video.originalName ?? `Video ${video.videoId}`}</span>
          <Tag color={status.color} data-testid="video-status">
            {status.text}
          </Tag>
        </Space>
      }
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {video.failureReason && <Alert type="error" showIcon data-testid="video-failure" message={video.failureReason} />}
        <Descriptions size="small" column={{ xs: 1, sm: 2, md: 3 }}>
          <Descriptions.Item label="Length">{formatRaceTime(video.durationSeconds)}</Descriptions.Item>
          <Descriptions.Item label="Picture">
            {video.width} x {video.height}
          </Descriptions.Item>
          <Descriptions.Item label="Uploaded">{new Date(video.uploadedAt).toLocaleString()}</Descriptions.Item>
          {video.raceSecondsAtStart !== null && (
            <Descriptions.Item label="Race clock at its start">{formatRaceTime(video.raceSecondsAtStart)}</Descriptions.Item>
          )}
        </Descriptions>
        {video.status === 'needs_clock' && <ClockForm video={video} finishers={props.finishers} onSet={props.onChanged} />}
        {canSetAgain && !settingAgain && (
          <Button onClick={() => setSettingAgain(true)} style={{ alignSelf: 'flex-start' }}>
            Set the clock again
          </Button>
        )}
        {canSetAgain && settingAgain && (
          <ClockForm
            video={video}
            finishers={props.finishers}
            again
            onSet={(result, message) => {
              setSettingAgain(false);
              props.onChanged(result, message);
            }}
          />
        )}
        {video.clips.total > 0 && (
          <div data-testid="video-clips">
            <Typography.Text>
              {video.clips.cut} of {video.clips.total} clips cut: {video.clips.ready} on sale, {video.clips.review} flagged for review
            </Typography.Text>
            {video.status === 'cutting' && (
              <Progress aria-label="Clips cut" percent={Math.floor((video.clips.cut * 100) / video.clips.total)} status="active" size="small" />
            )}
          </div>
        )}
        {flagged.length > 0 && (
          <section aria-label="Flagged for review">
            <Typography.Title level={4}>Flagged for review</Typography.Title>
            <Typography.Paragraph type="secondary">
              The BIB check read another runner at the line in these clips. Watch each one: publish it on its runner&apos;s page, or remove it.
            </Typography.Paragraph>
            <ul style={{ padding: 0, margin: 0 }}>
              {flagged.map((clip) => (
                <FlaggedClip key={clip.photoId} clip={clip} onPublish={() => props.onPublish(clip)} onRemove={() => props.onRemove(clip)} />
              ))}
            </ul>
          </section>
        )}
        {video.clipList.length > 0 && (
          <ul aria-label="Clips by BIB" style={{ padding: 0, margin: 0, display: 'flex', flexWrap: 'wrap', gap: 8, listStyle: 'none' }}>
            {video.clipList.map((clip) => (
              <li key={clip.photoId} data-testid="clip" data-bib={clip.bibNumber} data-status={clip.status}>
                <Tag color={CLIP_STATUS[clip.status].color} style={{ margin: 0 }}>
                  {clip.bibNumber}: {CLIP_STATUS[clip.status].text}
                  {clip.sold ? ', sold' : ''}
                </Tag>
              </li>
            ))}
          </ul>
        )}
      </Space>
    </Card>
  );
}
