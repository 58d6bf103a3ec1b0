import { expect, test, type Page } from '@playwright/test';
import { sessionFile } from './support/demo';
import { apiFromPage } from './support/relations';

/**
 * The search as users expect it: sorting by price, a price slider that follows the result, one supplier facet,
 * first and last page, and a corrected typo that gives the corrected word's results under the user's spelling.
 */

const RESULT = { timeout: 45_000 };
const PRICE = 'mhk_handelsdaten_preis';

const cards = (page: Page) => page.getByTestId('search-results').getByTestId('product-card');
const completeResults = (page: Page) =>
  expect(page.getByTestId('search-results')).not.toHaveAttribute('aria-busy', 'true', RESULT);
/** The names of all cards of the result page (the list renders its first cards at once, the rest while idle). */
const cardNames = async (page: Page) => {
  await completeResults(page);
  return cards(page).getByTestId('card-name').allTextContents();
};
const hitCountOf = async (page: Page) =>
  Number(
    ((await page.getByTestId('hit-count').textContent()) ?? '')
      .replace(/Treffer[\s\S]*/, '')
      .replace(/\./g, '')
      .trim(),
  );
/** German number in a text ('1.234,5') → 1234.5 */
const germanNumber = (text: string) => Number(text.replace(/\./g, '').replace(',', '.'));

interface SearchAnswer {
  hits: { rows: { artikelbeschreibung: string } }[];
  hitCount: number;
  pageCount: number;
  filterOption: { columnName: string; sliderValues: { minValue: number; maxValue: number } | null }[];
}
const searchApi = (page: Page, body: Record<string, unknown>) =>
  apiFromPage<SearchAnswer>(page, 'POST', '/v1/Product/Search', { page: 1, pageSize: 25, ...body });

test.describe('Suche für Einkäufer', () => {
  test.use({ storageState: sessionFile('buyer') });
  test.describe.configure({ timeout: 120_000 });

  test('sortiert nach Preis, der Preisregler folgt dem Ergebnis, erste und letzte Seite', async ({ page }) => {
    await page.goto('/suche?term=Heizk%C3%B6rper&page=1');
    await expect(cards(page).first()).toBeVisible(RESULT);

    // One supplier facet: 'Lieferant', no second list of the same suppliers as 'Großhändler'.
    const panel = page.getByTestId('filter-panel');
    await expect(panel.getByRole('button', { name: 'Lieferant', exact: true })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Großhändler' })).toHaveCount(0);

    // Sorting by price, both directions: the cards are the API's price order.
    const sort = page.getByRole('combobox', { name: 'Sortierung' });
    for (const [label, order] of [
      ['Preis aufsteigend', 'asc'],
      ['Preis absteigend', 'desc'],
    ] as const) {
      await sort.selectOption({ label });
      await expect(page).toHaveURL(
        (url) => url.searchParams.get('sortColumn') === PRICE && url.searchParams.get('sortOrder') === order,
      );
      const expected = await searchApi(page, { searchTerm: 'Heizkörper', sortColumn: PRICE, sortOrder: order });
      await expect.poll(() => cardNames(page)).toEqual(expected.data.hits.map((h) => h.rows.artikelbeschreibung));
    }

    // The price slider's range follows a chosen facet (here: a brand), not the whole catalogue.
    const slider = page.getByTestId(`slider-${PRICE}`);
    const rangeText = async () => (await slider.getByText(/^Bereich:/).textContent()) ?? '';
    await expect(slider).toBeVisible();
    const before = await rangeText();
    const brandSection = panel.locator('[data-column="brandname"]');
    const brandBox = brandSection.getByRole('checkbox').last();
    const brand = (await brandSection.locator('label').last().textContent()) ?? '';
    await brandBox.click();
    await expect(page.getByTestId('active-filter')).toHaveCount(1);
    await expect.poll(rangeText).not.toBe(before);
    const filter = JSON.parse(
      Buffer.from(new URL(page.url()).searchParams.get('filters') ?? '', 'base64').toString('utf8'),
    );
    const narrowed = await searchApi(page, { searchTerm: 'Heizkörper', filter });
    const range = narrowed.data.filterOption.find((o) => o.columnName === PRICE)!.sliderValues!;
    const [low, high] = [...(await rangeText()).matchAll(/([\d.]+(?:,\d+)?)/g)].map((m) => germanNumber(m[1]));
    expect({ low, high }, brand).toEqual({ low: Math.floor(range.minValue), high: Math.ceil(range.maxValue) });

    // First and last page.
    await page.goto('/suche?term=Ventil&page=1');
    await expect(cards(page).first()).toBeVisible(RESULT);
    const pagination = page.getByTestId('pagination');
    const last = pagination.getByRole('link', { name: /^Letzte Seite/ });
    const { pageCount } = (await searchApi(page, { searchTerm: 'Ventil' })).data;
    expect(pageCount).toBeGreaterThan(5);
    await expect(last).toHaveAccessibleName(`Letzte Seite (${Math.min(pageCount, 100)})`);
    await last.click();
    await expect(page).toHaveURL((url) => url.searchParams.get('page') === String(Math.min(pageCount, 100)));
    await expect(pagination.getByRole('link', { name: `Seite ${Math.min(pageCount, 100)}` })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await pagination.getByRole('link', { name: 'Erste Seite' }).click();
    await expect(page).toHaveURL((url) => url.searchParams.get('page') === '1');
    await expect(pagination.getByRole('link', { name: 'Seite 1', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('ein korrigierter Tippfehler zeigt die Treffer des richtigen Worts und die eigene Schreibweise', async ({
    page,
  }) => {
    await page.goto('/suche?term=Thermostat&page=1');
    await expect(cards(page).first()).toBeVisible(RESULT);
    const right = await hitCountOf(page);
    const rightNames = await cardNames(page);

    await page.goto('/suche?term=Thermostt&page=1');
    await expect(cards(page).first()).toBeVisible(RESULT);
    await expect(page.getByTestId('corrected-terms')).toHaveText('Ergebnisse für „Thermostat“ statt „Thermostt“');
    await expect(page.getByTestId('hit-count')).toContainText('für „Thermostt“');
    expect(await hitCountOf(page)).toBe(right);
    expect(await cardNames(page)).toEqual(rightNames);
  });
});

test.describe('Suche für Verkäufer', () => {
  test.use({ storageState: sessionFile('seller') });

  test('bietet keine Sortierung nach Preis an (nur die eigenen Preise sind sichtbar)', async ({ page }) => {
    await page.goto(`/suche?term=Ventil&page=1&sortColumn=${PRICE}&sortOrder=asc`);
    await expect(cards(page).first()).toBeVisible(RESULT);
    const sort = page.getByRole('combobox', { name: 'Sortierung' });
    await expect(sort).toHaveValue('recommended');
    await expect(sort.locator('option')).toHaveText(['Empfohlen', 'Name A–Z', 'Name Z–A']);
    await expect(page.getByTestId('search-error')).toHaveCount(0);
  });
});
