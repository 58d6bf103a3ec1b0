import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { sessionFile } from './support/demo';
import { apiFromPage, firstOfferOfSupplier } from './support/relations';
import { pageHeading } from './support/session';
import { layoutProblems } from './support/layout-check';

/**
 * After the order (issue 30): a reference and note for the whole order at checkout, shown on the order; the printable
 * order PDF; 'Erneut bestellen' into a new cart; the order list searched by number, reference and article; and a
 * seller's /bestellungen showing the supplier orders. The buyer's partner is shared with parallel specs: this spec
 * works only in carts it creates (unique names) and deletes them at the end.
 */
const unique = () => `${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1e4)}`;

async function cartWithOneLine(page: Page, name: string) {
  const offer = await firstOfferOfSupplier(page, '200001');
  expect(offer.productOrderableStatus, 'Nordbad-Angebot bestellbar').toBe(1);
  const cart = await apiFromPage<{ id: number }>(page, 'POST', '/v1/MultiCarts', { name });
  expect(cart.status).toBe(201);
  const added = await apiFromPage(page, 'POST', '/v1/CartItems', {
    cartId: cart.data.id,
    productInstanceId: offer.productInstanceId,
    quantity: 2,
  });
  expect(added.status).toBeLessThan(300);
  return cart.data.id;
}

test.describe('Nach der Bestellung (einkauf@example.com)', () => {
  test.use({ storageState: sessionFile('buyer') });

  test('Kommission und Hinweis, PDF, Erneut bestellen und die Suche in Meine Bestellungen', async ({ page }) => {
    test.setTimeout(120_000);
    const carts: number[] = [];
    await page.goto('/');
    const cartId = await cartWithOneLine(page, `Kommission-${unique()}`);
    carts.push(cartId);
    const reference = `BV Lindenhof ${unique()}`;
    const note = 'Bitte vor Anlieferung anrufen.';
    try {
      await page.goto(`/warenkorb/${cartId}`);
      await page.getByTestId('order-summary').getByRole('button', { name: 'Bestellen' }).click();
      const dialog = page.getByRole('dialog', { name: 'Bestellung absenden' });
      await dialog.getByLabel('Kommission / Ihre Bestellreferenz').fill(reference);
      await dialog.getByLabel('Hinweis zur Bestellung').fill(note);
      await dialog.getByRole('button', { name: 'Akzeptieren und Bestellen' }).click();
      await expect(page).toHaveURL(/\/bestellungen\/bestellung\?/);
      await expect(page.getByTestId('thank-you')).toBeVisible();
      const orderNumber = (await page.getByTestId('order-number').innerText()).trim();
      await expect(page.getByTestId('order-reference')).toHaveText(reference);
      await expect(page.getByTestId('order-note')).toHaveText(note);

      // The order number's copy button confirms for 1.5 s, then reads 'Kopieren' again.
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      const copy = page.getByTestId('copy-order-number');
      await copy.click();
      const copiedAt = Date.now();
      await expect(copy).toHaveText('Kopiert');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(orderNumber);
      await expect(copy).toHaveText('Kopieren', { timeout: 5_000 });
      const shown = Date.now() - copiedAt;
      expect(shown).toBeGreaterThanOrEqual(1_400);
      expect(shown).toBeLessThan(3_000);

      // The printable order: the supplier's PDF, downloaded from the order detail.
      const download = page.waitForEvent('download');
      await page.getByTestId('order-pdf').first().click();
      const file = await (await download).path();
      expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');

      // 'Erneut bestellen' into a new cart.
      const newCart = `Nachbestellung-${unique()}`;
      await page.getByTestId('reorder').click();
      const reorder = page.getByRole('dialog', { name: 'Erneut bestellen' });
      await reorder.getByLabel('Neuer Warenkorb').check();
      await reorder.getByLabel('Name des neuen Warenkorbs').fill(newCart);
      await reorder.getByRole('button', { name: 'In den Warenkorb legen' }).click();
      await expect(reorder.getByTestId('reorder-result')).toContainText('1 Position wurde in den Warenkorb gelegt.');
      await reorder.getByRole('button', { name: 'Zum Warenkorb' }).click();
      await expect(page).toHaveURL(/\/warenkorb\/\d+/);
      carts.push(Number(new URL(page.url()).pathname.split('/').pop()));
      await expect(page.getByTestId('cart-item')).toHaveCount(1);

      // The order list, searched by the order number, the reference and the article.
      await page.goto('/bestellungen');
      await expect(pageHeading(page)).toHaveText('Meine Bestellungen');
      const search = page.getByLabel('Bestellnummer, Artikel oder Projekt');
      const rows = page.getByTestId('orders-table').getByRole('row');
      await search.fill(reference);
      await expect(page).toHaveURL(/[?&]q=/);
      await expect(rows.filter({ hasText: orderNumber })).toHaveCount(1);
      await expect(rows).toHaveCount(2); // header and the one order
      await search.fill('kein-artikel-heisst-so');
      await expect(page.getByTestId('orders-table')).toContainText('Noch keine Bestellungen');
      await search.fill(orderNumber);
      await expect(rows.filter({ hasText: orderNumber })).toHaveCount(1);
    } finally {
      for (const id of carts) await apiFromPage(page, 'DELETE', `/v1/MultiCarts/${id}`).catch(() => {});
    }
  });

  test('der Bestelldialog mit Kommission und Hinweis passt auf 360 px', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/');
    const cartId = await cartWithOneLine(page, `Schmal-${unique()}`);
    try {
      await page.goto(`/warenkorb/${cartId}`);
      await page.getByTestId('order-summary').getByRole('button', { name: 'Bestellen' }).click();
      const dialog = page.getByRole('dialog', { name: 'Bestellung absenden' });
      await expect(dialog.getByLabel('Kommission / Ihre Bestellreferenz')).toBeVisible();
      expect(await layoutProblems(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    } finally {
      await apiFromPage(page, 'DELETE', `/v1/MultiCarts/${cartId}`).catch(() => {});
    }
  });
});

test.describe('Bestellungen eines Verkäufers (verkauf@example.com)', () => {
  test.use({ storageState: sessionFile('seller') });

  test('/bestellungen zeigt die Lieferantenbestellungen, keine Verweisseite', async ({ page }) => {
    await page.goto('/bestellungen');
    await expect(pageHeading(page)).toHaveText('Bestellungen');
    await expect(page.getByTestId('supplier-orders')).toBeVisible();
    await expect(page.getByText('finden Sie in der Übersicht')).toHaveCount(0);
  });
});
