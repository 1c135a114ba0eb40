import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { takePreloaded } from '@finishline/shared';

/**
 * Federation runtime plugin: the first request for the manifest the page's inline script fetched
 * while the shell's files were downloading (build/firstRoutePreload.mjs) gets that answer; if it
 * failed, the manifest is fetched as the runtime would. Other manifests and later requests (a retry)
 * are left to the runtime.
 */
export function preloadedManifestPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'finishline-preloaded-manifest',
    fetch(url, init) {
      const preloaded = takePreloaded('manifest', (candidate) => candidate.url === url);
      if (!preloaded) return undefined;
      return preloaded.response.then(
        (response) => (response.ok ? response : fetch(url, init)),
        () => fetch(url, init),
      );
    },
  };
}
