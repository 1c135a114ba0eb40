import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import { getRuntimeConfig, REMOTE_NAMES, type RemoteName, type RuntimeConfig } from '@finishline/shared';
import { sharedContractPlugin } from './sharedContractPlugin';
import { preloadedManifestPlugin } from './preloadedManifestPlugin';
import { markLoadFailure } from './errorReports';

/** What every remote exposes as './App': a component whose <Routes> hold that remote's pages. */
export interface RemoteAppModule {
  default: ComponentType;
}

/** Tells the federation runtime where each remote's manifest lives, as read from runtime-config.json. */
export function registerRemotesFromConfig(config: RuntimeConfig): void {
  // A remote built for a contract the shell cannot meet gets a message in its outlet (see the plugin).
  registerPlugins([sharedContractPlugin(), preloadedManifestPlugin()]);
  registerRemotes(REMOTE_NAMES.map((name) => ({ name, entry: config.remotes[name] })));
}

/**
 * Loads a remote's App. A retry (attempt > 0) registers the remote again with force, which drops
 * the runtime's cached failure so the manifest and entry are fetched anew.
 */
export async function loadRemoteApp(name: RemoteName, attempt: number): Promise<RemoteAppModule> {
  if (attempt > 0) {
    registerRemotes([{ name, entry: getRuntimeConfig().remotes[name] }], { force: true });
  }
  try {
    const loaded = await loadRemote<RemoteAppModule>(`${name}/App`);
    if (!loaded || typeof loaded.default !== 'function') {
      throw new Error(`The ${name} remote did not provide its App.`);
    }
    return loaded;
  } catch (error) {
    // The outlet's error boundary shows it and reports it as a load failure, not a render error.
    markLoadFailure(error);
    throw error;
  }
}
