import { useRef, useState } from 'react';
import ReactCrop, { convertToPixelCrop, type Crop, type PercentCrop } from 'react-image-crop';
import 'react-image-crop/dist/ReactCrop.css';
import { App, Button, Modal, Slider } from 'antd';
import { CERTIFICATE_LIMITS, initialSquareCrop } from '@finishline/shared';
import { canvasJpeg, drawCrop, exportFailure } from '../state/crop';
import type { CertificateEventRow, ProcessedImage } from '../state/steps';

interface CropDialogProps {
  row: CertificateEventRow | null;
  previous: ProcessedImage | undefined;
  onApply: (image: ProcessedImage) => void;
  onCancel: () => void;
}

const { zoom: ZOOM, rotation: ROTATION, minCropPx, jpegQuality } = CERTIFICATE_LIMITS;

/**
 * Adjust Image: a square crop (react-image-crop: at least 10 px, kept inside the image) over the photo,
 * with zoom 0.5 to 3 in steps of 0.1 and rotation -45 to 45 degrees. Apply draws the cropped square at
 * the photo's resolution.
 */
export function CropDialog({ row, previous, onApply, onCancel }: CropDialogProps) {
  const { message } = App.useApp();
  const image = useRef<HTMLImageElement>(null);
  const [crop, setCrop] = useState<Crop>();
  const [scale, setScale] = useState(previous?.cropData.scale ?? 1);
  const [rotate, setRotate] = useState(previous?.cropData.rotate ?? 0);
  const [applying, setApplying] = useState(false);
  const source = row?.selectedImage?.high_res_url ?? '';

  const onLoad = () => {
    const img = image.current;
    if (!img) return;
    const earlier = previous?.cropData.crop;
    setCrop(earlier && earlier.unit === '%' ? (earlier as PercentCrop) : initialSquareCrop(img.width, img.height));
  };

  const apply = async () => {
    const img = image.current;
    if (!row || !img || !crop) return;
    setApplying(true);
    try {
      const pixels = convertToPixelCrop(crop, img.width, img.height);
      const blob = await canvasJpeg(drawCrop(img, pixels, scale, rotate), jpegQuality);
      const percent: PercentCrop = {
        unit: '%',
        x: (pixels.x / img.width) * 100,
        y: (pixels.y / img.height) * 100,
        width: (pixels.width / img.width) * 100,
        height: (pixels.height / img.height) * 100,
      };
      onApply({
        originalImage: source,
        processedImageUrl: URL.createObjectURL(blob),
        cropData: {
          crop: percent,
          scale,
          rotate,
          naturalWidth: img.naturalWidth,
          naturalHeight: img.naturalHeight,
          displayWidth: img.width,
          displayHeight: img.height,
        },
        eventId: row.eventId,
        bibNumber: row.bibNumber,
      });
    } catch (error) {
      message.error(exportFailure(error));
    } finally {
      setApplying(false);
    }
  };

  return (
    <Modal
      open={row !== null}
      title="Adjust Image"
      onCancel={onCancel}
      destroyOnHidden
      width={720}
      footer={[
        <Button key="cancel" onClick={onCancel}>
          Cancel
        </Button>,
        <Button key="apply" type="primary" loading={applying} disabled={!crop} onClick={() => void apply()}>
          Apply
        </Button>,
      ]}
    >
      <div className="fl-cert-crop" data-testid="crop-area">
        <ReactCrop crop={crop} onChange={(_, percent) => setCrop(percent)} aspect={1} minWidth={minCropPx} minHeight={minCropPx} keepSelection ruleOfThirds>
          <img
            ref={image}
            src={source}
            crossOrigin="anonymous"
            alt={`Photo ${row?.selectedImage?.photo_id ?? ''}`}
            onLoad={onLoad}
            style={{ transform: `scale(${scale}) rotate(${rotate}deg)` }}
            className="fl-cert-crop-image"
          />
        </ReactCrop>
      </div>
      <label className="fl-cert-slider">
        <span>Zoom</span>
        <Slider ariaLabelForHandle="Zoom" min={ZOOM.min} max={ZOOM.max} step={ZOOM.step} value={scale} onChange={setScale} />
      </label>
      <label className="fl-cert-slider">
        <span>Rotate</span>
        <Slider ariaLabelForHandle="Rotate" min={ROTATION.min} max={ROTATION.max} step={1} value={rotate} onChange={setRotate} />
      </label>
    </Modal>
  );
}
