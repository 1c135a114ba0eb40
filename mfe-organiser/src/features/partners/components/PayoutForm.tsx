import { useState } from 'react';
import { App as AntApp, Button, Input, InputNumber, Select, Space } from 'antd';
import { isApiError, partnerApi, type EventPartnerRegistration } from '@finishline/shared';

/**
 * Records money paid to an approved photographer of the event (a bank transfer made outside the
 * shop). The server refuses more than the share still to pay; the photographer sees it on My Share.
 */
export function PayoutForm({ eventId, photographers }: { eventId: number; photographers: EventPartnerRegistration[] }) {
  const { message } = AntApp.useApp();
  const [partnerUserId, setPartnerUserId] = useState<number | null>(null);
  const [amount, setAmount] = useState<number | null>(null);
  const [reference, setReference] = useState('');
  const [busy, setBusy] = useState(false);
  const approved = photographers.filter((p) => p.status === 'approved');
  if (approved.length === 0) return null;

  const record = async () => {
    if (partnerUserId === null) {
      message.warning('Please choose a photographer.');
      return;
    }
    setBusy(true);
    try {
      const answer = await partnerApi.recordPayout({ eventId, partnerUserId, amount: amount ?? 0, reference });
      message.success(answer.message);
      setAmount(null);
      setReference('');
    } catch (error) {
      message.error(isApiError(error) ? error.message : 'Something went wrong. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-label="Record a payout" style={{ marginTop: 16 }}>
      <h3>Record a payout</h3>
      <Space wrap>
        <Select
          aria-label="Photographer to pay"
          style={{ minWidth: 220 }}
          placeholder="Photographer"
          value={partnerUserId ?? undefined}
          onChange={(v: number) => setPartnerUserId(v)}
          options={approved.map((p) => ({ value: p.partnerUserId, label: `${p.firstName} ${p.lastName} (${p.nickname})` }))}
        />
        <InputNumber
          aria-label="Amount paid (₹)"
          min={0}
          step={1}
          placeholder="Amount (₹)"
          value={amount}
          onChange={(v) => setAmount(v === null ? null : Number(v))}
        />
        <Input
          aria-label="Transfer reference"
          placeholder="Transfer reference"
          value={reference}
          onChange={(e) => setReference(e.target.value)}
          style={{ width: 200 }}
        />
        <Button type="primary" loading={busy} onClick={() => void record()}>
          Record payout
        </Button>
      </Space>
    </section>
  );
}
