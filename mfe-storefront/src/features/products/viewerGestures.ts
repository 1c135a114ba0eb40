/**
 * The photo viewer's gesture arithmetic, kept apart from the DOM so it can be tested: when a drag is
 * a swipe to the next or previous photo, how far a pinch zooms, and how far a zoomed photo may pan.
 */
export interface ViewState {
  scale: number;
  x: number;
  y: number;
}

export const MIN_SCALE = 1;
export const MAX_SCALE = 4;
/** Double tap, double click and the Zoom in button's step. */
export const ZOOM_STEP = 2;
export const RESTING: ViewState = { scale: 1, x: 0, y: 0 };

export const clampScale = (scale: number): number => Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));

/**
 * -1 (previous photo), 1 (next photo) or 0 for a one-finger drag of dx, dy on a stage this wide.
 * A swipe must be mostly sideways and travel at least 15% of the width (at most 60 px), so a tap or a
 * vertical scroll attempt never changes the photo.
 */
export function swipeDirection(dx: number, dy: number, width: number): -1 | 0 | 1 {
  const threshold = Math.min(60, width * 0.15);
  if (Math.abs(dx) < threshold || Math.abs(dx) < Math.abs(dy) * 1.5) return 0;
  return dx < 0 ? 1 : -1;
}

/** Keeps a zoomed photo covering the stage: it pans at most as far as its zoom made it larger. */
export function clampPan(view: ViewState, width: number, height: number): ViewState {
  const scale = clampScale(view.scale);
  const maxX = ((scale - 1) * width) / 2;
  const maxY = ((scale - 1) * height) / 2;
  const clamp = (value: number, max: number) => Math.min(max, Math.max(-max, value));
  return { scale, x: clamp(view.x, maxX), y: clamp(view.y, maxY) };
}

export interface Point {
  x: number;
  y: number;
}

export const distance = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);
export const midpoint = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/**
 * The view during a pinch that started at `start` with the fingers `startDistance` apart around
 * `startMid` (both relative to the stage's centre): the zoom follows the fingers' spread, and the
 * point under the fingers stays under them.
 */
export function pinchView(start: ViewState, startDistance: number, startMid: Point, nowDistance: number, nowMid: Point): ViewState {
  const scale = clampScale(start.scale * (nowDistance / Math.max(1, startDistance)));
  const ratio = scale / start.scale;
  return {
    scale,
    x: nowMid.x - (startMid.x - start.x) * ratio,
    y: nowMid.y - (startMid.y - start.y) * ratio,
  };
}

/** Zooms by a button or key press around the stage's centre. */
export function zoomBy(view: ViewState, factor: number): ViewState {
  const scale = clampScale(view.scale * factor);
  if (scale === MIN_SCALE) return RESTING;
  const ratio = scale / view.scale;
  return { scale, x: view.x * ratio, y: view.y * ratio };
}

/** A double tap (or double click) zooms in on the tapped point, or back out when zoomed. */
export function doubleTapView(view: ViewState, at: Point): ViewState {
  if (view.scale > MIN_SCALE) return RESTING;
  return { scale: ZOOM_STEP, x: -at.x * (ZOOM_STEP - 1), y: -at.y * (ZOOM_STEP - 1) };
}
