import { useEffect, useRef, useState } from 'react';
import { App, Button, Spin } from 'antd';
import { ArrowLeftOutlined, DownloadOutlined } from '@ant-design/icons';
import type Konva from 'konva';
import { capitalizeWords, CERTIFICATE_LIMITS, CERTIFICATE_MESSAGES, certificateApi, isApiError, type TemplateDetailsResult } from '@finishline/shared';
import { saveBlob } from '@finishline/shared/react';
import { loadCertificateFonts } from '../state/fonts';
import { canvasJpeg, exportFailure, IMAGE_FAILED } from '../state/crop';
import type { ProcessedImage } from '../state/steps';
import { CertificateStage, loadImage, useWidth, type StageImages } from './CertificateStage';
import { BuyOffer } from './BuyOffer';

export const UPLOADED = 'Certificate uploaded successfully!';
export const DOWNLOADED = 'Certificate downloaded Successfully';
export const OPENED = 'Certificate opened in new tab. Please save it manually.';
const uploadFailed = (detail: string) => `Failed to upload certificate. Error: ${detail}`;

/** Marks performance so the benchmark can time Generate to preview and to the JPEG. */
const mark = (name: string) => performance.mark(`certificate:${name}`);

interface PreviewStepProps {
  details: TemplateDetailsResult;
  processed: Record<number, ProcessedImage>;
  onBack: () => void;
  onCancel: () => void;
}

/** Step 4, Preview and Download Your Certificate. */
export function PreviewStep({ details, processed, onBack, onCancel }: PreviewStepProps) {
  const { message } = App.useApp();
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const template = details.template;
  const { width: outputWidth, height: outputHeight } = template.template_config.output_resolution;
  // The whole certificate and its buttons on one screen: no wider than the window's height allows.
  const width = useWidth(box, Math.min(1200, Math.max(280, ((window.innerHeight - 300) * outputWidth) / outputHeight)));
  const stage = useRef<Konva.Stage>(null);
  const [images, setImages] = useState<StageImages | null>(null);
  const [downloading, setDownloading] = useState(false);
  const participantName = details.achievement_details.participant_name;
  // A race whose photos this session has not bought (nor verified): the preview is of watermarked
  // previews, and instead of Download the builder offers to buy (the server refuses the upload).
  const lockedPhoto = details.photos.find((photo) => photo.usable === false);
  const locked = lockedPhoto ? details.achievement_details.events.find((event) => event.event_id === lockedPhoto.event_id) : undefined;

  useEffect(() => {
    let live = true;
    const fonts = [...new Set(template.template_config.texts.map((t) => t.font_file))];
    Promise.all([
      loadImage(template.template_image),
      Promise.all(Object.values(processed).map(async (p) => [p.eventId, await loadImage(p.processedImageUrl)] as const)),
      loadCertificateFonts(fonts),
    ])
      .then(([background, photos]) => live && setImages({ background, photos: Object.fromEntries(photos) }))
      .catch(() => live && message.error(IMAGE_FAILED));
    return () => {
      live = false;
    };
  }, [template, processed, message]);

  useEffect(() => {
    // konva draws the layer on the next frame: the preview is on screen the frame after.
    if (images && width > 0) requestAnimationFrame(() => requestAnimationFrame(() => mark('preview')));
  }, [images, width]);

  /** The stage at the template's resolution: exactly output width by height pixels. */
  const exportJpeg = async (): Promise<Blob> => {
    const node = stage.current!;
    // A hair over the ratio, so the canvas floors to the exact size rather than one pixel short.
    const pixelRatio = (outputWidth / node.width()) * (1 + 1e-9);
    const canvas = node.toCanvas({ x: 0, y: 0, width: node.width(), height: node.height(), pixelRatio });
    if (canvas.width !== outputWidth || canvas.height !== outputHeight) throw new Error(IMAGE_FAILED);
    const blob = await canvasJpeg(canvas, CERTIFICATE_LIMITS.jpegQuality);
    mark('jpeg');
    return blob;
  };

  const download = async () => {
    if (!participantName.trim()) {
      message.warning(CERTIFICATE_MESSAGES.noParticipantName);
      return;
    }
    const achievementId = details.achievement_details.achievement_id;
    if (!achievementId) {
      message.error(CERTIFICATE_MESSAGES.noAchievement);
      return;
    }
    setDownloading(true);
    try {
      let jpeg: Blob;
      try {
        jpeg = await exportJpeg();
      } catch (error) {
        message.error(exportFailure(error));
        return;
      }
      let url: string;
      try {
        const answer = await certificateApi.uploadCertificate(achievementId, jpeg, template.template_config.output_filename);
        message.success(answer.message || UPLOADED);
        url = answer.result.certificate_url;
      } catch (error) {
        message.error(uploadFailed(isApiError(error) || error instanceof Error ? error.message : String(error)));
        return;
      }
      try {
        const response = await fetch(url);
        if (!response.ok) throw new Error(String(response.status));
        saveBlob(await response.blob(), template.template_config.output_filename);
        message.success(DOWNLOADED);
      } catch {
        window.open(url, '_blank', 'noopener');
        message.info(OPENED);
      }
      await certificateApi.recordDownload(achievementId).catch(() => undefined);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section className="fl-cert-step" data-testid="certificate-preview">
      <h2 className="fl-cert-heading">Certificate Preview</h2>
      {/* Once drawn, the canvas has no words of its own for a screen reader: its title and the runner's name are its name. */}
      <div
        className="fl-cert-stage"
        ref={setBox}
        {...(images ? { role: 'img', 'aria-label': `${details.achievement_details.title}: certificate of ${capitalizeWords(participantName)}` } : {})}
      >
        {images && width > 0 ? (
          <CertificateStage ref={stage} template={template} images={images} participantName={participantName} width={width} />
        ) : (
          <div className="fl-cert-loading">
            <Spin /> Loading template and fonts...
          </div>
        )}
      </div>
      {locked ? (
        <BuyOffer
          eventId={locked.event_id}
          eventName={locked.event_name}
          bibNumber={locked.bib_number}
          text={CERTIFICATE_MESSAGES.buyFirst(locked.event_name, locked.bib_number)}
        />
      ) : null}
      <footer className="fl-cert-footer fl-cert-preview-actions">
        <Button icon={<ArrowLeftOutlined />} onClick={onBack}>
          Back to Edit
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
        {locked ? null : (
          <Button type="primary" icon={<DownloadOutlined />} loading={downloading} disabled={!images} onClick={() => void download()}>
            {downloading ? 'Downloading...' : 'Download'}
          </Button>
        )}
      </footer>
    </section>
  );
}
