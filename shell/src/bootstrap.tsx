import { createRoot } from 'react-dom/client';
import { loadRuntimeConfig, purchaseNotificationSettled, setRuntimeConfig, takePreloaded } from '@finishline/shared';
import { registerRemotesFromConfig } from './app/remotes/federation';
import { chooseReleases, providedContract, visitorBucket } from './app/remotes/releaseChoice';
import { startReporting } from './app/remotes/errorReports';
import { ShellApp } from './app/ShellApp';

/** How long the first render waits for the purchase notification the page requested early. */
const NOTIFICATION_WAIT_MS = 1000;

async function start(): Promise<void> {
  let config;
  try {
    // The page's inline script has usually fetched it already, while this file was downloading.
    const preloaded = await takePreloaded('config')?.catch(() => undefined);
    config = preloaded ? setRuntimeConfig(preloaded) : await loadRuntimeConfig();
  } catch (error) {
    // Without the document the shell still runs on the defaults (local development ports).
    console.warn('runtime-config.json could not be read; using defaults.', error);
    config = setRuntimeConfig({});
  }
  // A canary release goes to its share of visitors (this browser's kept bucket decides), the rest keep the current one.
  const choice = chooseReleases(config, visitorBucket(), providedContract());
  config = setRuntimeConfig({ ...config, remotes: choice.remotes });
  startReporting(choice.versions, choice.remotes);
  registerRemotesFromConfig(config);
  // The header's first render shows the purchase marquee when there is one (the page asked for it
  // before this file arrived); a slow API delays the header by at most this long, never the page's early copy.
  await purchaseNotificationSettled(NOTIFICATION_WAIT_MS);
  createRoot(document.getElementById('root') as HTMLElement).render(<ShellApp />);
}

void start();
