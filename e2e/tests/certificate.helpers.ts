import { expect, type Locator, type Page } from '@playwright/test';

/** One row (event and BIB) of the certificate builder's search form, numbered from 1. */
export const row = (page: Page, n: number) => page.getByTestId('certificate-row').nth(n - 1);

/** The builder's row `field` set to this event (its dropdown option, by exact name). */
export async function chooseEventIn(page: Page, field: number, eventName: string): Promise<void> {
  await row(page, field).getByRole('combobox').click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: new RegExp(`^${eventName}$`) })
    .click();
}

/** A photo card of the builder's Process step cropped with the dialog's defaults (the centred square). */
export async function cropWithDefaults(page: Page, card: Locator): Promise<void> {
  await card.getByRole('button', { name: 'Crop & Resize' }).click();
  const dialog = page.getByRole('dialog', { name: 'Adjust Image' });
  await expect(dialog.locator('.ReactCrop__crop-selection')).toBeVisible();
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(card.getByText('Image Cropped & Saved Successfully!')).toBeVisible();
}
