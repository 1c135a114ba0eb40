import type { ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createStore, Provider as JotaiProvider } from 'jotai';
import { loadRuntimeConfig, setRuntimeConfig } from '@finishline/shared/runtime';
import { AntdRoot } from './AntdRoot';

/**
 * Runs a remote alone, without the shell: the same providers the shell gives (router, jotai store,
 * antd theme) around the remote's App. Config comes from a runtime-config.json beside the harness if
 * one is served, else from the API address the build was given, else the local defaults.
 */
export async function mountStandalone(App: ComponentType, fallbackApiUrl: string): Promise<void> {
  try {
    await loadRuntimeConfig();
  } catch {
    setRuntimeConfig({ apiBaseUrl: fallbackApiUrl });
  }
  const store = createStore();
  function Harness() {
    return (
      <AntdRoot>
        <JotaiProvider store={store}>
          <BrowserRouter>
            <App />
          </BrowserRouter>
        </JotaiProvider>
      </AntdRoot>
    );
  }
  createRoot(document.getElementById('root') as HTMLElement).render(<Harness />);
}
