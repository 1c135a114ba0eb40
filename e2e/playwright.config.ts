import { defineConfig } from '@playwright/test';
import { ARTIFACTS_DIR, PORT_OFFSET, SHELL_URL } from './support/system';

/**
 * Journeys against the whole running system (see support/global-setup.ts) in Debian's Chromium.
 * One worker: the machine has two cores and the independence tests stop and restart servers.
 */
export default defineConfig({
  testDir: './tests',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  globalSetup: './support/global-setup.ts',
  // Journeys tagged @long (the finish-line video: filming, uploading, cutting and buying, 4 to 6
  // minutes) run by `pnpm test:e2e:long`, not in `pnpm test`, whose journeys must end within CI's time.
  grepInvert: process.env.E2E_LONG === '1' ? undefined : /@long/,
  // Per port offset, so two runs side by side (different E2E_PORT_OFFSET) keep their own traces.
  outputDir: `${ARTIFACTS_DIR}/test-results-${PORT_OFFSET}`,
  reporter: [['list']],
  use: {
    baseURL: SHELL_URL,
    // A returning visitor: cookie consent given and the pre-order popup seen, so no dialog covers the
    // page. The first-visit journey (accounts-shell-pages.spec.ts) starts from an empty browser instead.
    storageState: {
      cookies: [],
      origins: [
        {
          origin: SHELL_URL,
          localStorage: [
            { name: 'Cookies', value: 'true' },
            { name: 'preOrderPopupShown', value: 'true' },
          ],
        },
      ],
    },
    // Dialogs and drawers open without their zoom animation (the shell honours the system setting),
    // so a click never lands on a button that is still moving under a busy machine.
    reducedMotion: 'reduce',
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
