import { useState } from 'react';
import { App as AntApp, Button, Form, Input, Modal, Upload } from 'antd';
import {
  formatRupees,
  fulfilmentApi,
  isApiError,
  REPLACEMENT_PHOTO_MAX_MB,
  REPLACEMENT_PHOTO_MESSAGES,
  REPLACEMENT_WINDOW_DAYS,
  type OrderPrintLine,
} from '@finishline/shared';

const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

/** What became of the runner's replacement request. */
function replacementText(line: OrderPrintLine): string | null {
  const r = line.replacementRequest;
  if (!r) return null;
  if (r.status === 'requested') return 'Replacement asked for: we will answer by mail.';
  if (r.status === 'approved') return 'Replacement approved: a new print is on its way at no charge.';
  return `Replacement declined: ${r.declineReason ?? ''}`;
}

/**
 * One print of the order: where it is, what was refunded (or is pending at the gateway), and, within
 * 7 days of its delivery, a request for a replacement with a photo of the damage.
 */
export function PrintLineDelivery({ orderRef, line, onChanged }: { orderRef: string; line: OrderPrintLine; onChanged: () => void }) {
  const { message } = AntApp.useApp();
  const [asking, setAsking] = useState(false);
  const [photo, setPhoto] = useState<File | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [form] = Form.useForm<{ note: string }>();
  const replacement = replacementText(line);

  const choose = (file: File) => {
    if (!PHOTO_TYPES.includes(file.type)) setPhotoError(REPLACEMENT_PHOTO_MESSAGES.notImage);
    else if (file.size > REPLACEMENT_PHOTO_MAX_MB * 1024 * 1024) setPhotoError(REPLACEMENT_PHOTO_MESSAGES.tooLarge);
    else {
      setPhotoError(null);
      setPhoto(file);
      return false;
    }
    setPhoto(null);
    return Upload.LIST_IGNORE;
  };

  const send = async () => {
    if (!photo) {
      setPhotoError(photoError ?? REPLACEMENT_PHOTO_MESSAGES.required);
      return;
    }
    setSending(true);
    try {
      const answer = await fulfilmentApi.askReplacement({ orderID: orderRef, lineId: line.id, note: form.getFieldValue('note') ?? '' }, photo, photo.name);
      message.success(answer.message);
      setAsking(false);
      onChanged();
    } catch (error) {
      // The form and the chosen photo stay as they were.
      message.error(isApiError(error) ? error.message : 'Something went wrong. Please try again.');
    } finally {
      setSending(false);
    }
  };

  return (
    <li data-status={line.status}>
      <span data-testid="print-line">
        <strong>{line.product}</strong>
        {line.replacementOf ? ' (replacement)' : ''}: {line.statusLabel}
        {line.courier && line.trackingNumber ? ` by ${line.courier}, tracking number ${line.trackingNumber}` : ''}
      </span>
      {line.refunded > 0 ? <div data-testid="print-line-refund">{`Refunded ${formatRupees(line.refunded)}`}</div> : null}
      {line.refundPending > 0 ? <div data-testid="print-line-refund-pending">{`Refund pending ${formatRupees(line.refundPending)}`}</div> : null}
      {replacement ? <div data-testid="print-line-replacement">{replacement}</div> : null}
      {line.canRequestReplacement ? (
        <Button
          size="small"
          style={{ marginTop: 4 }}
          onClick={() => {
            form.resetFields();
            setPhoto(null);
            setPhotoError(null);
            setAsking(true);
          }}
        >
          Ask for a replacement
        </Button>
      ) : null}
      <Modal
        open={asking}
        title={`Replacement of ${line.product}`}
        okText="Send request"
        onOk={send}
        confirmLoading={sending}
        onCancel={() => setAsking(false)}
        destroyOnHidden
      >
        <p>{`Arrived damaged? Ask within ${REPLACEMENT_WINDOW_DAYS} days of delivery with a photo of the damage (an image, at most ${REPLACEMENT_PHOTO_MAX_MB} MB).`}</p>
        <Form form={form} layout="vertical" requiredMark={false}>
          <Form.Item label="Photo of the damage" required validateStatus={photoError ? 'error' : undefined} help={photoError ?? undefined}>
            <Upload accept={PHOTO_TYPES.join(',')} maxCount={1} beforeUpload={choose} onRemove={() => setPhoto(null)}>
              <Button>Choose photo</Button>
            </Upload>
          </Form.Item>
          <Form.Item label="What is wrong (optional)" name="note" rules={[{ max: 500, message: 'A note has at most 500 characters.' }]}>
            <Input.TextArea rows={3} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </li>
  );
}
