import { useCallback, useEffect, useState } from 'react';
import { App as AntApp, Alert, Button, Card, Empty, Form, Input, Modal, Space, Tag } from 'antd';
import {
  isApiError,
  ORGANISER_REQUEST_MESSAGES,
  operatorApi,
  organiserRequestDecisionSchema,
  type OperatorRequestsResult,
  type OrganiserRequestView,
} from '@finishline/shared';

const when = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-IN', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
const days = (r: OrganiserRequestView) => (r.fromDate === r.toDate ? when(r.fromDate) : `${when(r.fromDate)} to ${when(r.toDate)}`);

function RequestCard({ request, actions }: { request: OrganiserRequestView; actions?: React.ReactNode }) {
  return (
    <Card
      size="small"
      title={request.raceName}
      extra={
        request.status === 'pending' ? null : (
          <Tag color={request.status === 'approved' ? 'green' : 'red'}>{request.status === 'approved' ? 'Approved' : 'Declined'}</Tag>
        )
      }
      data-testid="organiser-request"
    >
      <p style={{ margin: 0 }}>{`${request.city}, ${days(request)}, about ${request.expectedRunners.toLocaleString('en-IN')} runners`}</p>
      <p
        style={{ margin: '4px 0 0' }}
      >{`Contact: ${request.contactName}, ${request.contactPhone}. Account: ${request.accountName} (${request.accountEmail})`}</p>
      {request.note ? <p style={{ margin: '4px 0 0' }}>{`Note: ${request.note}`}</p> : null}
      {request.declineReason ? <p style={{ margin: '4px 0 0' }}>{`Reason: ${request.declineReason}`}</p> : null}
      {actions ? <div style={{ marginTop: 8 }}>{actions}</div> : null}
    </Card>
  );
}

/** Requests to list a race: approve (the account becomes an organiser) or decline with a reason; each answer is mailed. */
export function RequestsSection({ refused, onDecided }: { refused: (error: unknown) => boolean; onDecided: () => void }) {
  const { message } = AntApp.useApp();
  const [data, setData] = useState<OperatorRequestsResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [declining, setDeclining] = useState<OrganiserRequestView | null>(null);
  const [declineForm] = Form.useForm<{ reason: string }>();

  const load = useCallback(() => {
    operatorApi
      .requests()
      .then(({ result }) => setData(result))
      .catch((error) => {
        if (!refused(error)) setFailure(isApiError(error) ? error.message : 'Something went wrong. Please try again.');
      });
  }, [refused]);
  useEffect(load, [load]);

  const decide = async (request: OrganiserRequestView, approve: boolean, reason?: string) => {
    const body = { requestId: request.id, approve, reason };
    try {
      await organiserRequestDecisionSchema.validate(body);
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
      return;
    }
    setBusy(request.id);
    try {
      const answer = await operatorApi.decide(body);
      message.success(answer.message);
      setDeclining(null);
      onDecided();
    } catch (error) {
      if (!refused(error)) message.error(isApiError(error) ? error.message : 'Something went wrong. Please try again.');
    } finally {
      setBusy(null);
      load();
    }
  };

  return (
    <section aria-labelledby="requests-heading" style={{ marginBottom: 28 }}>
      <h2 id="requests-heading" style={{ fontSize: 20 }}>
        Requests to list a race
      </h2>
      {failure ? <Alert type="error" showIcon message={failure} /> : null}
      {data && data.pending.length === 0 ? <Empty description="No requests are waiting." /> : null}
      <Space direction="vertical" style={{ width: '100%' }}>
        {data?.pending.map((request) => (
          <RequestCard
            key={request.id}
            request={request}
            actions={
              <Space wrap>
                <Button type="primary" loading={busy === request.id} onClick={() => decide(request, true)} aria-label={`Approve: ${request.raceName}`}>
                  Approve
                </Button>
                <Button
                  danger
                  loading={busy === request.id}
                  aria-label={`Decline: ${request.raceName}`}
                  onClick={() => {
                    declineForm.resetFields();
                    setDeclining(request);
                  }}
                >
                  Decline
                </Button>
              </Space>
            }
          />
        ))}
      </Space>
      {data && data.decided.length > 0 ? (
        <details style={{ marginTop: 12 }}>
          <summary>Answered recently ({data.decided.length})</summary>
          <Space direction="vertical" style={{ width: '100%', marginTop: 8 }}>
            {data.decided.map((request) => (
              <RequestCard key={request.id} request={request} />
            ))}
          </Space>
        </details>
      ) : null}
      <Modal
        open={declining !== null}
        title={declining ? `Decline: ${declining.raceName}` : ''}
        okText="Decline and mail the reason"
        okButtonProps={{ danger: true }}
        confirmLoading={busy !== null}
        onOk={async () => {
          const { reason } = await declineForm.validateFields();
          if (declining) await decide(declining, false, reason.trim());
        }}
        onCancel={() => setDeclining(null)}
        destroyOnHidden
      >
        <Form form={declineForm} layout="vertical" requiredMark={false}>
          <Form.Item
            label="Reason (the account reads it)"
            name="reason"
            rules={[{ required: true, whitespace: true, message: ORGANISER_REQUEST_MESSAGES.declineReason }]}
          >
            <Input.TextArea rows={3} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </section>
  );
}
