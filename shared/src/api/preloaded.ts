import type { ApiEnvelope } from '../types/envelope';
import type { HomePageResult } from '../types/entities';
import type { ApiAnswer, RuntimeConfig } from '@finishline/shared/runtime';

/**
 * Requests the shell's page starts before any JavaScript file has arrived (build/firstRoutePreload.mjs
 * writes the inline script; its global name is FIRST_ROUTE_PRELOAD_GLOBAL there). Each is taken once
 * by the code that would otherwise fetch it; anything missing, failed or unexpected falls back to the
 * ordinary request, so a page without the script (a remote's own harness, an older shell) works as before.
 */
export interface FirstRoutePreloads {
  /** runtime-config.json, parsed. */
  config?: Promise<Partial<RuntimeConfig>>;
  /** The storefront's mf-manifest.json (given to the federation runtime as is). */
  manifest?: { url: string; response: Promise<Response> };
  /** GET /api/home from the configured API, parsed. */
  home?: Promise<unknown>;
  /** The same answer once it has arrived (set by the script when it paints the hero early). */
  homeAnswer?: unknown;
  /** GET /api/orders/purchase-notification (the header's marquee), on a storefront page. */
  notification?: Promise<unknown>;
  /** The same answer once it has arrived, so the header shows the marquee in its first render. */
  notificationAnswer?: unknown;
}

const GLOBAL = '__FINISHLINE_PRELOAD__';

/**
 * Hands out a preloaded request once (when `wanted` accepts it); later calls (a refresh, a retry)
 * get undefined and fetch anew.
 */
export function takePreloaded<K extends keyof FirstRoutePreloads>(
  key: K,
  wanted: (value: NonNullable<FirstRoutePreloads[K]>) => boolean = () => true,
): FirstRoutePreloads[K] | undefined {
  const preloads = (globalThis as { [GLOBAL]?: FirstRoutePreloads })[GLOBAL];
  const value = preloads?.[key];
  if (!preloads || value === undefined || !wanted(value as NonNullable<FirstRoutePreloads[K]>)) return undefined;
  delete preloads[key];
  return value;
}

function isSuccess(data: unknown): data is ApiEnvelope<unknown> {
  if (typeof data !== 'object' || data === null) return false;
  const envelope = data as Partial<ApiEnvelope<unknown>>;
  return envelope.StatusCode === 200 && envelope.HasError === false && 'result' in envelope;
}

/**
 * The home answer when it has already arrived, for a first render that shows the hero at once (the
 * page's early copy of it gives way only to a hero with its picture). Read without taking it: a
 * render may be thrown away and done again (React may render a tree and discard it), so the caller
 * forgets it in an effect, once its render is on screen (forgetArrivedHome).
 */
export function arrivedHome(): HomePageResult | null {
  const answer = (globalThis as { [GLOBAL]?: FirstRoutePreloads })[GLOBAL]?.homeAnswer;
  return isSuccess(answer) ? (answer.result as HomePageResult) : null;
}

/** After the arrived home answer has been shown: a later visit of the home page fetches anew. */
export function forgetArrivedHome(): void {
  takePreloaded('homeAnswer');
  takePreloaded('home');
}

/**
 * The purchase notification when the page's script has its answer already: the text, or null for
 * none; undefined when it has not arrived (or failed). The header's first render shows the marquee
 * from it, so the marquee does not push the page down later. Read without taking it, like
 * arrivedHome; the marquee's own request then takes the preload (preloadedOr) and forgets it.
 */
export function arrivedPurchaseNotification(): string | null | undefined {
  const answer = (globalThis as { [GLOBAL]?: FirstRoutePreloads })[GLOBAL]?.notificationAnswer;
  if (!isSuccess(answer)) return undefined;
  const text = (answer.result as { purchase_notification?: unknown } | null)?.purchase_notification;
  return typeof text === 'string' && text ? text : null;
}

/**
 * Settles once the page's early purchase-notification request has (at once on a page without one),
 * or after maxWaitMs, and never rejects. The shell waits for it before its first render: on a fast
 * connection its JavaScript can run before that answer has been read, and a header rendered without
 * the marquee pushes the page down when the marquee comes (and leaves no room for the early copy).
 */
export function purchaseNotificationSettled(maxWaitMs: number): Promise<void> {
  const pending = (globalThis as { [GLOBAL]?: FirstRoutePreloads })[GLOBAL]?.notification;
  if (!pending) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, maxWaitMs);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    pending.then(done, done);
  });
}

/**
 * The early copy the shell's page paints before any JavaScript has run (its element's id;
 * build/firstRoutePreload.mjs paints it, a Jest test keeps the two names equal): the hero on the home
 * page, the top of the page and the grid's first row on /products. It lies over the place where the
 * storefront renders the same, until the storefront shows its own picture (useReplacesFirstPaint) or
 * the page shows something else (another route, a remote that failed): then it is removed.
 */
export const FIRST_PAINT_ID = 'fl-first-paint';

export function removeFirstPaint(): void {
  document.getElementById(FIRST_PAINT_ID)?.remove();
}

/**
 * The preloaded answer of a GET when it succeeded, else the ordinary call (which also turns an error
 * into the ApiError the screens show).
 */
export async function preloadedOr<T>(key: 'home' | 'notification', call: () => Promise<ApiAnswer<T>>): Promise<ApiAnswer<T>> {
  const preloaded = takePreloaded(key);
  if (key === 'notification') takePreloaded('notificationAnswer');
  if (preloaded) {
    const data = await preloaded.catch(() => null);
    if (isSuccess(data)) return { result: data.result as T, message: data.Message, statusCode: data.StatusCode };
  }
  return call();
}
