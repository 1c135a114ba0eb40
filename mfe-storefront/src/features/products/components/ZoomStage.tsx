import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { Button } from 'antd';
import { IMAGE_FAILED_TEXT } from '@finishline/shared';
import {
  clampPan,
  distance,
  doubleTapView,
  MAX_SCALE,
  midpoint,
  pinchView,
  RESTING,
  swipeDirection,
  zoomBy,
  ZOOM_STEP,
  type Point,
  type ViewState,
} from '../viewerGestures';

type Gesture = { kind: 'drag'; start: Point; view: ViewState; at: number } | { kind: 'pinch'; distance: number; mid: Point; view: ViewState };

const TAP_MOVE_PX = 10;
const TAP_MS = 300;

/**
 * One photo that swipes and zooms, written on pointer events (touch, pen and mouse alike) rather than
 * a gesture library: the viewer needs only swipe, pinch, pan and double tap, and this keeps it inside
 * antd's modal, its focus handling and its 44 px buttons. `touch-action: none` hands every finger to
 * us, so the browser neither scrolls nor zooms the page under the photo.
 *
 * One finger at rest swipes (the photo follows the finger, then goes to the next or previous photo);
 * one finger on a zoomed photo pans; two fingers pinch. Double tap or double click zooms in and out.
 * The Zoom in / Zoom out buttons and the + and - keys do the same without a gesture.
 */
export function ZoomStage({ src, alt, onSwipe, className }: { src: string; alt: string; onSwipe: (direction: -1 | 1) => void; className?: string }) {
  const stageRef = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<Gesture | null>(null);
  const lastTap = useRef<{ at: number; point: Point } | null>(null);
  const [view, setView] = useState<ViewState>(RESTING);
  const [swipeX, setSwipeX] = useState(0);
  const [moving, setMoving] = useState(false);

  /** A pointer's position relative to the stage's centre, and the stage's size. */
  const measure = useCallback((event: { clientX: number; clientY: number }) => {
    const box = stageRef.current?.getBoundingClientRect() ?? { left: 0, top: 0, width: 1, height: 1 };
    return { point: { x: event.clientX - box.left - box.width / 2, y: event.clientY - box.top - box.height / 2 }, width: box.width, height: box.height };
  }, []);

  const bounded = useCallback((next: ViewState) => {
    const box = stageRef.current?.getBoundingClientRect();
    return box ? clampPan(next, box.width, box.height) : next;
  }, []);

  const startGesture = useCallback(() => {
    const points = [...pointers.current.values()];
    if (points.length >= 2) {
      gesture.current = { kind: 'pinch', distance: distance(points[0], points[1]), mid: midpoint(points[0], points[1]), view };
    } else if (points.length === 1) {
      gesture.current = { kind: 'drag', start: points[0], view, at: performance.now() };
    } else {
      gesture.current = null;
    }
  }, [view]);

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    if ((event.target as HTMLElement).closest('button')) return; // the zoom buttons are plain clicks
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, measure(event).point);
    setMoving(true);
    startGesture();
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!pointers.current.has(event.pointerId)) return;
    pointers.current.set(event.pointerId, measure(event).point);
    const current = gesture.current;
    if (!current) return;
    const points = [...pointers.current.values()];
    if (current.kind === 'pinch' && points.length >= 2) {
      setView(bounded(pinchView(current.view, current.distance, current.mid, distance(points[0], points[1]), midpoint(points[0], points[1]))));
    } else if (current.kind === 'drag') {
      const dx = points[0].x - current.start.x;
      const dy = points[0].y - current.start.y;
      if (current.view.scale > 1) setView(bounded({ ...current.view, x: current.view.x + dx, y: current.view.y + dy }));
      else setSwipeX(dx);
    }
  };

  const onPointerEnd = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!pointers.current.has(event.pointerId)) return;
    const { point, width } = measure(event);
    pointers.current.delete(event.pointerId);
    const current = gesture.current;
    if (current?.kind === 'drag' && event.type === 'pointerup') {
      const dx = point.x - current.start.x;
      const dy = point.y - current.start.y;
      const isTap = Math.hypot(dx, dy) < TAP_MOVE_PX && performance.now() - current.at < TAP_MS;
      if (isTap) {
        const previous = lastTap.current;
        if (previous && performance.now() - previous.at < TAP_MS && distance(previous.point, point) < 40) {
          setView((v) => bounded(doubleTapView(v, point)));
          lastTap.current = null;
        } else {
          lastTap.current = { at: performance.now(), point };
        }
      } else if (current.view.scale === 1) {
        const direction = swipeDirection(dx, dy, width);
        if (direction !== 0) onSwipe(direction);
      }
    }
    setSwipeX(0);
    if (pointers.current.size === 0) setMoving(false);
    // A pinch that loses one finger goes on as a pan with the other.
    startGesture();
  };

  // Keys for those who neither pinch nor swipe (the arrows are the viewer's, see PhotoCarousel).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === '+' || event.key === '=') setView((v) => bounded(zoomBy(v, ZOOM_STEP)));
      if (event.key === '-') setView((v) => bounded(zoomBy(v, 1 / ZOOM_STEP)));
      if (event.key === '0') setView(RESTING);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [bounded]);

  const transform = `translate3d(${view.x + swipeX}px, ${view.y}px, 0) scale(${view.scale})`;
  return (
    <div
      ref={stageRef}
      className={`fl-zoom-stage${className ? ` ${className}` : ''}`}
      data-testid="zoom-stage"
      data-scale={view.scale.toFixed(2)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
    >
      <img
        className={`fl-zoom-img${moving ? ' fl-zoom-moving' : ''}`}
        src={src}
        alt={failed ? IMAGE_FAILED_TEXT : alt}
        onError={() => setFailed(true)}
        draggable={false}
        style={{ transform, opacity: swipeX === 0 ? 1 : Math.max(0.4, 1 - Math.abs(swipeX) / 600) }}
      />
      <div className="fl-zoom-buttons">
        <Button aria-label="Zoom out" disabled={view.scale <= 1} onClick={() => setView((v) => bounded(zoomBy(v, 1 / ZOOM_STEP)))}>
          −
        </Button>
        <Button aria-label="Zoom in" disabled={view.scale >= MAX_SCALE} onClick={() => setView((v) => bounded(zoomBy(v, ZOOM_STEP)))}>
          +
        </Button>
      </div>
    </div>
  );
}
