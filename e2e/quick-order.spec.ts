import { expect, test, type Page } from '@playwright/test';
import { sessionFile } from './support/demo';
import { apiFromPage } from './support/relations';

/**
 * Schnellerfassung (issue 30): an ambiguous line shows no price before an offer is chosen; the offers show their
 * prices, the cheapest first; the file field is a drop zone with a German label. Only previews: no cart changes.
 */

/** A GTIN whose product the buyer can order from at least two suppliers (an ambiguous quick-order line). */
async function gtinWithTwoOffers(page: Page): Promise<string> {
  const search = await apiFromPage<{ hits: { rows: { PRODUCTINSTANCE_ID: string } }[] }>(
    page,
    'POST',
    '/v1/Product/Search',
    { page: 1, pageSize: 25, searchTerm: 'Thermostat', filter: [] },
  );
  expect(search.status).toBe(200);
  for (const hit of search.data.hits) {
    const details = await apiFromPage<{ offers: { productOrderableStatus: number; gtin: string | null }[] }>(
      page,
      'GET',
      `/v1/Product/Details?productInstanceId=${encodeURIComponent(hit.rows.PRODUCTINSTANCE_ID)}`,
    );
    const orderable = details.data?.offers?.filter((o) => o.productOrderableStatus === 1) ?? [];
    if (orderable.length >= 2 && orderable[0].gtin) return orderable[0].gtin;
  }
  throw new Error('kein Produkt mit zwei bestellbaren Angeboten unter den Treffern');
}

const germanNumber = (text: string) => Number(text.replaceAll('.', '').replace(',', '.'));
/** An offer label's price per unit: '… – 19,99 €' or '… – 125,00 € je 100'. */
function pricePerUnit(label: string): number {
  const price = /(\d{1,3}(?:\.\d{3})*,\d{2})\s€/.exec(label);
  if (!price) return Number.POSITIVE_INFINITY;
  const basis = / je ([\d.,]+)/.exec(label);
  return germanNumber(price[1]) / (basis ? germanNumber(basis[1]) : 1);
}

test.describe('Schnellerfassung (einkauf@example.com)', () => {
  test.use({ storageState: sessionFile('buyer') });

  test('eine mehrdeutige Zeile zeigt erst nach der Wahl des Angebots einen Preis; das günstigste steht oben', async ({
    page,
  }) => {
    await page.goto('/schnellerfassung');
    const gtin = await gtinWithTwoOffers(page);
    await page.getByLabel('Artikelnummern und Mengen').fill(`${gtin};1`);
    await page.getByRole('button', { name: 'Prüfen' }).click();
    const line = page.getByTestId('quick-order-line-1');
    await expect(line).toContainText('Mehrdeutig');
    await expect(line.getByTestId('quick-order-price')).toHaveText('–');

    const choice = line.getByLabel('Angebot für Zeile 1');
    await choice.click();
    const options = page.getByRole('option');
    await expect(options.nth(1)).toBeVisible();
    const labels = await options.allInnerTexts();
    const prices = labels.map(pricePerUnit);
    expect(
      labels.every((label) => /€/.test(label)),
      labels.join(' | '),
    ).toBe(true);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    await options.first().click();
    await expect(line.getByTestId('quick-order-price')).toHaveText(/\d+,\d{2}\s€/);
  });

  test('die Datei wird in einem Ablagefeld gewählt, nicht in einem Textfeld', async ({ page }) => {
    await page.goto('/schnellerfassung');
    await expect(page.getByText('Oder Datei hochladen (CSV, XLSX)')).toBeVisible();
    const zone = page.getByText('Artikelliste hierher ziehen oder klicken, um eine Datei auszuwählen');
    await expect(zone).toBeVisible();
    await expect(page.getByRole('textbox', { name: /Datei hochladen/ })).toHaveCount(0);
    await page.locator('input[type="file"]').setInputFiles({
      name: 'liste.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('GIBT-ES-NICHT;1\n'),
    });
    await expect(page.getByText('liste.csv')).toBeVisible();
    await expect(page.getByLabel('Artikelnummern und Mengen')).toBeDisabled();
    await page.getByRole('button', { name: 'Prüfen' }).click();
    await expect(page.getByTestId('quick-order-line-1')).toContainText('GIBT-ES-NICHT');
  });
});
