import { useState } from 'react';
import { Alert, App, Button, Card, Popover, Progress, Tag } from 'antd';
import { ArrowLeftOutlined, CheckCircleFilled, ScissorOutlined } from '@ant-design/icons';
import { allCropped, croppedCount, type BuilderState, type CertificateEventRow, type ProcessedImage } from '../state/steps';
import { CropDialog } from './CropDialog';

export const RESIZE_FIRST = 'Resize image(s) to preview the certificate';

interface ProcessStepProps {
  state: Pick<BuilderState, 'events' | 'processed'>;
  onCropped: (image: ProcessedImage) => void;
  onGenerate: () => void;
  onBack: () => void;
}

function CardImage({ src, alt }: { src: string; alt: string }) {
  const [failed, setFailed] = useState(false);
  return failed ? (
    <div className="fl-cert-card-failed">Image failed to load.</div>
  ) : (
    <img className="fl-cert-card-image" src={src} alt={alt} crossOrigin="anonymous" onError={() => setFailed(true)} />
  );
}

/** Step 3, Process Your Images: crop each chosen photo; Generate Certificate once all are cropped. */
export function ProcessStep({ state, onCropped, onGenerate, onBack }: ProcessStepProps) {
  const { message } = App.useApp();
  const [cropping, setCropping] = useState<CertificateEventRow | null>(null);
  const done = croppedCount(state);
  const total = state.events.length;

  const generate = () => {
    if (!allCropped(state)) {
      // One toast for the same reminder: a second click refreshes it instead of stacking a copy.
      message.warning({ content: RESIZE_FIRST, key: RESIZE_FIRST });
      return;
    }
    onGenerate();
  };

  return (
    <section className="fl-cert-step" data-testid="certificate-process">
      <div className="fl-cert-toolbar">
        <Button icon={<ArrowLeftOutlined />} onClick={onBack}>
          Back
        </Button>
        <Popover
          title="Images"
          content={
            <div className="fl-cert-chips">
              {state.events.map((e) => (
                <Tag key={e.eventId} color={state.processed[e.eventId] ? 'green' : 'default'}>
                  {e.eventName} · {e.bibNumber}
                </Tag>
              ))}
            </div>
          }
        >
          <span data-testid="certificate-progress">
            <Progress
              type="circle"
              size={56}
              percent={total ? Math.round((done / total) * 100) : 0}
              format={() => `${done}/${total}`}
              aria-label={`${done} of ${total} images cropped`}
            />
          </span>
        </Popover>
      </div>
      <Alert type="info" showIcon title="Crop and resize your selected images for the certificate." className="fl-cert-banner" />
      <div className="fl-cert-cards">
        {state.events.map((row) => {
          const processed = state.processed[row.eventId];
          return (
            <Card key={row.eventId} className="fl-cert-card" data-testid="certificate-card" title={row.eventName}>
              <div className="fl-cert-card-meta">
                <span>Event ID: {row.eventId}</span>
                <span>BIB: {row.bibNumber}</span>
              </div>
              <CardImage src={processed?.processedImageUrl ?? row.selectedImage?.high_res_url ?? ''} alt={`Photo for ${row.eventName}`} />
              <Button icon={<ScissorOutlined />} onClick={() => setCropping(row)} block>
                {processed ? 'Edit Image' : 'Crop & Resize'}
              </Button>
              <p className={processed ? 'fl-cert-status-done' : 'fl-cert-status'}>
                {processed ? (
                  <>
                    <CheckCircleFilled /> Image Cropped & Saved Successfully!
                  </>
                ) : (
                  'Waiting for processing'
                )}
              </p>
            </Card>
          );
        })}
      </div>
      <footer className="fl-cert-footer">
        <span>
          {done}/{total} images cropped
        </span>
        <Button type="primary" onClick={generate}>
          Generate Certificate
        </Button>
      </footer>
      <CropDialog
        key={cropping?.eventId ?? 'none'}
        row={cropping}
        previous={cropping ? state.processed[cropping.eventId] : undefined}
        onCancel={() => setCropping(null)}
        onApply={(image) => {
          onCropped(image);
          setCropping(null);
        }}
      />
    </section>
  );
}
