import { useEffect, useState } from 'react';
import { Alert, Button, Card, InputNumber, Space, Typography } from 'antd';
import { CLIP_MAX_SIDE_SECONDS, isApiError, videoApi, type FinishVideosResult } from '@finishline/shared';

/** The event's clip lengths: seconds before and after each runner's crossing, for clips cut from now on. */
export function ClipLengthsForm(props: { eventId: number; before: number; after: number; onSaved: (result: FinishVideosResult, message: string) => void }) {
  const { eventId, onSaved } = props;
  const [before, setBefore] = useState<number | null>(props.before);
  const [after, setAfter] = useState<number | null>(props.after);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setBefore(props.before);
    setAfter(props.after);
  }, [props.before, props.after]);

  const save = async () => {
    setError(null);
    setSaving(true);
    try {
      const answer = await videoApi.clipLengths({ eventId, beforeSeconds: before ?? Number.NaN, afterSeconds: after ?? Number.NaN });
      onSaved(answer.result, answer.message);
    } catch (e) {
      setError(isApiError(e) ? e.message : 'Something went wrong !');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title="Clip lengths" data-testid="clip-lengths">
      <Typography.Paragraph type="secondary">
        Each runner&apos;s clip runs from a few seconds before their crossing to a few seconds after it (1 to {CLIP_MAX_SIDE_SECONDS} each). A change applies to
        clips cut from now on.
      </Typography.Paragraph>
      <Space wrap align="end">
        <label>
          <span style={{ display: 'block', marginBottom: 4 }}>Seconds before</span>
          <InputNumber controls={false} aria-label="Seconds before" min={1} max={CLIP_MAX_SIDE_SECONDS} precision={0} value={before} onChange={setBefore} />
        </label>
        <label>
          <span style={{ display: 'block', marginBottom: 4 }}>Seconds after</span>
          <InputNumber controls={false} aria-label="Seconds after" min={1} max={CLIP_MAX_SIDE_SECONDS} precision={0} value={after} onChange={setAfter} />
        </label>
        <Button onClick={() => void save()} loading={saving}>
          Save clip lengths
        </Button>
      </Space>
      {error && <Alert style={{ marginTop: 12 }} type="error" showIcon message={error} />}
    </Card>
  );
}
