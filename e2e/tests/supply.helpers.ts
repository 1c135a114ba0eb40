import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { REPO_ROOT } from '../support/system';
import { DEMO_EVENT } from '../support/storefront';

/** Chooses the event in the photographer's supply screens' event picker (the partner may be approved for several). */
export async function pickSupplyEvent(page: Page, eventName = DEMO_EVENT): Promise<void> {
  const picker = page.getByTestId('supply-event');
  await expect(picker).toBeVisible();
  await picker.click();
  await page
    .locator('.ant-select-item-option')
    .filter({ hasText: new RegExp(`^${eventName}$`) })
    .click();
  await expect(picker).toContainText(eventName);
}

/**
 * Writes camera-like photos of an event (the main one by default) into folder, one per BIB ("-": a runner whose BIB cannot
 * be read), made by the same generator the seed and the benchmark use (api/src/cli/cameraPhotos.ts).
 */
export function writeCameraPhotos(
  folder: string,
  bibs: string[],
  width: number,
  event: { code: string; name: string } = { code: 'MCM26', name: DEMO_EVENT },
): void {
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(REPO_ROOT, 'api', 'src', 'cli', 'cameraPhotos.ts'),
      folder,
      ...bibs,
      `--width=${width}`,
      `--event=${event.code}`,
      `--name=${event.name}`,
    ],
    {
      cwd: path.join(REPO_ROOT, 'api'),
      stdio: 'ignore',
    },
  );
}
