import { useEffect, useRef, useState } from 'react';
import { Group, Image as KonvaImage, Layer, Rect, Stage, Text } from 'react-konva';
import { Button, InputNumber, Select } from 'antd';
import { CERTIFICATE_FONTS, templateFieldLabel, type CertificateTemplateConfig, type CertificateTextItem } from '@finishline/shared';
import { ADDABLE_FIELDS, added, moved, newField, removed, slotIndex, type AddableField, type TemplateRace } from '../state/template';

/**
 * The template editor (loaded only when the Certificate tab opens, with konva): the certificate
 * drawn at the width of the screen, each field dragged where it goes; under it the same fields as a
 * list with their positions in the certificate's own pixels (for touch and keyboard), a field added
 * or removed. The words are samples: the preview shows a real finisher's, drawn by the server.
 */
interface Props {
  config: CertificateTemplateConfig;
  accent: string;
  backgroundUrl: string | null;
  /** The races whose fields the certificate may show: one for a race's own, several for a series (its slots' order). */
  races: TemplateRace[];
  eventDate: string;
  onChange: (config: CertificateTemplateConfig) => void;
}

const SAMPLE: Record<CertificateTextItem['field'], string> = {
  participant_name: 'Runner’s Name',
  finish_time: '01:23:45',
  event_name: 'Race name',
  bib_number: 'BIB 1234',
  static: '',
};

function useImage(src: string | null): HTMLImageElement | null {
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  useEffect(() => {
    if (!src) {
      setImage(null);
      return;
    }
    const img = new window.Image();
    img.crossOrigin = 'anonymous';
    img.onload = () => setImage(img);
    img.src = src;
  }, [src]);
  return image;
}

function useWidth(): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(320);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(200, Math.floor(entry.contentRect.width))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

export default function TemplateEditor({ config, accent, backgroundUrl, races, eventDate, onChange }: Props) {
  const [holder, stageWidth] = useWidth();
  const background = useImage(backgroundUrl);
  const [adding, setAdding] = useState<AddableField>('participant_name');
  const [addingRace, setAddingRace] = useState<number>(races[0]?.event_id ?? 0);
  // With several races, a race's field and photo slot say which race they are of.
  const several = races.length > 1;
  const raceName = (eventId: number | undefined) => races.find((r) => r.event_id === eventId)?.event_name ?? 'another race';
  const labelOf = (item: CertificateTextItem) =>
    several && item.field !== 'participant_name' && item.field !== 'static'
      ? `${templateFieldLabel(item)} (${raceName(item.event_id)})`
      : templateFieldLabel(item);
  const slotLabel = (position: number) => (several ? `Photo slot ${position + 1} (${raceName(config.images[position]?.event_id)})` : 'Photo slot');
  const raceOf = races.some((r) => r.event_id === addingRace) ? addingRace : (races[0]?.event_id ?? 0);
  const { width, height } = config.output_resolution;
  const scale = stageWidth / width;
  const stageHeight = Math.round(height * scale);
  const box = (item: CertificateTextItem) => (item.max_width ?? Math.round(width * 0.6)) * scale;

  const textNode = (item: CertificateTextItem, index: number) => {
    const size = (item.font_size ?? (item.field === 'finish_time' ? 70 : item.field === 'participant_name' ? 60 : 48)) * scale;
    const w = box(item);
    const align = item.align ?? 'center';
    const left = align === 'center' ? item.x * scale - w / 2 : align === 'right' ? item.x * scale - w : item.x * scale;
    const font = CERTIFICATE_FONTS[item.font_file];
    return (
      <Text
        key={`t${index}`}
        name={`field-${index}`}
        text={item.field === 'static' ? (item.text ?? '') : SAMPLE[item.field]}
        x={left}
        // y is the baseline: the text's box starts about one font size above it.
        y={item.y * scale - size * 0.85}
        width={w}
        align={align}
        fontSize={size}
        fontFamily={`${font.family}, Georgia, serif`}
        fontStyle={font.weight >= 600 ? 'bold' : 'normal'}
        fill={item.color}
        wrap="none"
        draggable
        onDragEnd={(e) => {
          const x = align === 'center' ? e.target.x() + w / 2 : align === 'right' ? e.target.x() + w : e.target.x();
          onChange(moved(config, index, x / scale, (e.target.y() + size * 0.85) / scale));
        }}
      />
    );
  };

  const unit = Math.max(2, Math.round((width / 64) * scale));
  return (
    <div className="fl-cert-editor">
      <div ref={holder} className="fl-cert-stage" data-testid="certificate-template-canvas">
        <Stage width={stageWidth} height={stageHeight}>
          <Layer>
            {background ? (
              <KonvaImage image={background} width={stageWidth} height={stageHeight} />
            ) : (
              <>
                <Rect width={stageWidth} height={stageHeight} fill="#fbf6ea" />
                <Rect x={unit} y={unit} width={stageWidth - 2 * unit} height={stageHeight - 2 * unit} stroke={accent} strokeWidth={Math.max(2, unit * 0.6)} />
              </>
            )}
            {config.images.map((slot, position) => (
              <Group
                key={`s${position}`}
                x={slot.x * scale}
                y={slot.y * scale}
                draggable
                onDragEnd={(e) => onChange(moved(config, slotIndex(position), e.target.x() / scale, e.target.y() / scale))}
              >
                <Rect width={slot.width * scale} height={slot.height * scale} fill="#ffffff" stroke={accent} dash={[6, 4]} strokeWidth={2} />
                <Text
                  text={several ? `Photo ${position + 1}` : 'Photo'}
                  width={slot.width * scale}
                  y={(slot.height * scale) / 2 - 8}
                  align="center"
                  fontSize={14}
                  fill="#6b7280"
                />
              </Group>
            ))}
            {config.texts.map(textNode)}
          </Layer>
        </Stage>
      </div>
      <p className="fl-cert-hint">
        Drag a field on the certificate, or set its position below ({width} x {height} pixels).
      </p>
      <ul className="fl-cert-fields" aria-label="Fields on the certificate">
        {config.images.map((slot, position) => {
          const label = slotLabel(position);
          return (
            <li key={`s${position}`}>
              <span className="fl-cert-field-name">{label}</span>
              <InputNumber
                controls={false}
                aria-label={`${label}: x`}
                value={slot.x}
                min={0}
                max={width}
                onChange={(v) => v !== null && onChange(moved(config, slotIndex(position), v, slot.y))}
              />
              <InputNumber
                controls={false}
                aria-label={`${label}: y`}
                value={slot.y}
                min={0}
                max={height}
                onChange={(v) => v !== null && onChange(moved(config, slotIndex(position), slot.x, v))}
              />
            </li>
          );
        })}
        {config.texts.map((item, index) => {
          const label = labelOf(item);
          return (
            <li key={`f${index}`}>
              <span className="fl-cert-field-name">{label}</span>
              <InputNumber
                controls={false}
                aria-label={`${label}: x`}
                value={item.x}
                onChange={(v) => v !== null && onChange(moved(config, index, v, item.y))}
              />
              <InputNumber
                controls={false}
                aria-label={`${label}: y`}
                value={item.y}
                onChange={(v) => v !== null && onChange(moved(config, index, item.x, v))}
              />
              <Button onClick={() => onChange(removed(config, index))} aria-label={`Remove ${label}`}>
                Remove
              </Button>
            </li>
          );
        })}
      </ul>
      <div className="fl-cert-add">
        <Select
          aria-label="Field to add"
          value={adding}
          onChange={(v) => setAdding(v)}
          options={ADDABLE_FIELDS.map((f) => ({ value: f.key, label: f.label }))}
          style={{ minWidth: 140 }}
        />
        {several && adding !== 'participant_name' && adding !== 'date' ? (
          <Select
            aria-label="Race of the field"
            value={raceOf}
            onChange={(v) => setAddingRace(v)}
            options={races.map((r) => ({ value: r.event_id, label: r.event_name }))}
            style={{ minWidth: 180 }}
          />
        ) : null}
        <Button onClick={() => onChange(added(config, newField(adding, raceOf, eventDate, accent, config)))}>Add field</Button>
      </div>
    </div>
  );
}
