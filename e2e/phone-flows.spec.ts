import { expect, test, type Page } from '@playwright/test';
import { sessionFile } from './support/demo';
import { layoutProblems } from './support/layout-check';
import { apiFromPage } from './support/relations';
import { settle } from './support/route-tour';

/**
 * The buyer's flows on a 360 px phone with real content: a cart of several articles (the order bar stays on
 * screen), the order detail after ordering, the quick order's preview, and search with compact result cards.
 */
test.use({ viewport: { width: 360, height: 780 }, storageState: sessionFile('buyer') });
test.setTimeout(180_000);

interface SearchHit {
  productId: string;
  productOrderableStatus: number;
  rows: { PRODUCTINSTANCE_ID: string; supplierID: string };
}

/** Orderable offers of the buyer's supplier Nordbad (200001), straight from the search API. */
async function nordbadOffers(page: Page, count: number): Promise<SearchHit[]> {
  const result = await apiFromPage<{ hits: SearchHit[] }>(page, 'POST', '/v1/Product/Search', {
    page: 1,
    pageSize: 25,
    searchTerm: '',
    filter: [{ columnName: 'supplierID', filterType: 'Auswahl', filterValue: [{ value: '200001' }] }],
  });
  expect(result.status).toBe(200);
  return result.data.hits.filter((hit) => hit.rows.supplierID === '200001').slice(0, count);
}

async function expectFits(page: Page, what: string) {
  expect(await layoutProblems(page), what).toEqual([]);
}

test('Warenkorb mit Bestellleiste, Bestellung und Bestelldetail passen auf 360 px', async ({ page }) => {
  await page.goto('/');
  await settle(page);
  const cart = await apiFromPage<{ id: number }>(page, 'POST', '/v1/MultiCarts', { name: `Telefon ${Date.now()}` });
  expect(cart.status).toBeLessThan(300);
  const cartId = cart.data.id;
  try {
    for (const hit of await nordbadOffers(page, 3)) {
      const added = await apiFromPage(page, 'POST', '/v1/CartItems', {
        productInstanceId: hit.rows.PRODUCTINSTANCE_ID,
        quantity: 2,
        cartId,
        supplierBusinessPartnerNo: '200001',
      });
      expect(added.status).toBe(201);
    }

    await page.goto(`/warenkorb/${cartId}`);
    await settle(page);
    await expectFits(page, 'Warenkorb');
    // 'Bestellen' is on screen at the top of a long cart and after scrolling, without scrolling to the summary.
    const bar = page.getByTestId('order-bar');
    const orderButton = bar.getByRole('button', { name: 'Bestellen', exact: true });
    await expect(orderButton).toBeInViewport();
    await page.mouse.wheel(0, 1200);
    await expect(orderButton).toBeInViewport();
    await expect(bar).toContainText('Gesamtsumme (netto)');

    await orderButton.click();
    const dialog = page.getByRole('dialog', { name: 'Bestellung absenden' });
    await dialog.getByRole('button', { name: 'Akzeptieren und Bestellen' }).click();
    await expect(page.getByTestId('thank-you')).toContainText('Vielen Dank für Ihre Bestellung!');
    await settle(page);
    await expectFits(page, 'Bestelldetail');
    await expect(page.getByTestId('toasts').locator('.mantine-Notification-root')).toHaveCount(1);
  } finally {
    await apiFromPage(page, 'DELETE', `/v1/MultiCarts/${cartId}`);
  }
});

test('die Vorschau der Schnellerfassung passt auf 360 px', async ({ page }) => {
  await page.goto('/schnellerfassung');
  await settle(page);
  await page.getByLabel('Artikelnummern und Mengen').fill('NB00004711;2\nGIBT-ES-NICHT;1\n4006501234568\t5');
  await page.getByRole('button', { name: 'Prüfen' }).click();
  await expect(page.getByRole('table', { name: 'Vorschau der Schnellerfassung' })).toBeVisible();
  await settle(page);
  await expectFits(page, 'Schnellerfassung');
});

test('die Suche zeigt auf dem Telefon kompakte Karten: mehr als ein Produkt je Bildschirm', async ({ page }) => {
  await page.goto('/suche');
  await settle(page);
  const cards = page.getByTestId('product-card');
  await expect(cards.nth(2)).toBeVisible();
  const heights = await cards.evaluateAll((all) => all.slice(0, 5).map((card) => card.getBoundingClientRect().height));
  const screen = page.viewportSize()!.height;
  for (const height of heights) expect(height, 'Höhe einer Ergebniskarte').toBeLessThan(screen / 2);
  await expectFits(page, 'Suche');
});
