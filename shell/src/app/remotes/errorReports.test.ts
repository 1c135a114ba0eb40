import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { setRuntimeConfig, type ClientReport } from '@finishline/shared';
import { flushReports, reportRemote, startReporting } from './errorReports';

const versions = { storefront: 'v2', account: 'v1', partner: 'initial', organiser: 'initial', certificate: 'initial' };
const remotes = {
  storefront: 'http://localhost:3001/releases/v2/mf-manifest.json',
  account: 'http://localhost:3002/releases/v1/mf-manifest.json',
  partner: 'http://localhost:3003/mf-manifest.json',
  organiser: 'http://localhost:3004/mf-manifest.json',
  certificate: 'http://localhost:3005/mf-manifest.json',
};

describe("the shell's reports of its remotes", () => {
  let sent: Array<{ url: string; reports: ClientReport[] }>;
  let kept: Map<string, string>;

  beforeEach(() => {
    jest.useFakeTimers();
    setRuntimeConfig({ apiBaseUrl: 'http://api.test' });
    sent = [];
    kept = new Map();
    const store = { get: (k: string) => kept.get(k) ?? null, set: (k: string, v: string) => void kept.set(k, v) };
    startReporting(versions, remotes, { send: async (url, body) => void sent.push({ url, reports: JSON.parse(body).reports }), store });
    window.history.pushState({}, '', '/products?bib=98765&email=asha@example.com');
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('sends one batch a few seconds after the first report, like reports folded, with the version the visitor runs and no personal data', () => {
    reportRemote('view', 'storefront');
    reportRemote('view', 'storefront');
    reportRemote('render', 'storefront', 'TypeError: no photos for asha@example.com, call 9876543210');
    expect(sent).toHaveLength(0);
    jest.advanceTimersByTime(5000);
    expect(sent).toEqual([
      {
        url: 'http://api.test/api/client-reports',
        reports: [
          { kind: 'view', remote: 'storefront', version: 'v2', route: '/products', message: '', count: 2 },
          { kind: 'render', remote: 'storefront', version: 'v2', route: '/products', message: 'TypeError: no photos for [email], call [number]', count: 1 },
        ],
      },
    ]);
  });

  it('sends at most 6 batches a minute from one browser; the rest waits for the next minute', () => {
    const now = Date.now();
    for (let i = 0; i < 8; i++) {
      reportRemote('load', 'account', `failure ${i}`);
      flushReports(now);
    }
    expect(sent).toHaveLength(6);
    flushReports(now + 60_000);
    expect(sent).toHaveLength(7);
    expect(sent[6].reports.map((r) => r.message)).toEqual(['failure 6', 'failure 7']);
  });

  it('what waits for the limit when the page goes away is sent by the next page of the browser, folded', async () => {
    const now = Date.now();
    for (let i = 0; i < 6; i++) {
      reportRemote('view', 'storefront');
      flushReports(now);
    }
    expect(sent).toHaveLength(6);
    // Two more page loads within the minute: their views and the error wait, and the page goes away.
    reportRemote('view', 'storefront');
    reportRemote('view', 'storefront');
    reportRemote('render', 'storefront', 'boom');
    flushReports(now);
    expect(sent).toHaveLength(6);
    // The next page of this browser (the module loaded afresh, the same local storage), in the next minute.
    const store = { get: (k: string) => kept.get(k) ?? null, set: (k: string, v: string) => void kept.set(k, v) };
    const nextPage = async () =>
      jest.isolateModulesAsync(async () => {
        (await import('@finishline/shared')).setRuntimeConfig({ apiBaseUrl: 'http://api.test' });
        (await import('./errorReports')).startReporting(versions, remotes, {
          send: async (url, body) => void sent.push({ url, reports: JSON.parse(body).reports }),
          store,
        });
      });
    jest.clearAllTimers(); // the page is gone, and its timers with it
    jest.setSystemTime(now + 60_000);
    await nextPage();
    jest.advanceTimersByTime(10_000);
    expect(sent).toHaveLength(7);
    expect(sent[6].reports.map((r) => [r.kind, r.count])).toEqual([
      ['view', 2],
      ['render', 1],
    ]);
    // Sent once: a third page has nothing kept.
    await nextPage();
    jest.advanceTimersByTime(10_000);
    expect(sent).toHaveLength(7);
  });

  it('drops a batch quietly when the API does not answer', async () => {
    startReporting(versions, remotes, { send: () => Promise.reject(new TypeError('Failed to fetch')) });
    reportRemote('render', 'storefront', 'boom');
    expect(() => flushReports()).not.toThrow();
    await Promise.resolve();
  });
});
