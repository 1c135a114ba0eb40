import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createStore, Provider as JotaiProvider } from 'jotai';
import { App as AntdApp, ConfigProvider } from 'antd';
import { loadRuntimeConfig, setRuntimeConfig } from '@finishline/shared';
import { finishlineTheme } from '@finishline/shared/react';
import App from '../App';

/**
 * Runs this remote alone, without the shell: the same providers the shell gives (router, jotai
 * store, antd theme) around the remote's App. Config comes from a runtime-config.json beside the
 * harness if one is served, else from API_BASE_URL at build time, else the local defaults.
 */
async function start(): Promise<void> {
  try {
    await loadRuntimeConfig();
  } catch {
    setRuntimeConfig({ apiBaseUrl: __FINISHLINE_HARNESS_API_URL__ });
  }
  createRoot(document.getElementById('root') as HTMLElement).render(
    <ConfigProvider theme={finishlineTheme}>
      <AntdApp>
        <JotaiProvider store={createStore()}>
          <BrowserRouter>
            <App />
          </BrowserRouter>
        </JotaiProvider>
      </AntdApp>
    </ConfigProvider>,
  );
}

void start();
