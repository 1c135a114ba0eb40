import { createRoot } from 'react-dom/client';
import { loadRuntimeConfig, setRuntimeConfig } from '@finishline/shared';
import { registerRemotesFromConfig } from './app/remotes/federation';
import { ShellApp } from './app/ShellApp';

async function start(): Promise<void> {
  let config;
  try {
    config = await loadRuntimeConfig();
  } catch (error) {
    // Without the document the shell still runs on the defaults (local development ports).
    console.warn('runtime-config.json could not be read; using defaults.', error);
    config = setRuntimeConfig({});
  }
  registerRemotesFromConfig(config);
  createRoot(document.getElementById('root') as HTMLElement).render(<ShellApp />);
}

void start();
