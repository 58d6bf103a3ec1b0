import { expect, test, type Browser, type Page } from '@playwright/test';
import { sessionFile } from './support/demo';
import { pageHeading } from './support/session';

/**
 * Supplier orders end to end: the buyer orders from Nordbad (200001) and AquaTherm (200003); the transmission worker
 * sends both; the seller of Nordbad (verkauf@example.com) finds the order under 'Bestellungen', uploads a
 * document and confirms with a changed quantity; the buyer sees the changed line and the status; staff see
 * both supplier orders with their transmission log.
 */

/** Calls the API with the page's stored session (the order is placed like the SPA does, without the UI). */
async function apiCall(page: Page, method: string, url: string, body?: unknown) {
  return page.evaluate(
    async ({ method, url, body }) => {
      // The page signs in silently through the provider session before it stores the user (sessionStorage).
      const stored = () => Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user'));
      for (let waited = 0; !stored() && waited < 30_000; waited += 200) await new Promise((r) => setTimeout(r, 200));
      const token = JSON.parse(sessionStorage.getItem(stored()!)!).access_token;
      const res = await fetch(url, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: res.status === 204 ? null : await res.json() };
    },
    { method, url, body },
  );
}

/** 1234.5 → '1.234,50 €' (the SPA's de-DE currency format, with its no-break space). */
const formatEuro = (value: number) =>
  new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(value);

async function pageAs(browser: Browser, who: 'buyer' | 'seller' | 'support') {
  const context = await browser.newContext({ storageState: sessionFile(who) });
  return context.newPage();
}

test('supplier order: seller confirms with a changed quantity, buyer and staff see it', async ({ browser }) => {
  test.setTimeout(300_000);
  const buyer = await pageAs(browser, 'buyer');
  await buyer.goto('/');
  await expect(pageHeading(buyer)).toBeVisible();

  // Orderable offers of both suppliers from the demo catalogue.
  const search = await apiCall(buyer, 'POST', '/v1/Product/Search', { searchTerm: 'Thermostat', pageSize: 100 });
  expect(search.status).toBe(200);
  const offersOf = (supplier: string) =>
    search.body.hits
      .filter(
        (h: { rows: { supplierID: string }; productOrderableStatus: number; price: unknown }) =>
          h.rows.supplierID === supplier && h.productOrderableStatus === 1 && h.price,
      )
      .map((h: { rows: { PRODUCTINSTANCE_ID: string } }) => h.rows.PRODUCTINSTANCE_ID as string);
  // Three Nordbad lines (changed, removed, replaced) and one AquaTherm line.
  const nordbadOffers = [...new Set(offersOf('200001'))].slice(0, 3);
  expect(nordbadOffers).toHaveLength(3);
  const offers = [...nordbadOffers, offersOf('200003')[0]];
  expect(offers.every(Boolean)).toBe(true);
  const quantities = [20, 5, 2, 10];

  const cart = await apiCall(buyer, 'POST', '/v1/MultiCarts', { name: `E2E LB ${Date.now().toString(36)}` });
  expect(cart.status).toBeLessThan(300);
  for (const [i, offer] of offers.entries()) {
    const item = await apiCall(buyer, 'POST', '/v1/CartItems', {
      cartId: cart.body.id,
      productInstanceId: offer,
      quantity: quantities[i],
    });
    expect(item.status).toBeLessThan(300);
  }
  const checkout = await apiCall(buyer, 'POST', `/v1/MultiCarts/${cart.body.id}/checkout`);
  expect(checkout.status).toBe(200);
  const customerOrderNumber: string = checkout.body.customerOrderNumber;

  // Part A's worker sends both supplier orders.
  let details: {
    supplierOrdersDetails: { supplierId: string; supplierOrderNumber: string; supplierOrderStatusId: number }[];
  };
  await expect
    .poll(
      async () => {
        details = (await apiCall(buyer, 'GET', `/v1/CustomerOrders/${customerOrderNumber}/Details`)).body;
        return details.supplierOrdersDetails.map((s) => s.supplierOrderStatusId);
      },
      { timeout: 60_000 },
    )
    .toEqual([2, 2]);
  const nordbad = details!.supplierOrdersDetails.find((s) => s.supplierId === '200001')!.supplierOrderNumber;
  const aqua = details!.supplierOrdersDetails.find((s) => s.supplierId === '200003')!.supplierOrderNumber;

  // The seller finds the order under 'Bestellungen'.
  const seller = await pageAs(browser, 'seller');
  await seller.goto('/lieferantenbestellungen');
  await expect(pageHeading(seller)).toHaveText('Bestellungen');
  await seller.getByLabel('Suche').fill(nordbad);
  await seller.getByRole('button', { name: 'Suchen' }).click();
  await expect(seller).toHaveURL(new RegExp(`suche=${nordbad}`));
  const table = seller.getByTestId('supplier-orders');
  await expect(table.getByRole('link', { name: nordbad })).toBeVisible();
  await expect(table.getByRole('link', { name: aqua })).toHaveCount(0);
  await table.getByRole('link', { name: nordbad }).click();
  await expect(seller).toHaveURL(/orderType=supplier/);

  // Who ordered, where it goes, when it was sent (spec section 3 on the seller's detail).
  const parties = seller.getByTestId('supplier-order-parties');
  await expect(parties).toContainText('Besteller');
  await expect(parties).toContainText('Lieferadresse');
  await expect(parties.getByText('Gesendet am')).toBeVisible();
  await expect(parties).toContainText(/\d{1,2}\.\d{1,2}\.\d{4}/);

  // Document upload.
  await seller.locator('input[type=file]').setInputFiles({
    name: 'Lieferschein.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
  });
  await expect(seller.getByTestId('order-document').getByText('Lieferschein.pdf')).toBeVisible();
  // Limits from the feature settings (10 files of 25 MB): an oversize file is dropped, the rest is cut to the
  // 9 places left next to the existing document, with the spec's message.
  await seller.locator('input[type=file]').setInputFiles([
    ...Array.from({ length: 10 }, (_, i) => ({
      name: `Foto-${i + 1}.txt`,
      mimeType: 'text/plain',
      buffer: Buffer.from(`Foto ${i + 1}`),
    })),
    { name: 'Zu-gross.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(25 * 1024 * 1024 + 1, 1) },
  ]);
  await expect(
    seller
      .getByTestId('toasts')
      .getByText('Bitte verwenden Sie nicht mehr als 10 Dateien, jeweils nicht größer als 25 MB.'),
  ).toBeVisible();
  await expect(seller.getByTestId('order-document')).toHaveCount(10);
  await expect(seller.getByTestId('order-document').getByText('Foto-9.txt')).toBeVisible();
  await expect(seller.getByTestId('order-document').getByText('Foto-10.txt')).toHaveCount(0);
  await expect(seller.getByTestId('order-document').getByText('Zu-gross.bin')).toHaveCount(0);

  // Confirmation with changes: quantity, price and date of one line, a removed line, a replacement article and
  // an added line. The lines are found by their ordered quantity.
  const sellerDetails = await apiCall(seller, 'GET', `/v1/SupplierOrders/${nordbad}/Details`);
  expect(sellerDetails.body.confirmableInPortal).toBe(true);
  const lineWith = (q: number) =>
    sellerDetails.body.lines.find((l: { quantity: number }) => l.quantity === q).lineNo as number;
  const [changed, removed, replaced] = [lineWith(20), lineWith(5), lineWith(2)];
  await seller.getByRole('combobox', { name: 'Neuer Status' }).click();
  await seller.getByRole('option', { name: 'Mit Änderungen bestätigt' }).click();
  await seller.getByLabel(`Bestätigte Menge Position ${changed}`).fill('15');
  await seller.getByLabel(`Bestätigter Einzelpreis Position ${changed}`).fill('12,5');
  await seller.getByLabel(`Bestätigtes Lieferdatum Position ${changed}`).fill('04.05.2030');
  await seller.getByLabel(`Position ${removed} entfernen`).check();
  await expect(seller.getByLabel(`Bestätigte Menge Position ${removed}`)).toBeDisabled();
  await seller.getByLabel(`Ersatzartikel Artikelnummer Position ${replaced}`).fill('NB-ERSATZ-1');
  await seller.getByLabel(`Ersatzartikel Bezeichnung Position ${replaced}`).fill('Nachfolgemodell E2E');
  await seller.getByRole('button', { name: 'Position hinzufügen' }).click();
  await seller.getByLabel('Neue Position 1: Artikelnummer').fill('NB-ZUB-E2E');
  await seller.getByLabel('Neue Position 1: Bezeichnung').fill('Zubehörset E2E');
  await seller.getByLabel('Neue Position 1: Menge').fill('2');
  await seller.getByLabel('Neue Position 1: Einzelpreis').fill('5');
  // A binding confirmation asks once; 'Abbrechen' sends nothing.
  await seller.getByRole('button', { name: 'Speichern' }).click();
  const ask = seller.getByRole('dialog', { name: 'Bestellung verbindlich bestätigen?' });
  await expect(ask).toBeVisible();
  await expect(ask).toContainText(nordbad);
  await ask.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(ask).toHaveCount(0);
  expect((await apiCall(seller, 'GET', `/v1/SupplierOrders/${nordbad}/Details`)).body.supplierOrderStatusId).toBe(2);
  await seller.getByRole('button', { name: 'Speichern' }).click();
  await ask.getByRole('button', { name: 'Verbindlich bestätigen' }).click();
  await expect(
    seller.getByTestId('toasts').getByText(`Die Bestellung ${nordbad} wurde mit Änderungen verbindlich bestätigt.`),
  ).toBeVisible();
  await expect(seller.getByTestId('supplier-order').getByText('Mit Änderungen bestätigt')).toBeVisible();
  // Confirmed: the status form is gone (displayed only), the confirmation time is shown.
  await expect(seller.getByRole('combobox', { name: 'Neuer Status' })).toHaveCount(0);
  await expect(parties.getByText('Bestätigt am')).toBeVisible();

  // What the API recorded from the form.
  const confirmed = (await apiCall(seller, 'GET', `/v1/SupplierOrders/${nordbad}/Details`)).body;
  expect(confirmed.itemsConfirmation.orderedAndChanged[0].confirmed).toMatchObject({
    quantity: 15,
    unitPrice: 12.5,
    deliveryDate: '2030-05-04',
  });
  expect(confirmed.itemsConfirmation.removed.map((l: { lineNo: number }) => l.lineNo)).toEqual([removed]);
  expect(confirmed.itemsConfirmation.orderedAndReplaced[0].confirmed).toMatchObject({
    articleNumber: 'NB-ERSATZ-1',
    name: 'Nachfolgemodell E2E',
  });
  expect(confirmed.itemsConfirmation.added[0]).toMatchObject({
    articleNumber: 'NB-ZUB-E2E',
    name: 'Zubehörset E2E',
    quantity: 2,
    unitPrice: 5,
  });

  // The buyer sees every line's answer with old and new values, and the statuses.
  await buyer.goto(`/bestellungen/bestellung?id=${customerOrderNumber}&orderType=customer`);
  const card = buyer.getByTestId('supplier-order').filter({ hasText: nordbad });
  const answer = (kind: string) => card.locator(`[data-testid="line-confirmation"][data-kind="${kind}"]`);
  await expect(answer('changed')).toContainText('Menge bestellt 20 → 15');
  await expect(answer('changed')).toContainText('12,50');
  await expect(answer('changed')).toContainText('4.5.2030');
  await expect(answer('removed')).toContainText('bestellt 5, nicht geliefert');
  // The line shows the confirmed quantity and value, the ordered ones beneath as 'bestellt'.
  // (a filter's inner locator is matched inside each row: built from the page, not from the card)
  const lineAnswer = (kind: string) => buyer.locator(`[data-testid="line-confirmation"][data-kind="${kind}"]`);
  const changedRow = card.getByRole('row').filter({ has: lineAnswer('changed') });
  await expect(changedRow.getByTestId('line-quantity')).toContainText('15');
  await expect(changedRow.getByTestId('line-ordered-quantity')).toContainText('bestellt 20');
  const changedLine = confirmed.lines.find((l: { lineNo: number }) => l.lineNo === changed);
  expect(changedLine).toMatchObject({ quantity: 15, unitPrice: 12.5, ordered: { quantity: 20 } });
  await expect(changedRow.getByTestId('line-total')).toHaveText(formatEuro(changedLine.quantityPrice));
  const removedRow = card.getByRole('row').filter({ has: lineAnswer('removed') });
  await expect(removedRow.getByTestId('line-quantity')).toContainText('0');
  // The totals are the confirmed ones; what was ordered stays visible.
  await expect(card.getByTestId('supplier-order-total')).toHaveText(formatEuro(confirmed.total));
  await expect(card.getByTestId('supplier-order-ordered-total')).toContainText(formatEuro(confirmed.orderedTotal));
  const customer = (await apiCall(buyer, 'GET', `/v1/CustomerOrders/${customerOrderNumber}/Details`)).body;
  expect(customer.orderTotal).not.toBe(customer.orderedTotal);
  await expect(buyer.getByTestId('order-net')).toHaveText(formatEuro(customer.orderTotal));
  await expect(buyer.getByTestId('order-ordered-net')).toHaveText(formatEuro(customer.orderedTotal));
  // Transmission wording, not delivery wording: AquaTherm's order was only transmitted.
  const aquaCard = buyer.getByTestId('supplier-order').filter({ hasText: aqua });
  await expect(aquaCard.getByText('An Lieferant übermittelt')).toBeVisible();
  await expect(buyer.getByText('Versendet', { exact: true })).toHaveCount(0);
  // A replaced line shows the replacement article, the ordered one as 'bestellt'.
  await expect(answer('replaced')).toContainText('bestellt Artikel');
  await expect(card.getByRole('row').filter({ has: buyer.locator('[data-kind="replaced"]') })).toContainText(
    'Art.-Nr. NB-ERSATZ-1',
  );
  await expect(answer('added')).toHaveCount(1);
  await expect(card.getByText('Zubehörset E2E')).toBeVisible();
  await expect(card.getByText('Mit Änderungen bestätigt')).toBeVisible();
  await expect(buyer.getByText('Teilweise bestätigt')).toBeVisible();
  await expect(card.getByTestId('order-documents').getByText('Lieferschein.pdf')).toBeVisible();
  // The buyer's list shows the confirmed sum with the ordered one beneath.
  await buyer.goto('/bestellungen');
  const listRow = buyer.getByRole('row').filter({ hasText: customerOrderNumber });
  await expect(listRow.getByTestId('order-sum')).toHaveText(formatEuro(customer.orderTotal));
  await expect(listRow.getByTestId('order-sum-ordered')).toHaveText(`bestellt ${formatEuro(customer.orderedTotal)}`);

  // Staff see both supplier orders with their transmission log.
  const staff = await pageAs(browser, 'support');
  for (const no of [nordbad, aqua]) {
    await staff.goto(`/bestellungen/bestellung?id=${no}&orderType=supplier`);
    await expect(staff.getByTestId('supplier-order')).toContainText(no);
    const log = staff.getByTestId('transmission-log');
    await expect(log).toBeVisible();
    await expect(log.getByRole('row').nth(1)).toContainText('gesendet');
  }
  await staff.goto('/bestellungen?orderType=supplier');
  await expect(pageHeading(staff)).toHaveText('Lieferantenbestellungen');
});
