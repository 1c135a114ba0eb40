/**
 * Run-time configuration, read by the browser from a JSON document served beside the shell
 * (`/runtime-config.json`). Nothing here is baked into a build, so each deployment can change
 * the API address or move a remote without rebuilding anything.
 */
export type RemoteName = 'storefront' | 'account' | 'partner' | 'organiser' | 'certificate';

/**
 * A remote's releases as `pnpm release` wrote them: the version `remotes` points at, and a canary
 * (another version given to `share` percent of visitors, each browser keeping its side).
 */
export interface RemoteReleaseState {
  version: string;
  canary?: {
    version: string;
    manifestUrl: string;
    /** Percent of visitors, 1 to 99. */
    share: number;
    /** The range of the shared run-time contract the canary needs; a shell that cannot meet it never serves it. */
    sharedRange: string | null;
  };
}

export interface RuntimeConfig {
  apiBaseUrl: string;
  /** Where each remote's mf-manifest.json lives (the current release of each). */
  remotes: Record<RemoteName, string>;
  /** Remotes released with `pnpm release`: their current version and canary. Missing: the build it started with. */
  releases?: Partial<Record<RemoteName, RemoteReleaseState>>;
  eventsSiteUrl: string;
  supportEmail: string;
  whatsappNumber: string;
  googleClientId: string | null;
  /** The pre-order popup is shown until this date (YYYY-MM-DD). */
  preorderPopupUntil: string;
  preorderPopupEventId: number | null;
}

export const RUNTIME_CONFIG_PATH = '/runtime-config.json';

const DEFAULTS: RuntimeConfig = {
  apiBaseUrl: 'http://localhost:4000',
  remotes: {
    storefront: 'http://localhost:3001/mf-manifest.json',
    account: 'http://localhost:3002/mf-manifest.json',
    partner: 'http://localhost:3003/mf-manifest.json',
    organiser: 'http://localhost:3004/mf-manifest.json',
    certificate: 'http://localhost:3005/mf-manifest.json',
  },
  eventsSiteUrl: 'https://www.indiarunning.com/',
  supportEmail: 'support@finishline.example',
  whatsappNumber: '+919800000000',
  googleClientId: null,
  preorderPopupUntil: '2027-01-17',
  preorderPopupEventId: null,
};

let current: RuntimeConfig = DEFAULTS;

/** Set by the shell once it has fetched the document; remotes only read it. */
export function setRuntimeConfig(config: Partial<RuntimeConfig>): RuntimeConfig {
  current = { ...DEFAULTS, ...config, remotes: { ...DEFAULTS.remotes, ...(config.remotes ?? {}) } };
  const w = globalThis as { __FINISHLINE_CONFIG__?: RuntimeConfig };
  w.__FINISHLINE_CONFIG__ = current;
  return current;
}

export function getRuntimeConfig(): RuntimeConfig {
  const w = globalThis as { __FINISHLINE_CONFIG__?: RuntimeConfig };
  return w.__FINISHLINE_CONFIG__ ?? current;
}

export async function loadRuntimeConfig(url = RUNTIME_CONFIG_PATH): Promise<RuntimeConfig> {
  const response = await fetch(url, { cache: 'no-store' });
  if (!response.ok) throw new Error(`Could not load ${url}: HTTP ${response.status}`);
  return setRuntimeConfig((await response.json()) as Partial<RuntimeConfig>);
}
