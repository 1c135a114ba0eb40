import { useEffect, useState } from 'react';
import { App as AntApp, Button, Card, Form, Input, Modal, Space } from 'antd';
import { DECLINE_REASON_MESSAGE, fulfilmentApi, isApiError, type ReplacementQueueResult } from '@finishline/shared';

type Entry = ReplacementQueueResult['requests'][number];

/** The runner's photo of the damage, fetched with the session's token. */
function DamagePhoto({ requestId }: { requestId: number }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let made: string | null = null;
    fulfilmentApi
      .replacementPhoto(requestId)
      .then((blob) => {
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch(() => setUrl(null));
    return () => {
      if (made) URL.revokeObjectURL(made);
    };
  }, [requestId]);
  return url ? (
    <a href={url} target="_blank" rel="noreferrer">
      <img src={url} alt={`Photo of the damage, request ${requestId}`} style={{ maxWidth: 160, maxHeight: 120, borderRadius: 4 }} />
    </a>
  ) : (
    <span className="fl-muted">Loading the photo…</span>
  );
}

/**
 * Open replacement requests on Print Orders: the line, the runner's note and photo of the damage;
 * Approve queues a new line at no charge, Decline asks the reason the runner reads.
 */
export function ReplacementRequests({ version, onDecided, refused }: { version: number; onDecided: () => void; refused: (error: unknown) => boolean }) {
  const { message } = AntApp.useApp();
  const [entries, setEntries] = useState<Entry[]>([]);
  const [busy, setBusy] = useState<number | null>(null);
  const [declining, setDeclining] = useState<Entry | null>(null);
  const [form] = Form.useForm<{ reason: string }>();

  useEffect(() => {
    let alive = true;
    fulfilmentApi
      .replacements()
      .then(({ result }) => alive && setEntries(result.requests))
      .catch((error) => {
        if (!refused(error) && alive) setEntries([]);
      });
    return () => {
      alive = false;
    };
  }, [version, refused]);

  const decide = async (entry: Entry, approve: boolean, reason?: string) => {
    setBusy(entry.request.id);
    try {
      const answer = await fulfilmentApi.decideReplacement({ requestId: entry.request.id, approve, reason });
      message.success(`Line ${entry.line.id} (order ${entry.line.orderRef}): ${answer.message}`);
      setDeclining(null);
      onDecided();
    } catch (error) {
      if (refused(error)) return;
      message.error(isApiError(error) ? error.message : 'Something went wrong. Please try again.');
      if (isApiError(error) && error.statusCode === 409) onDecided();
    } finally {
      setBusy(null);
    }
  };

  if (entries.length === 0) return null;
  return (
    <section aria-label="Replacement requests" style={{ marginBottom: 16 }}>
      <h2 style={{ fontSize: 20 }}>Replacement requests</h2>
      <Space direction="vertical" style={{ width: '100%' }}>
        {entries.map((entry) => (
          <Card key={entry.request.id} size="small" data-testid="replacement-request">
            <Space wrap align="start" size={16}>
              <DamagePhoto requestId={entry.request.id} />
              <Space direction="vertical" size={2}>
                <strong>{`${entry.line.orderRef} · line ${entry.line.id}: ${entry.line.product}`}</strong>
                <span>{`${entry.line.buyerName}, ${entry.line.eventName}, ${entry.line.bibNumber}`}</span>
                <span>{`Asked ${new Date(entry.request.createdAt).toLocaleDateString('en-IN')}${entry.request.note ? `: ${entry.request.note}` : ''}`}</span>
                <Space>
                  <Button
                    type="primary"
                    size="small"
                    loading={busy === entry.request.id}
                    onClick={() => decide(entry, true)}
                    aria-label={`Approve the replacement of line ${entry.line.id}`}
                  >
                    Approve
                  </Button>
                  <Button
                    danger
                    size="small"
                    loading={busy === entry.request.id}
                    onClick={() => {
                      form.resetFields();
                      setDeclining(entry);
                    }}
                    aria-label={`Decline the replacement of line ${entry.line.id}`}
                  >
                    Decline
                  </Button>
                </Space>
              </Space>
            </Space>
          </Card>
        ))}
      </Space>
      <Modal
        open={declining !== null}
        title={declining ? `Decline the replacement of line ${declining.line.id}` : ''}
        okText="Decline"
        onOk={async () => {
          const { reason } = await form.validateFields();
          if (declining) await decide(declining, false, reason.trim());
        }}
        confirmLoading={busy !== null}
        onCancel={() => setDeclining(null)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" requiredMark={false}>
          <Form.Item label="Reason (the runner reads it)" name="reason" rules={[{ required: true, whitespace: true, message: DECLINE_REASON_MESSAGE }]}>
            <Input.TextArea rows={3} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </section>
  );
}
