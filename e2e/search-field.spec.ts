import { expect, test } from '@playwright/test';
import { sessionFile } from './support/demo';

/**
 * The search field's suggestions (spec 'Search': terms, brands, categories, products while typing, debounced) and
 * the result view switch. For page performance, the suggestion dropdown is only mounted while it is open
 * (a hidden one was positioned by floating-ui on every page load), and the list/grid switch is two toggle buttons.
 */
test.describe('Suchfeld und Ansicht (einkauf@)', () => {
  test.use({ storageState: sessionFile('buyer') });
  test.describe.configure({ timeout: 120_000 });

  test('Vorschläge erscheinen erst beim Tippen und führen per Tastatur zur Suche', async ({ page }) => {
    await page.goto('/suche');
    const field = page.getByRole('searchbox', { name: 'Suchbegriff' });
    await expect(field).toBeVisible();
    // Nothing of the dropdown exists before the field is used.
    await expect(page.getByTestId('search-suggestions')).toHaveCount(0);

    await field.fill('Thermo');
    const options = page.getByTestId('search-suggestions').getByRole('option');
    await expect(options.first()).toBeVisible({ timeout: 15_000 });
    await expect(field).toHaveAttribute('aria-controls', /.+/);

    const first = (await options.first().textContent()) ?? '';
    await field.press('ArrowDown');
    await field.press('Enter');
    await expect(page).toHaveURL(/\/suche\?term=/);
    expect(first.length).toBeGreaterThan(0);
    await expect(page.getByTestId('search-suggestions')).toHaveCount(0);
  });

  test('die Ansicht wechselt zwischen Liste und Kacheln', async ({ page }) => {
    await page.goto('/suche?term=Thermostat');
    await expect(page.getByTestId('search-results')).toBeVisible({ timeout: 45_000 });
    const view = page.getByRole('group', { name: 'Ansicht' });
    const list = view.getByRole('button', { name: 'Liste' });
    const grid = view.getByRole('button', { name: 'Kacheln' });
    await expect(list).toHaveAttribute('aria-pressed', 'true');
    await expect(grid).toHaveAttribute('aria-pressed', 'false');

    await grid.click();
    await expect(grid).toHaveAttribute('aria-pressed', 'true');
    await expect(list).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByTestId('search-results')).toBeVisible();
  });
});
