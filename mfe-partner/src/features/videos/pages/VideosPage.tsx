import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { App as AntApp, Card, Empty, Space, Spin, Typography, Upload } from 'antd';
import { isApiError, readLocalSession, VIDEO_UPLOAD_MAX_BYTES, videoApi, type FinishClip, type FinishVideosResult } from '@finishline/shared';
import { megabytes, UploadFileRow, useDocumentTitle } from '@finishline/shared/react';
import { ClipLengthsForm } from '../components/ClipLengthsForm';
import { VideoCard } from '../components/VideoCard';
import { useVideoUpload } from '../state/useVideoUpload';

/** How often the list is asked again while clips are being cut. */
const REFRESH_WHILE_CUTTING_MS = 4000;

/**
 * /videos: the videographer picks an event they are approved for and uploads the finish line they
 * filmed (MP4 or MOV, hours long, resumable like photos); sets each video's clock once (by its start
 * or by a runner at the line, with the frame picker); sets the event's clip lengths; and reviews the
 * clips the BIB check flagged (publish or remove). Each finisher inside a video gets a clip on their
 * products page (docs/videos.md).
 */
export function VideosPage(props: { eventPicker: (value: number | null, onChange: (eventId: number) => void) => ReactNode }) {
  useDocumentTitle('Videos');
  const { message } = AntApp.useApp();
  const session = readLocalSession();
  const [eventId, setEventId] = useState<number | null>(null);
  const [data, setData] = useState<FinishVideosResult | null>(null);

  const load = useCallback(() => {
    if (eventId === null) return;
    videoApi
      .videos(eventId)
      .then(({ result }) => setData(result))
      .catch((error: unknown) => message.error(isApiError(error) ? error.message : 'Something went wrong !'));
  }, [eventId, message]);
  useEffect(() => {
    setData(null);
    load();
  }, [load]);
  useEffect(() => {
    if (!data?.videos.some((v) => v.status === 'cutting')) return;
    const timer = setTimeout(load, REFRESH_WHILE_CUTTING_MS);
    return () => clearTimeout(timer);
  }, [data, load]);

  const { entries, busy, add } = useVideoUpload(eventId, load);

  if (!session.signedIn) return <Navigate to="/sign-in" replace state={{ redirectTo: '/videos' }} />;

  const changed = (result: FinishVideosResult, text: string) => {
    setData(result);
    message.success(text);
  };
  const clipAction = (call: typeof videoApi.publishClip) => async (clip: FinishClip) => {
    try {
      const answer = await call({ photoId: clip.photoId });
      changed(answer.result, answer.message);
    } catch (error) {
      message.error(isApiError(error) ? error.message : 'Something went wrong !');
    }
  };

  return (
    <div style={{ maxWidth: 1000, margin: '24px auto', padding: '0 16px', overflowX: 'clip' }}>
      <Typography.Title level={2}>Videos</Typography.Title>
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        {props.eventPicker(eventId, setEventId)}
        <Typography.Text type="secondary">
          Upload the finish line as you filmed it: MP4 or MOV, up to {VIDEO_UPLOAD_MAX_BYTES / 1024 ** 3} GB. Then set its clock once, and every finisher in it
          gets a clip of their own crossing.
        </Typography.Text>
        {eventId !== null && (
          <>
            <Upload.Dragger
              multiple
              accept=".mp4,.mov,.m4v,video/mp4,video/quicktime"
              showUploadList={false}
              beforeUpload={(file, list) => {
                // antd calls this once per file with the whole choice: take it once, on its first file.
                if (file === list[0]) void add(list as unknown as File[]);
                return Upload.LIST_IGNORE;
              }}
            >
              <p style={{ fontSize: 18, margin: 8 }}>Drop your finish-line video here, or click to choose it</p>
              <p style={{ color: '#666' }}>A dropped connection is retried; an upload stopped by a reload continues when you add the same file again.</p>
            </Upload.Dragger>
            {entries.length > 0 && (
              <Card title="Uploads">
                <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                  {entries.map((e) => (
                    <UploadFileRow
                      key={e.key}
                      file={e}
                      testId="video-upload"
                      reasonTestId="video-upload-reason"
                      // While it is sent, how much of it is in.
                      sizeText={e.state === 'uploading' ? `${megabytes(e.sent)} of ${megabytes(e.size)}` : megabytes(e.size)}
                      wrap
                    />
                  ))}
                </ul>
                {busy && <Typography.Text type="secondary">Keep this page open until the upload is done.</Typography.Text>}
              </Card>
            )}
            {!data ? (
              <Spin />
            ) : (
              <>
                <ClipLengthsForm eventId={eventId} before={data.clipBeforeSeconds} after={data.clipAfterSeconds} onSaved={changed} />
                {data.videos.length === 0 ? (
                  <Empty description="No videos uploaded to this event yet" />
                ) : (
                  data.videos.map((video) => (
                    <VideoCard
                      key={video.videoId}
                      video={video}
                      finishers={data.finishers}
                      onChanged={changed}
                      onPublish={clipAction(videoApi.publishClip)}
                      onRemove={clipAction(videoApi.removeClip)}
                    />
                  ))
                )}
              </>
            )}
          </>
        )}
      </Space>
    </div>
  );
}
