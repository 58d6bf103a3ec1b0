import { expect, test, type Locator, type Page } from '@playwright/test';
import { deliveryDayOneMonthOn } from './support/dates';
import { sessionFile } from './support/demo';
import { mainMenu, pageHeading } from './support/session';

/**
 * The buyer's whole journey: search → articles of two suppliers → an own cart → project, address,
 * delivery date, note and a PDF attachment → order → thank-you page → the order in 'Meine Bestellungen'.
 * einkauf@example.com's partner is shared with parallel specs: this spec works only in carts it creates
 * (unique names), never changes the current business partner and deletes its carts at the end.
 */

const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });
const money = (value: number) => euro.format(Math.round(value * 100) / 100);
/** '39,79 € / Stk' → 39.79 */
const parseEuro = (text: string) => Number(text.replace(/[^\d,]/g, '').replace(',', '.'));
const unique = () => `${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1e4)}`;

/** A small but valid PDF (the server checks the content, not only the extension). */
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);

/** A toast with this text (several alike may be on screen, e.g. two articles added in a row). */
const toast = (page: Page, text: string) => page.getByTestId('toasts').getByText(text, { exact: true }).first();

/** Creates a cart on 'Meine Warenkörbe' and returns its id (from the link to it). */
async function createCart(page: Page, name: string): Promise<number> {
  await page.goto('/my-carts');
  await expect(pageHeading(page)).toHaveText('Meine Warenkörbe');
  const table = page.getByTestId('my-carts');
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await page.getByRole('button', { name: 'Warenkorb hinzufügen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Neuer Warenkorb' });
  await dialog.getByLabel('Name des Warenkorbs').fill(name);
  await dialog.getByRole('button', { name: 'Warenkorb anlegen' }).click();
  await expect(dialog).toBeHidden();
  const link = table.getByRole('link', { name, exact: true });
  await expect(link).toBeVisible();
  return Number((await link.getAttribute('href'))!.split('/').pop());
}

/** Removes a cart through the API with the page's session (clean-up after a failed run; 404 is fine). */
async function deleteCartQuietly(page: Page, cartId: number) {
  await page
    .evaluate(async (id) => {
      const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user'));
      const token = key ? JSON.parse(sessionStorage.getItem(key)!).access_token : null;
      if (token)
        await fetch(`/v1/MultiCarts/${id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
    }, cartId)
    .catch(() => {});
}

/** Adds the first search result of a supplier with a per-piece price; returns name and line total. */
async function addFromSearch(page: Page, term: string, supplierName: string, quantity: number) {
  const searchBox = page.getByRole('searchbox', { name: 'Suchbegriff' });
  await searchBox.fill(term);
  await page.getByRole('button', { name: 'Suchen', exact: true }).click();
  await expect(page).toHaveURL(/\/suche\?/);
  const cards = page
    .getByTestId('search-results')
    .getByTestId('product-card')
    .filter({ hasText: `(${supplierName})` })
    .filter({ has: page.getByTestId('card-price').filter({ hasText: /€ \/ Stk$/ }) });
  const card = cards.first();
  await expect(card).toBeVisible();
  const name = (await card.getByTestId('card-name').innerText()).trim();
  const price = parseEuro(await card.getByTestId('card-price').innerText());
  await card.getByTestId('quantity-counter').getByRole('combobox').selectOption(String(quantity));
  await card.getByTestId('add-to-cart').click();
  await expect(toast(page, 'Der Artikel wurde erfolgreich zum Warenkorb hinzugefügt.')).toBeVisible();
  return { name, total: Math.round(price * quantity * 100) / 100 };
}

const itemRow = (page: Page, name: string): Locator =>
  page.getByTestId('cart-item').filter({ has: page.getByTestId('item-name').getByText(name, { exact: true }) });

test.describe('Bestellung (einkauf@example.com)', () => {
  test.use({ storageState: sessionFile('buyer') });

  // Carts this spec created are removed even when a test fails or times out.
  const createdCarts: number[] = [];
  test.afterEach(async ({ page }) => {
    for (const id of createdCarts.splice(0)) await deleteCartQuietly(page, id);
  });

  test('Suche → zwei Lieferanten → eigener Warenkorb → Details und Anhang → Bestellung → Meine Bestellungen', async ({
    page,
  }) => {
    // A long journey; generous for a busy CI machine.
    test.setTimeout(300_000);
    const suffix = unique();
    // The unique part comes first, so that it stays visible in the flyout's shortened name.
    const cartName = `E2E ${suffix} Baustelle Rheinhafen`;

    // A second cart, chosen as the current one (the choice is confirmed).
    const cartId = await createCart(page, cartName);
    createdCarts.push(cartId);
    await page.getByRole('button', { name: `Warenkorb ${cartName} auswählen` }).click();
    await page.getByRole('dialog', { name: 'Warenkorb auswählen' }).getByRole('button', { name: 'Auswählen' }).click();
    await expect(page.getByTestId('my-carts').getByRole('row').filter({ hasText: cartName })).toContainText(
      'Ausgewählt',
    );

    // A duplicate name is refused with the server's title on the field.
    await page.getByRole('button', { name: 'Warenkorb hinzufügen' }).click();
    const again = page.getByRole('dialog', { name: 'Neuer Warenkorb' });
    await again.getByLabel('Name des Warenkorbs').fill(cartName);
    await again.getByRole('button', { name: 'Warenkorb anlegen' }).click();
    await expect(again.getByText('Ein Warenkorb mit diesem Namen existiert bereits.')).toBeVisible();
    await again.getByRole('button', { name: 'Abbrechen' }).click();

    // With several carts the header button opens the flyout; long names are cut to 18 characters plus dots.
    await page.getByTestId('cart-widget').click();
    const flyout = page.getByTestId('cart-flyout');
    await expect(flyout.getByText(`${cartName.slice(0, 18)}...`, { exact: true })).toBeVisible();
    await page.keyboard.press('Escape');

    // Search and put articles of Nordbad and AquaTherm into the current cart.
    await mainMenu(page).getByRole('link', { name: 'Suche' }).click();
    const nordbad = await addFromSearch(page, 'Thermostat', 'Nordbad Großhandel', 2);
    const aquatherm = await addFromSearch(page, 'Thermostat', 'AquaTherm Armaturen', 1);
    const net = nordbad.total + aquatherm.total;
    // Nordbad: 9,90 € below 250 € net; AquaTherm delivers without cost.
    const nordbadDelivery = nordbad.total < 250 ? 9.9 : 0;
    const deliveryText = (amount: number) =>
      amount > 0 ? `zzgl. ${money(amount)} Lieferkosten` : '0,00 € Lieferkosten';

    // The cart: two supplier groups with item count, value and delivery cost.
    await page.getByTestId('cart-widget').click();
    await page
      .getByTestId('cart-flyout')
      .getByText(`${cartName.slice(0, 18)}...`, { exact: true })
      .click();
    await expect(page).toHaveURL(`/warenkorb/${cartId}`);
    await expect(page.getByTestId('cart-name')).toHaveText(cartName);
    await expect(page.getByTestId('cart-item-count')).toHaveText('2 Artikel');
    const nordbadGroup = page.getByTestId('supplier-group').filter({ hasText: 'Nordbad Großhandel' });
    const aquaGroup = page.getByTestId('supplier-group').filter({ hasText: 'AquaTherm Armaturen' });
    await expect(nordbadGroup.getByTestId('group-total')).toHaveText(money(nordbad.total));
    await expect(nordbadGroup.getByTestId('group-delivery')).toHaveText(deliveryText(nordbadDelivery));
    if (nordbadDelivery > 0)
      await expect(nordbadGroup.getByTestId('free-delivery-hint')).toHaveText(
        `Noch ${money(250 - nordbad.total)} bis zur lieferkostenfreien Lieferung`,
      );
    await expect(aquaGroup.getByTestId('group-delivery')).toHaveText('0,00 € Lieferkosten');
    const summary = page.getByTestId('order-summary');
    await expect(summary.getByTestId('summary-net')).toHaveText(money(net));
    await expect(summary.getByTestId('summary-delivery')).toHaveText(deliveryText(nordbadDelivery));
    await expect(summary.getByTestId('summary-total')).toHaveText(money(net + nordbadDelivery));

    // Project (created on the spot), delivery date, note and a PDF for the Nordbad item; changes save themselves.
    const row = itemRow(page, nordbad.name);
    // The line's details are folded behind their summary; unfolding opens the fields.
    await expect(row.getByTestId('item-details-summary')).toHaveText(
      'Keine eigenen Angaben – es gelten die Angaben des Warenkorbs',
    );
    await expect(row.getByLabel('Notiz')).toBeHidden();
    await row.getByTestId('item-details-toggle').click();
    const projectCode = `E2E-${suffix}`;
    await row.getByRole('button', { name: 'Neues Projekt anlegen' }).click();
    const projectDialog = page.getByRole('dialog', { name: 'Neues Projekt' });
    await projectDialog.getByLabel('Projektname').fill(projectCode);
    await projectDialog.getByLabel('Zusatzinformation').fill('Neubau Rheinhafen, Haus 3');
    await projectDialog.getByRole('button', { name: 'Projekt anlegen' }).click();
    await expect(projectDialog).toBeHidden();
    await expect(row.getByRole('combobox', { name: 'Projekt', exact: true })).toHaveValue(
      `${projectCode} – Neubau Rheinhafen, Haus 3`,
    );
    await expect(toast(page, 'Die vorgenommenen Änderungen wurden erfasst')).toBeVisible();

    const deliveryLabel = deliveryDayOneMonthOn();
    await row.getByRole('button', { name: 'Lieferdatum', exact: true }).click();
    await page.getByRole('button', { name: 'Nächster Monat' }).click();
    await page.getByRole('button', { name: deliveryLabel, exact: true }).click();
    await expect(row.getByRole('button', { name: 'Lieferdatum', exact: true })).toHaveText(deliveryLabel);

    await row.getByLabel('Notiz').fill('Bitte vor 9 Uhr anliefern');
    await row.getByLabel('Notiz').blur();

    await row
      .locator('input[type="file"]')
      .setInputFiles({ name: 'Aufmass Haus 3.pdf', mimeType: 'application/pdf', buffer: pdf });
    await expect(row.getByTestId('attachment')).toContainText('Aufmass Haus 3.pdf');
    await expect(row.getByTestId('item-details-summary')).toContainText(`Projekt ${projectCode}`);
    await expect(row.getByTestId('item-details-summary')).toContainText('Notiz: Bitte vor 9 Uhr anliefern · 1 Anhang');

    // A new delivery address for the whole cart ('Liefern an' → 'Ändern' → 'Neue Adresse').
    const company = `Baustelle Rheinhafen ${suffix}`;
    await page.getByTestId('deliver-to').getByRole('button', { name: 'Ändern' }).click();
    const addressDialog = page.getByRole('dialog', { name: 'Lieferadresse' });
    await addressDialog.getByRole('tab', { name: 'Neue Adresse' }).click();
    await addressDialog.getByRole('button', { name: 'Adresse speichern und verwenden' }).click();
    await expect(addressDialog.getByText('Pflichtfeld').first()).toBeVisible();
    await addressDialog.getByLabel('Firma bzw. Name').fill(company);
    await addressDialog.getByLabel('Ansprechpartner').fill('Herr Polier');
    await addressDialog.getByLabel('Straße').fill('Hafenstraße');
    await addressDialog.getByLabel('Hausnummer').fill('3a');
    await addressDialog.getByLabel('Postleitzahl').fill('50678');
    await addressDialog.getByLabel('Ort').fill('Köln');
    await addressDialog.getByRole('button', { name: 'Adresse speichern und verwenden' }).click();
    await expect(addressDialog).toBeHidden();
    await expect(page.getByTestId('deliver-to')).toContainText(company);
    await expect(page.getByTestId('deliver-to')).toContainText('Hafenstraße 3a');

    // Order: the dialog closes only by its buttons; 'Akzeptieren und Bestellen' places the order.
    await expect(row.getByLabel('Notiz')).toHaveValue('Bitte vor 9 Uhr anliefern');
    await summary.getByRole('button', { name: 'Bestellen', exact: true }).click();
    const orderDialog = page.getByRole('dialog', { name: 'Bestellung absenden' });
    await expect(orderDialog).toContainText(
      "Mit Klick auf 'Akzeptieren und Bestellen' akzeptieren Sie die Allgemeinen Geschäftsbedingungen",
    );
    await page.keyboard.press('Escape');
    await expect(orderDialog).toBeVisible();
    await orderDialog.getByRole('button', { name: 'Akzeptieren und Bestellen' }).click();
    await expect(toast(page, 'Ihre Bestellung wurde erfolgreich übermittelt.')).toBeVisible();

    // Thank-you page: order detail with danke=true.
    await expect(page).toHaveURL(/\/bestellungen\/bestellung\?id=KB-[^&]+&orderType=customer&danke=true$/);
    await expect(page.getByTestId('thank-you')).toContainText('Vielen Dank für Ihre Bestellung!');
    // One message after ordering, not three over the thank-you (the note's 'Änderungen erfasst' was still due).
    // (Only other messages count: on a slow machine the order's own toast may have gone by then.)
    await page.waitForTimeout(3_500);
    await expect(
      page
        .getByTestId('toasts')
        .locator('.mantine-Notification-root')
        .filter({ hasNotText: 'Ihre Bestellung wurde erfolgreich übermittelt.' }),
    ).toHaveCount(0);
    const orderNumber = (await page.getByTestId('order-number').innerText()).trim();
    expect(orderNumber).toMatch(/^KB-/);

    const checkOrderDetail = async () => {
      await expect(page.getByTestId('order-net')).toHaveText(money(net));
      // The totals row is labelled 'Lieferkosten', so the value does not repeat the word.
      await expect(page.getByTestId('order-delivery')).toHaveText(
        nordbadDelivery > 0 ? `zzgl. ${money(nordbadDelivery)}` : '0,00 €',
      );
      await expect(page.getByTestId('order-total')).toHaveText(money(net + nordbadDelivery));
      const nordbadOrder = page.getByTestId('supplier-order').filter({ hasText: 'Nordbad Großhandel' });
      const aquaOrder = page.getByTestId('supplier-order').filter({ hasText: 'AquaTherm Armaturen' });
      await expect(nordbadOrder.getByTestId('supplier-order-total')).toHaveText(money(nordbad.total));
      await expect(nordbadOrder.getByTestId('supplier-order-delivery')).toHaveText(deliveryText(nordbadDelivery));
      await expect(aquaOrder.getByTestId('supplier-order-total')).toHaveText(money(aquatherm.total));
      await expect(aquaOrder.getByTestId('supplier-order-delivery')).toHaveText('0,00 € Lieferkosten');
      await expect(nordbadOrder).toContainText(nordbad.name);
      await expect(nordbadOrder).toContainText(`Projekt: ${projectCode}`);
      await expect(nordbadOrder).toContainText(`Lieferdatum: ${deliveryLabel}`);
      await expect(nordbadOrder).toContainText('Notiz: Bitte vor 9 Uhr anliefern');
      await expect(nordbadOrder.getByRole('button', { name: 'Aufmass Haus 3.pdf' })).toBeVisible();
      await expect(aquaOrder).toContainText(aquatherm.name);
    };
    await checkOrderDetail();

    // The ordered cart is empty now.
    await page.goto(`/warenkorb/${cartId}`);
    await expect(page.getByTestId('cart-item-count')).toHaveText('0 Artikel');
    await expect(page.getByTestId('empty-cart')).toBeVisible();

    // 'Meine Bestellungen' lists the order with its net sum; its detail shows totals and delivery costs.
    await mainMenu(page).getByRole('link', { name: 'Meine Bestellungen' }).click();
    await expect(pageHeading(page)).toHaveText('Meine Bestellungen');
    const orderRow = page.getByTestId('orders-table').getByRole('row').filter({ hasText: orderNumber });
    await expect(orderRow).toContainText(`${company}, 50678 Köln`);
    await expect(orderRow).toContainText(money(net));
    await orderRow.getByRole('link', { name: orderNumber }).click();
    await expect(pageHeading(page)).toHaveText(`Bestellung ${orderNumber}`);
    await expect(page.getByTestId('thank-you')).toHaveCount(0);
    await checkOrderDetail();

    // Clean up: delete the cart again (with confirmation).
    await page.goto('/my-carts');
    await page.getByRole('button', { name: `Warenkorb ${cartName} löschen` }).click();
    await page.getByRole('dialog', { name: 'Warenkorb löschen' }).getByRole('button', { name: 'Löschen' }).click();
    await expect(page.getByTestId('my-carts').getByRole('link', { name: cartName, exact: true })).toHaveCount(0);
  });

  test('„Warenkorb hinzufügen“ ist beim Maximum gesperrt und nennt die Grenze', async ({ page }) => {
    // The buyer's partner is shared with parallel specs: the maximum is lowered for this page only.
    await page.route('**/v1/ConfigurationValues/MaxCartCount', (route) =>
      route.fulfill({ json: { key: 'MaxCartCount', value: '1', values: ['1'] } }),
    );
    await page.goto('/my-carts');
    await expect(page.getByTestId('my-carts').getByRole('row').nth(1)).toBeVisible();
    const add = page.getByRole('button', { name: 'Warenkorb hinzufügen' });
    await expect(add).toHaveAttribute('data-disabled', 'true');
    await add.hover();
    await expect(page.getByRole('tooltip')).toHaveText('Maximale Anzahl von 1 Warenkörben erreicht.');
    await add.click({ force: true });
    await expect(page.getByRole('dialog', { name: 'Neuer Warenkorb' })).toHaveCount(0);
  });

  test('/add-to-cart legt einen Artikel mit Konfigurator-Kommentar in den Standard-Warenkorb und öffnet ihn', async ({
    page,
  }) => {
    // The real default cart is shared with parallel specs: the call is answered here and checked. The
    // configurator's signature check is answered too (e2e/exclusive/configurator.spec.ts signs for real).
    let sent: Record<string, unknown> | null = null;
    await page.route('**/v1/KitchenConfigurator/Return/Verify', (route) =>
      route.fulfill({ status: 200, json: { articleNumber: 'NB00004711', supplierId: '200001', partner: '100001' } }),
    );
    await page.route('**/v1/CartItems', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      sent = route.request().postDataJSON();
      await route.fulfill({
        status: 201,
        json: { productInstanceId: '200001~NB00004711', cartItemId: 1, cartId: 987654 },
      });
    });
    await page.goto('/add-to-cart?articleNumber=NB00004711&supplierId=200001');
    await expect(page).toHaveURL('/warenkorb/987654');
    expect(sent).toMatchObject({
      productInstanceId: '200001~NB00004711',
      articleNumber: 'NB00004711',
      supplierBusinessPartnerNo: '200001',
      quantity: 1,
      comment: 'Über den Küchenkonfigurator hinzugefügt',
    });
    expect(sent).not.toHaveProperty('cartId');
    await expect(toast(page, 'Der Artikel wurde erfolgreich zum Warenkorb hinzugefügt.')).toBeVisible();
  });

  test('/add-to-cart ohne Artikel erklärt die Adresse statt „Fehler“ zu melden', async ({ page }) => {
    await page.goto('/add-to-cart');
    await expect(page.getByTestId('add-to-cart-empty')).toContainText(
      'Über diese Adresse legt der Küchenkonfigurator Artikel in Ihren Warenkorb. Es wurde kein Artikel übergeben.',
    );
    await expect(page.getByText('Fehler - Bitte versuchen Sie es erneut.')).toHaveCount(0);
    await page.getByRole('link', { name: 'Zur Startseite' }).click();
    await expect(page).toHaveURL('/');
  });

  test('eine Seite, die die Rolle nicht öffnen darf, sagt einmal, warum sie weiterleitet', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).not.toHaveURL(/dashboard/);
    const notice = page
      .getByTestId('toasts')
      .getByText('Diese Seite steht Ihnen nicht zur Verfügung. Sie wurden zur Startseite weitergeleitet.');
    await expect(notice).toHaveCount(1);
    await page.waitForTimeout(1_000);
    await expect(notice).toHaveCount(1);
  });
});

test.describe('Verkäufer', () => {
  test.use({ storageState: sessionFile('seller') });

  test('bekommt auf /add-to-cart „Diese Aktion ist für Verkäufer nicht verfügbar.“', async ({ page }) => {
    await page.goto('/add-to-cart?articleNumber=NB00004711&supplierId=200001');
    await expect(
      page.getByRole('alert').filter({ hasText: 'Diese Aktion ist für Verkäufer nicht verfügbar.' }),
    ).toBeVisible();
    await expect(page).toHaveURL('/');
  });
});
