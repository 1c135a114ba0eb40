import { describe, expect, it } from '@jest/globals';
import { RELEASE_BUCKET_KEY, setRuntimeConfig } from '@finishline/shared';
import { chooseReleases, visitorBucket } from './releaseChoice';

const CURRENT = 'http://localhost:3001/releases/v1/mf-manifest.json';
const CANARY = 'http://localhost:3001/releases/v2/mf-manifest.json';
const config = (sharedRange: string | null) =>
  setRuntimeConfig({
    remotes: { storefront: CURRENT } as never,
    releases: { storefront: { version: 'v1', canary: { version: 'v2', manifestUrl: CANARY, share: 50, sharedRange } } },
  });

describe('which release of a remote a visitor gets', () => {
  it('gives the canary to buckets inside its share and the current release to the rest', () => {
    expect(chooseReleases(config('^1.4.0'), 49, '1.4.2')).toMatchObject({
      remotes: { storefront: CANARY },
      versions: { storefront: 'v2', account: 'initial' },
    });
    expect(chooseReleases(config('^1.4.0'), 50, '1.4.2')).toMatchObject({ remotes: { storefront: CURRENT }, versions: { storefront: 'v1' } });
  });

  it('never gives a canary whose shared-contract range this shell cannot meet', () => {
    expect(chooseReleases(config('^2.0.0'), 0, '1.4.2')).toMatchObject({ remotes: { storefront: CURRENT }, versions: { storefront: 'v1' } });
    expect(chooseReleases(config('^1.5.0'), 0, '1.4.2').versions.storefront).toBe('v1');
    expect(chooseReleases(config('^1.4.0'), 0, null).versions.storefront).toBe('v1');
  });

  it('keeps the browser on its side: the bucket is drawn once and kept', () => {
    const kept = new Map<string, string>();
    const store = { get: (k: string) => kept.get(k) ?? null, set: (k: string, v: string) => void kept.set(k, v) };
    const first = visitorBucket(store);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(100);
    for (let i = 0; i < 20; i++) expect(visitorBucket(store)).toBe(first);
    expect(kept.get(RELEASE_BUCKET_KEY)).toBe(String(first));
  });
});
