import { getInstance, satisfy } from '@module-federation/enhanced/runtime';
import { localStore, RELEASE_BUCKET_KEY, type RemoteName, type RuntimeConfig } from '@finishline/shared';

/** Which release of each remote this visitor runs: its manifest address and version. */
export interface ReleaseChoice {
  remotes: Record<RemoteName, string>;
  versions: Record<RemoteName, string>;
}

/** The part of localStore kept values go through. */
export type KeptValues = Pick<typeof localStore, 'get' | 'set'>;

/** This browser's bucket (0-99), drawn once and kept; without storage a fresh one per page. */
export function visitorBucket(store: KeptValues = localStore): number {
  const kept = Number.parseInt(store.get(RELEASE_BUCKET_KEY) ?? '', 10);
  if (kept >= 0 && kept < 100) return kept;
  const drawn = Math.floor(Math.random() * 100);
  store.set(RELEASE_BUCKET_KEY, String(drawn));
  return drawn;
}

/** The version of the shared run-time contract this shell provides (null when the runtime does not say). */
export function providedContract(): string | null {
  const shared = getInstance()?.options.shared?.['@finishline/shared/runtime'];
  return shared?.[0]?.version ?? null;
}

/**
 * Gives this visitor each remote's canary when the bucket falls inside the canary's share and this
 * shell meets the canary's shared-contract range (never a canary the shell cannot serve), else the
 * current release. Nothing here is rebuilt for a release: it all comes from runtime-config.json.
 */
export function chooseReleases(config: RuntimeConfig, bucket: number, contract: string | null): ReleaseChoice {
  const remotes = { ...config.remotes };
  const versions = {} as Record<RemoteName, string>;
  for (const name of Object.keys(remotes) as RemoteName[]) {
    const release = config.releases?.[name];
    const canary = release?.canary;
    const servable = canary && (!canary.sharedRange || (contract !== null && satisfy(contract, canary.sharedRange)));
    if (canary && servable && bucket < canary.share) {
      remotes[name] = canary.manifestUrl;
      versions[name] = canary.version;
    } else {
      versions[name] = release?.version ?? 'initial';
    }
  }
  return { remotes, versions };
}
