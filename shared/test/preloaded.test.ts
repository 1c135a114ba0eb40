import { afterEach, describe, expect, test } from '@jest/globals';
import {
  arrivedHome,
  arrivedPurchaseNotification,
  forgetArrivedHome,
  preloadedOr,
  purchaseNotificationSettled,
  takePreloaded,
  type FirstRoutePreloads,
} from '../src/api/preloaded';

const page = globalThis as { __FINISHLINE_PRELOAD__?: FirstRoutePreloads };
const fetched = (label: string) => async () => ({ result: label, message: 'fetched', statusCode: 200 });

afterEach(() => {
  delete page.__FINISHLINE_PRELOAD__;
});

describe('requests the shell’s page started before the JavaScript', () => {
  test('the home data is taken once; the next call (a refresh) fetches', async () => {
    page.__FINISHLINE_PRELOAD__ = { home: Promise.resolve({ StatusCode: 200, HasError: false, Message: 'ok', result: 'preloaded' }) };
    expect(await preloadedOr('home', fetched('first call'))).toEqual({ result: 'preloaded', message: 'ok', statusCode: 200 });
    expect(await preloadedOr('home', fetched('second call'))).toEqual({ result: 'second call', message: 'fetched', statusCode: 200 });
  });

  test('a failed or unsuccessful preload falls back to the ordinary call, which reports the error', async () => {
    page.__FINISHLINE_PRELOAD__ = { home: Promise.reject(new Error('HTTP 500')) };
    expect((await preloadedOr('home', fetched('after a failure'))).result).toBe('after a failure');
    page.__FINISHLINE_PRELOAD__ = { home: Promise.resolve({ StatusCode: 500, HasError: true, Message: 'down', result: null }) };
    expect((await preloadedOr('home', fetched('after an error answer'))).result).toBe('after an error answer');
  });

  test('a home answer that has arrived is read as often as a render asks, until it is forgotten; then a call fetches', async () => {
    const answer = { StatusCode: 200, HasError: false, Message: 'ok', result: { hero_image: { image: 'h.jpg', alt: '' } } };
    page.__FINISHLINE_PRELOAD__ = { home: Promise.resolve(answer), homeAnswer: answer };
    expect(arrivedHome()).toEqual(answer.result);
    expect(arrivedHome()).toEqual(answer.result); // a render thrown away and done again
    forgetArrivedHome();
    expect(arrivedHome()).toBeNull();
    expect((await preloadedOr('home', fetched('fetched again'))).result).toBe('fetched again');
    page.__FINISHLINE_PRELOAD__ = { homeAnswer: { StatusCode: 500, HasError: true, Message: 'down', result: null } };
    expect(arrivedHome()).toBeNull();
  });

  test('the purchase notification that has arrived is shown by the first render; the marquee’s request takes it once', async () => {
    const answer = { StatusCode: 200, HasError: false, Message: 'ok', result: { purchase_notification: 'A runner just bought photos of X' } };
    page.__FINISHLINE_PRELOAD__ = { notification: Promise.resolve(answer), notificationAnswer: answer };
    expect(arrivedPurchaseNotification()).toBe('A runner just bought photos of X');
    expect((await preloadedOr('notification', fetched('not fetched'))).result).toEqual(answer.result);
    // Taken: a later header (another mount) asks the server again.
    expect(arrivedPurchaseNotification()).toBeUndefined();
    expect((await preloadedOr('notification', fetched('fetched again'))).result).toBe('fetched again');
    // None to show, not arrived yet, or failed: null for none, undefined for unknown.
    page.__FINISHLINE_PRELOAD__ = { notificationAnswer: { ...answer, result: { purchase_notification: null } } };
    expect(arrivedPurchaseNotification()).toBeNull();
    page.__FINISHLINE_PRELOAD__ = { notificationAnswer: { StatusCode: 500, HasError: true, Message: 'down', result: null } };
    expect(arrivedPurchaseNotification()).toBeUndefined();
    page.__FINISHLINE_PRELOAD__ = {};
    expect(arrivedPurchaseNotification()).toBeUndefined();
  });

  test('the first render waits for the early notification request: until it settles, failed or not, or the time is up', async () => {
    const order: string[] = [];
    let answer!: (value: unknown) => void;
    const notification = new Promise((resolve) => (answer = resolve));
    // The page's script reads the answer first (its handler was attached before the shell's file ran).
    void notification.then(() => order.push('page script read the answer'));
    page.__FINISHLINE_PRELOAD__ = { notification };
    const settled = purchaseNotificationSettled(60_000).then(() => order.push('shell renders'));
    await Promise.resolve();
    expect(order).toEqual([]);
    answer({ StatusCode: 200, HasError: false, Message: 'ok', result: { purchase_notification: null } });
    await settled;
    expect(order).toEqual(['page script read the answer', 'shell renders']);

    page.__FINISHLINE_PRELOAD__ = { notification: Promise.reject(new Error('HTTP 500')) };
    await expect(purchaseNotificationSettled(60_000)).resolves.toBeUndefined();
    page.__FINISHLINE_PRELOAD__ = { notification: new Promise(() => undefined) }; // an API that never answers
    const started = Date.now();
    await purchaseNotificationSettled(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    delete page.__FINISHLINE_PRELOAD__;
    await expect(purchaseNotificationSettled(60_000)).resolves.toBeUndefined(); // no early request: at once
  });

  test('without the page’s script everything is fetched as before', async () => {
    expect(takePreloaded('config')).toBeUndefined();
    expect((await preloadedOr('home', fetched('plain'))).result).toBe('plain');
  });

  test('a preload is taken only by the request it was made for', () => {
    const manifest = { url: 'http://storefront.example/mf-manifest.json', response: Promise.resolve(new Response('{}')) };
    page.__FINISHLINE_PRELOAD__ = { manifest };
    expect(takePreloaded('manifest', (m) => m.url === 'http://account.example/mf-manifest.json')).toBeUndefined();
    expect(takePreloaded('manifest', (m) => m.url === manifest.url)).toBe(manifest);
    expect(takePreloaded('manifest')).toBeUndefined();
  });
});
