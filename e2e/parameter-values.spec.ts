import { expect, test } from '@playwright/test';
import { sessionFile } from './support/demo';

/** The custom-parameter value list starts at 2024-01-01 (seller-staff-side.md §9); read only. */
test.describe('Zugeschnittene Parameter (admin@example.com)', () => {
  test.use({ storageState: sessionFile('admin') });

  test('die Werteliste eines Parameters beginnt am 01.01.2024', async ({ page }) => {
    await page.goto('/parameter/KitchenConfiguratorClientSecret');
    const from = page.getByLabel('Gültig ab');
    await expect(from).toHaveValue('01.01.2024');
    await expect(page.getByTestId('parameter-values')).toBeVisible();
  });
});
