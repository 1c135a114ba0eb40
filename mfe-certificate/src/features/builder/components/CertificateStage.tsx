import { forwardRef, useEffect, useState } from 'react';
import { Image as KonvaImage, Layer, Rect, Shape, Stage } from 'react-konva';
import type Konva from 'konva';
import { CERTIFICATE_FONTS, certificateTexts, fittedFontSize, textLeft, type CertificateTemplate, type LaidOutText } from '@finishline/shared';

/** Loads an image for the canvas; images of another origin are asked for with CORS so the canvas can be exported. */
export function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new window.Image();
    if (!src.startsWith('blob:') && !src.startsWith('data:')) image.crossOrigin = 'anonymous';
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error(`Image failed to load.`));
    image.src = src;
  });
}

/** Draws one text as the server does: fitted to max_width, anchored by its alignment, y on the baseline. */
function drawText(context: Konva.Context, text: LaidOutText): void {
  const { family, weight } = CERTIFICATE_FONTS[text.fontFile];
  const fontAt = (size: number) => `${weight} ${size}px "${family}"`;
  context.setAttr('font', fontAt(text.fontSize));
  const size = fittedFontSize(text, context.measureText(text.text).width);
  context.setAttr('font', fontAt(size));
  context.setAttr('textAlign', 'left');
  context.setAttr('textBaseline', 'alphabetic');
  context.setAttr('fillStyle', text.color);
  context.fillText(text.text, textLeft(text, context.measureText(text.text).width), text.y);
}

export interface StageImages {
  background: HTMLImageElement;
  photos: Record<number, HTMLImageElement>;
}

interface CertificateStageProps {
  template: CertificateTemplate;
  images: StageImages;
  participantName: string;
  /** Width on screen; the stage is the template scaled down to it. */
  width: number;
}

/**
 * The certificate on a konva stage: the template's background, each event's cropped photo in its
 * slot and the template's texts, laid out by the shared certificateTexts (as the server draws it).
 */
export const CertificateStage = forwardRef<Konva.Stage, CertificateStageProps>(function CertificateStage({ template, images, participantName, width }, ref) {
  const { width: outputWidth, height: outputHeight } = template.template_config.output_resolution;
  const scale = width / outputWidth;
  const texts = certificateTexts(template.template_config, { participantName, events: template.achievement_details.events });
  return (
    <Stage ref={ref} width={width} height={outputHeight * scale} scaleX={scale} scaleY={scale} data-testid="certificate-stage">
      <Layer listening={false}>
        <Rect width={outputWidth} height={outputHeight} fill="#ffffff" />
        <KonvaImage image={images.background} width={outputWidth} height={outputHeight} />
        {template.template_config.images.map((slot) =>
          images.photos[slot.event_id] ? (
            <KonvaImage key={slot.slot} image={images.photos[slot.event_id]} x={slot.x} y={slot.y} width={slot.width} height={slot.height} />
          ) : null,
        )}
        {texts.map((text, i) => (
          <Shape key={i} sceneFunc={(context) => drawText(context, text)} />
        ))}
      </Layer>
    </Stage>
  );
});

/** The container's width, followed as the window changes. */
export function useWidth(element: HTMLElement | null, max: number): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!element) return;
    const measure = () => setWidth(Math.min(max, Math.floor(element.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, max]);
  return width;
}
