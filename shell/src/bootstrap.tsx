import { createRoot } from 'react-dom/client';
import { loadRuntimeConfig, setRuntimeConfig, takePreloaded } from '@finishline/shared';
import { registerRemotesFromConfig } from './app/remotes/federation';
import { ShellApp } from './app/ShellApp';

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
  registerRemotesFromConfig(config);
  createRoot(document.getElementById('root') as HTMLElement).render(<ShellApp />);
}

void start();
