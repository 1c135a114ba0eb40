import type { ReactNode } from 'react';
import { Progress, Space, Tag, Typography } from 'antd';

/** Where one file of a partner upload stands ('checking': all bytes are in, the server checks a video). */
export type UploadFileState = 'waiting' | 'uploading' | 'checking' | 'done' | 'duplicate' | 'refused';

/** One file of a partner upload as its list shows it. */
export interface UploadRowFile {
  name: string;
  size: number;
  sent: number;
  state: UploadFileState;
  /** Why the file was refused, in the server's (or the browser check's) words. */
  reason: string | null;
  /** True when an earlier, unfinished upload of this file was continued. */
  resumed: boolean;
}

const STATE_TAG: Record<UploadFileState, { text: string; color: string }> = {
  waiting: { text: 'Waiting', color: 'default' },
  uploading: { text: 'Uploading', color: 'processing' },
  checking: { text: 'Checking the video', color: 'processing' },
  done: { text: 'Uploaded', color: 'success' },
  duplicate: { text: 'Already uploaded', color: 'blue' },
  refused: { text: 'Refused', color: 'error' },
};

export const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/**
 * One file of the partner's Upload Photos and Videos lists: its name and state, its size (`sizeText`)
 * and either its progress or, once refused, the reason. `wrap` lets a long name wrap (the videos page).
 */
export function UploadFileRow({
  file,
  testId,
  reasonTestId,
  sizeText,
  wrap = false,
}: {
  file: UploadRowFile;
  testId: string;
  reasonTestId: string;
  sizeText: ReactNode;
  wrap?: boolean;
}) {
  const tag = STATE_TAG[file.state];
  return (
    <li data-testid={testId} data-state={file.state} style={{ padding: '6px 0', borderBottom: '1px solid #f0f0f0' }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap={wrap}>
        <span style={wrap ? { overflowWrap: 'anywhere' } : undefined}>
          <strong>{file.name}</strong> <Tag color={tag.color}>{tag.text}</Tag>
          {file.resumed && <Tag color="gold">Resumed</Tag>}
        </span>
        <span>{sizeText}</span>
      </Space>
      {file.state === 'refused' ? (
        <Typography.Text type="danger" data-testid={reasonTestId}>
          {file.reason}
        </Typography.Text>
      ) : (
        <Progress
          aria-label={`Upload progress of ${file.name}`}
          percent={file.size ? Math.floor((file.sent * 100) / file.size) : 0}
          size="small"
          status={file.state === 'uploading' || file.state === 'checking' ? 'active' : file.state === 'waiting' ? 'normal' : 'success'}
        />
      )}
    </li>
  );
}
