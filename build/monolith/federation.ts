/**
 * The monolithic comparison build's stand-in for shell/src/app/remotes/federation.ts (swapped in by
 * build/monolith/webpack.config.mjs): the same exports, but each remote's App is imported from its
 * source behind an ordinary `import()`, as a single-page app without Module Federation would split
 * its sections. The chunk names are what scripts/bench-bytes.mjs looks the routes' files up by.
 */
import type { ComponentType } from 'react';
import type { RemoteName, RuntimeConfig } from '@finishline/shared';

export const REMOTE_NAMES: readonly RemoteName[] = ['storefront', 'account', 'partner', 'organiser', 'certificate'];

export interface RemoteAppModule {
  default: ComponentType;
}

const IMPORTS: Record<RemoteName, () => Promise<RemoteAppModule>> = {
  storefront: () => import(/* webpackChunkName: "storefront" */ '../../mfe-storefront/src/App'),
  account: () => import(/* webpackChunkName: "account" */ '../../mfe-account/src/App'),
  partner: () => import(/* webpackChunkName: "partner" */ '../../mfe-partner/src/App'),
  organiser: () => import(/* webpackChunkName: "organiser" */ '../../mfe-organiser/src/App'),
  certificate: () => import(/* webpackChunkName: "certificate" */ '../../mfe-certificate/src/App'),
};

/** Nothing to register: every App is part of this build. */
export function registerRemotesFromConfig(_config: RuntimeConfig): void {}

export async function loadRemoteApp(name: RemoteName, _attempt: number): Promise<RemoteAppModule> {
  const loaded = await IMPORTS[name]();
  if (typeof loaded.default !== 'function') throw new Error(`The ${name} section did not provide its App.`);
  return loaded;
}
