import { useEffect, useState, type ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { Button, Card, Empty, Progress, Space, Statistic, Typography, Upload } from 'antd';
import { readLocalSession, supplyApi, UPLOAD_MAX_FILES_PER_DROP, type SupplyCounts, type SupplyFindableWait } from '@finishline/shared';
import { megabytes, UploadFileRow, useDocumentTitle } from '@finishline/shared/react';
import { useUploadQueue } from '../state/useUploadQueue';
import { useInterruptedUploads } from '../state/useInterruptedUploads';

/** How often the running count is refreshed while photos are processed. */
const COUNT_REFRESH_MS = 3000;

/**
 * /upload: the photographer picks an event they are approved for and drops their JPGs (hundreds at
 * once). Each file shows its progress and outcome; a refused file says why and the rest carry on.
 * The running count says how many are uploaded, processing, searchable and need attention, and,
 * when many photos wait on the line, how long until theirs are findable (`findableWait`).
 */
export function UploadPage(props: {
  eventPicker: (value: number | null, onChange: (eventId: number) => void) => ReactNode;
  findableWait: (wait: SupplyFindableWait | null) => ReactNode;
}) {
  useDocumentTitle('Upload Photos');
  const session = readLocalSession();
  const [eventId, setEventId] = useState<number | null>(null);
  const [counts, setCounts] = useState<SupplyCounts | null>(null);
  const [findable, setFindable] = useState<SupplyFindableWait | null>(null);
  const { files, busy, add, clearFinished } = useUploadQueue(eventId);

  const finished = files.filter((f) => f.state === 'done' || f.state === 'duplicate').length;
  const { interrupted, forget } = useInterruptedUploads(eventId);
  // A file dropped again is in the queue now: it is no longer waiting to be dropped.
  const stillInterrupted = interrupted.filter((u) => !files.some((f) => f.state !== 'refused' && f.name === u.name && f.size === u.size));
  const accepted = files.filter((f) => f.state !== 'refused');
  const totalBytes = accepted.reduce((s, f) => s + f.size, 0);
  const sentBytes = accepted.reduce((s, f) => s + f.sent, 0);

  useEffect(() => {
    if (eventId === null) return;
    let stopped = false;
    const refresh = () =>
      supplyApi
        // The counts only (no page of photos): one row the server keeps as photos change, and the
        // estimate while some of them wait.
        .photos({ eventId, perPage: 0 })
        .then(({ result }) => {
          if (stopped) return;
          setCounts(result.counts);
          setFindable(result.findable);
        })
        .catch(() => undefined);
    void refresh();
    const timer = setInterval(() => void refresh(), COUNT_REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [eventId, finished]);

  if (!session.signedIn) return <Navigate to="/sign-in" replace state={{ redirectTo: '/upload' }} />;

  return (
    <div style={{ maxWidth: 1000, margin: '24px auto', padding: '0 16px' }}>
      <Typography.Title level={2}>Upload Photos</Typography.Title>
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        {props.eventPicker(eventId, setEventId)}
        <Typography.Text type="secondary">Partner terms: photos JPG 3-4MB. No sharing for 30 days after the event.</Typography.Text>
        {eventId !== null && (
          <>
            <Upload.Dragger
              multiple
              accept=".jpg,.jpeg,image/jpeg"
              showUploadList={false}
              maxCount={UPLOAD_MAX_FILES_PER_DROP}
              beforeUpload={(_file, list) => {
                // antd calls this once per file with the whole drop: take the drop once, on its first file.
                if (_file === list[0]) void add(list as unknown as File[]);
                return Upload.LIST_IGNORE;
              }}
            >
              <p style={{ fontSize: 18, margin: 8 }}>Drop your JPG photos here, or click to choose them</p>
              <p style={{ color: '#666' }}>Hundreds at once are fine. An interrupted upload continues when you drop the same files again.</p>
            </Upload.Dragger>
            {stillInterrupted.length > 0 && (
              <Card title="Interrupted uploads" data-testid="interrupted-uploads">
                <Typography.Paragraph>These files stopped before they were complete. Drop them again to continue where they stopped.</Typography.Paragraph>
                <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                  {stillInterrupted.map((u) => (
                    <li key={u.storageKey} data-testid="interrupted-file" style={{ padding: '6px 0', borderBottom: '1px solid #f0f0f0' }}>
                      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
                        <span>
                          <strong>{u.name}</strong>{' '}
                          <Typography.Text type="secondary">
                            {u.received !== null && u.size > 0 ? `${Math.floor((u.received * 100) / u.size)}% sent` : 'partly sent'}
                          </Typography.Text>
                        </span>
                        <Button onClick={() => void forget(u)} aria-label={`Forget ${u.name}`}>
                          Forget
                        </Button>
                      </Space>
                    </li>
                  ))}
                </ul>
              </Card>
            )}
            <Card data-testid="upload-counts">
              <Space size="large" wrap>
                <Statistic title="Uploaded" value={counts?.uploaded ?? 0} />
                <Statistic title="Processing" value={counts?.processing ?? 0} />
                <Statistic title="Searchable" value={counts?.searchable ?? 0} />
                <Statistic title="Needs attention" value={counts?.needsAttention ?? 0} />
              </Space>
              {props.findableWait(findable)}
            </Card>
            {accepted.length > 0 && (
              <div>
                <Typography.Text>
                  {finished} of {accepted.length} files sent
                </Typography.Text>
                <Progress
                  data-testid="upload-overall"
                  aria-label="Upload progress of all files"
                  percent={totalBytes ? Math.floor((sentBytes * 100) / totalBytes) : 0}
                  status={busy ? 'active' : 'normal'}
                />
              </div>
            )}
            {files.length === 0 ? (
              <Empty description="No files added yet" />
            ) : (
              <Card
                title="Files"
                extra={
                  <Button onClick={clearFinished} disabled={busy && files.every((f) => f.state === 'uploading' || f.state === 'waiting')}>
                    Clear finished
                  </Button>
                }
              >
                <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                  {files.map((f) => (
                    <UploadFileRow key={f.key} file={f} testId="upload-file" reasonTestId="upload-reason" sizeText={megabytes(f.size)} />
                  ))}
                </ul>
              </Card>
            )}
          </>
        )}
      </Space>
    </div>
  );
}
