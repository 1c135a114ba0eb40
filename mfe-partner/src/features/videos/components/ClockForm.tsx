import { useEffect, useState } from 'react';
import { Alert, Button, Input, InputNumber, Radio, Select, Slider, Space, Spin, Typography } from 'antd';
import {
  formatRaceTime,
  isApiError,
  parseRaceTime,
  VIDEO_MESSAGES,
  videoApi,
  type FinishVideo,
  type FinishVideosResult,
  type SetVideoClockRequest,
} from '@finishline/shared';

/** The frame picker waits this long after the slider stops before asking for the frame. */
const FRAME_DELAY_MS = 350;

type Mode = 'start' | 'frame';

/**
 * Sets a video's clock (once, and again when it was wrong: `again`): the race clock's reading at the video's first frame, or a moment of the
 * video (the frame picker: a slider and a seconds box, the frame shown beside them) at which a known
 * runner is at the line, with their BIB. The server refuses a clock that puts every finisher outside
 * the video; its message is shown here and nothing changes.
 */
export function ClockForm(props: {
  video: FinishVideo;
  finishers: FinishVideosResult['finishers'];
  again?: boolean;
  onSet: (result: FinishVideosResult, message: string) => void;
}) {
  const { video, finishers, again = false, onSet } = props;
  const [mode, setMode] = useState<Mode>('start');
  const [raceTime, setRaceTime] = useState('');
  const [second, setSecond] = useState(0);
  const [bib, setBib] = useState<string | undefined>(undefined);
  const [frame, setFrame] = useState<{ atSecond: number; image: string } | null>(null);
  const [frameError, setFrameError] = useState<string | null>(null);
  const [loadingFrame, setLoadingFrame] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const last = Math.max(0, Math.floor(video.durationSeconds * 10) / 10);

  // The frame at the chosen second, asked for once the slider rests.
  useEffect(() => {
    if (mode !== 'frame') return;
    let stopped = false;
    const timer = setTimeout(() => {
      setLoadingFrame(true);
      videoApi
        .frame({ videoId: video.videoId, atSecond: second })
        .then(({ result }) => {
          if (stopped) return;
          setFrame(result);
          setFrameError(null);
        })
        .catch((e: unknown) => !stopped && setFrameError(isApiError(e) ? e.message : 'The frame could not be shown.'))
        .finally(() => !stopped && setLoadingFrame(false));
    }, FRAME_DELAY_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [mode, second, video.videoId]);

  const submit = async () => {
    setError(null);
    let body: SetVideoClockRequest;
    if (mode === 'start') {
      if (!Number.isFinite(parseRaceTime(raceTime))) return setError(VIDEO_MESSAGES.clockFormat);
      body = { videoId: video.videoId, mode: 'start', raceTime: raceTime.trim() };
    } else {
      if (!bib) return setError(VIDEO_MESSAGES.unknownBib);
      body = { videoId: video.videoId, mode: 'frame', atSecond: second, bibNumber: bib };
    }
    setSaving(true);
    try {
      const answer = await videoApi.setClock(body);
      onSet(answer.result, answer.message);
    } catch (e) {
      setError(isApiError(e) ? e.message : 'Something went wrong !');
    } finally {
      setSaving(false);
    }
  };

  const label = `clock-${video.videoId}`;
  return (
    <section aria-labelledby={label} data-testid="clock-form" style={{ borderTop: '1px solid #f0f0f0', paddingTop: 12 }}>
      <Typography.Title level={4} id={label} style={{ marginTop: 0 }}>
        {again ? 'Set the camera’s clock again' : 'Set the camera’s clock'}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {again
          ? 'The unsold clips of this video are removed and cut again with the new clock; a sold clip stays as its buyer has it.'
          : 'Once per video: every participant with an official finish time inside the video then gets a clip of their crossing.'}
      </Typography.Paragraph>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Radio.Group
          aria-label="Set the clock"
          optionType="button"
          value={mode}
          onChange={(e) => {
            setMode(e.target.value as Mode);
            setError(null);
          }}
          options={[
            { value: 'start', label: "By the video's start" },
            { value: 'frame', label: 'By a runner at the line' },
          ]}
        />
        {mode === 'start' ? (
          <label style={{ display: 'block', maxWidth: 360 }}>
            <span style={{ display: 'block', marginBottom: 4 }}>Race clock as the camera started (h:mm:ss)</span>
            <Input
              value={raceTime}
              onChange={(e) => setRaceTime(e.target.value)}
              placeholder="3:09:50"
              inputMode="numeric"
              onPressEnter={() => void submit()}
            />
            {video.recordedAt && (
              <Typography.Text type="secondary" style={{ display: 'block', marginTop: 4 }}>
                The camera recorded its start at {new Date(video.recordedAt).toLocaleString()}.
              </Typography.Text>
            )}
          </label>
        ) : (
          <Space direction="vertical" size="small" style={{ width: '100%' }}>
            <Typography.Text>Move to the moment a runner you know is at the finish line.</Typography.Text>
            <Slider
              ariaLabelForHandle="Moment of the video"
              min={0}
              max={last}
              step={0.5}
              value={second}
              onChange={(v: number) => setSecond(v)}
              tooltip={{ formatter: (v) => formatRaceTime(v ?? 0) }}
            />
            <Space wrap>
              <Button onClick={() => setSecond((s) => Math.max(0, s - 1))}>1 s earlier</Button>
              <label>
                <span style={{ marginRight: 8 }}>Second of the video</span>
                <InputNumber
                  controls={false}
                  aria-label="Second of the video"
                  min={0}
                  max={last}
                  step={0.5}
                  value={second}
                  onChange={(v) => setSecond(typeof v === 'number' ? v : 0)}
                />
              </label>
              <Button onClick={() => setSecond((s) => Math.min(last, s + 1))}>1 s later</Button>
              <Typography.Text type="secondary">{formatRaceTime(second)} into the video</Typography.Text>
            </Space>
            <div style={{ maxWidth: 640, minHeight: 120, position: 'relative' }}>
              {frame && (
                <img
                  data-testid="clock-frame"
                  data-at-second={frame.atSecond}
                  src={frame.image}
                  alt={`The video at ${formatRaceTime(frame.atSecond)}`}
                  style={{ width: '100%', display: 'block' }}
                />
              )}
              {loadingFrame && <Spin style={{ position: 'absolute', top: 8, left: 8 }} />}
              {frameError && <Alert type="warning" showIcon message={frameError} />}
            </div>
            <label style={{ display: 'block', maxWidth: 360 }}>
              <span style={{ display: 'block', marginBottom: 4 }}>BIB of the runner at the line</span>
              <Select
                aria-label="BIB of the runner at the line"
                showSearch
                value={bib}
                onChange={setBib}
                placeholder="Choose the BIB"
                style={{ width: '100%' }}
                options={finishers.map((f) => ({ value: f.bibNumber, label: `${f.bibNumber} (finished ${formatRaceTime(f.finishSeconds)})` }))}
              />
            </label>
          </Space>
        )}
        {error && <Alert type="error" showIcon data-testid="clock-error" message={error} />}
        <Button type="primary" loading={saving} onClick={() => void submit()}>
          {again ? 'Set clock and cut clips again' : 'Set clock and cut clips'}
        </Button>
      </Space>
    </section>
  );
}
