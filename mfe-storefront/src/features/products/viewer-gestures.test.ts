import { describe, expect, it } from '@jest/globals';
import { clampPan, doubleTapView, MAX_SCALE, pinchView, RESTING, swipeDirection, zoomBy } from './viewerGestures';

describe('the photo viewer gestures', () => {
  it('a sideways drag past 15% of the width (at most 60 px) is a swipe; taps and vertical drags are not', () => {
    expect(swipeDirection(-80, 5, 360)).toBe(1);
    expect(swipeDirection(80, 5, 360)).toBe(-1);
    expect(swipeDirection(-40, 0, 360)).toBe(0);
    expect(swipeDirection(-80, 70, 360)).toBe(0);
    expect(swipeDirection(-61, 0, 1200)).toBe(1);
  });

  it('a pinch zooms with the fingers’ spread, within 1x and 4x, keeping the point under the fingers', () => {
    const view = pinchView(RESTING, 100, { x: 50, y: 0 }, 200, { x: 50, y: 0 });
    expect(view.scale).toBe(2);
    expect(view.x + view.scale * 50).toBe(50);
    expect(pinchView(RESTING, 100, { x: 0, y: 0 }, 1000, { x: 0, y: 0 }).scale).toBe(MAX_SCALE);
    expect(pinchView(RESTING, 100, { x: 0, y: 0 }, 20, { x: 0, y: 0 }).scale).toBe(1);
  });

  it('a zoomed photo pans no further than its zoom made it larger', () => {
    expect(clampPan({ scale: 2, x: 500, y: -500 }, 360, 240)).toEqual({ scale: 2, x: 180, y: -120 });
    expect(clampPan({ scale: 1, x: 30, y: 0 }, 360, 240)).toEqual({ scale: 1, x: 0, y: 0 });
  });

  it('double tap zooms in on the tapped point and back out; the buttons zoom around the centre', () => {
    const zoomed = doubleTapView(RESTING, { x: 40, y: -20 });
    expect(zoomed).toEqual({ scale: 2, x: -40, y: 20 });
    expect(doubleTapView(zoomed, { x: 0, y: 0 })).toEqual(RESTING);
    expect(zoomBy(RESTING, 2).scale).toBe(2);
    expect(zoomBy({ scale: 2, x: 10, y: 0 }, 0.5)).toEqual(RESTING);
  });
});
