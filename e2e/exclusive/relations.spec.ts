import { expect, test, type Browser, type Page } from '@playwright/test';
import { sessionFile } from '../support/demo';
import { pageHeading } from '../support/session';
import { apiFromPage, firstOfferOfSupplier, tableRow, toastWith } from '../support/relations';

/**
 * The whole relation flow: einkauf@ for Heizungsbau Schmidt & Söhne KG (100002, no relation with
 * Nordbad yet) requests one → verkauf@ (Nordbad) rejects it with a reason → the buyer sees the reason and
 * requests again → the seller approves it in 'Meine Kunden' → Nordbad's offers are orderable for the buyer.
 * Also: a request without customer number and the buyer answering 'Kundennummer angefragt'; the audit trail
 * for staff. Runs in the 'exclusive' project because it switches einkauf@'s current partner (restored at
 * the end).
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(240_000);

const BUYER_PARTNER = 'Heizungsbau Schmidt & Söhne KG';
const NORDBAD = 'Nordbad Großhandel';
const REASON = 'Die Kundennummer K-20002 ist uns nicht bekannt – bitte prüfen.';

async function switchPartner(page: Page, menuItem: string, expected: string) {
  await page.goto('/');
  const current = page.getByTestId('current-partner');
  await expect(current).toBeVisible();
  if ((await current.textContent())?.trim() === expected) return;
  await page.getByTestId('partner-switch').click();
  await page.getByRole('menuitem', { name: menuItem }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/');
  await expect(current).toHaveText(expected);
}

async function sellerPage(browser: Browser) {
  const context = await browser.newContext({ storageState: sessionFile('seller') });
  return { context, page: await context.newPage() };
}

async function openCustomer(page: Page, name: string) {
  await page.goto('/meine-kunden');
  await expect(pageHeading(page)).toHaveText('Meine Kunden');
  const row = tableRow(page, 'Kunden', name);
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `Kunde ${name} bearbeiten` }).click();
  return page.getByRole('dialog', { name: `Kunde bearbeiten – ${name}` });
}

async function chooseStatus(page: Page, dialog: ReturnType<Page['getByRole']>, label: string) {
  await dialog.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

test.describe('Geschäftsbeziehung Käufer ↔ Lieferant', () => {
  test.use({ storageState: sessionFile('buyer') });

  test.afterAll(async ({ browser }) => {
    // Other specs rely on einkauf@ working for Sanitär Müller GmbH.
    const context = await browser.newContext({ storageState: sessionFile('buyer') });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByTestId('current-partner')).toBeVisible();
    const result = await apiFromPage(page, 'PUT', '/v1/UserProfile', { bpNumber: '100001' });
    expect(result.status).toBe(204);
    await context.close();
  });

  test('anfragen → ablehnen mit Grund → neu anfragen → freigeben → bestellbar', async ({ page, browser }) => {
    await switchPartner(page, `100002 ${BUYER_PARTNER}`, BUYER_PARTNER);

    // Without a relation Nordbad's offers cannot be ordered.
    const offer = await firstOfferOfSupplier(page, '200001');
    expect(offer.productOrderableStatus).toBe(3);

    // 'Meine Lieferanten' of 100002: Rohrwerk was rejected, with the reason as text and tooltip.
    await page.goto('/meine-lieferanten');
    await expect(pageHeading(page)).toHaveText('Meine Lieferanten');
    const rohrwerk = tableRow(page, 'Geschäftsbeziehungen', 'Rohrwerk Sauerland');
    await expect(rohrwerk.getByText('Abgelehnt', { exact: true })).toBeVisible();
    await expect(rohrwerk.getByTestId('rejection-reason')).toHaveText(
      'Grund: Kundennummer unbekannt – bitte prüfen Sie Ihre Angabe.',
    );
    await rohrwerk.getByRole('button', { name: 'Neu anfragen bei Rohrwerk Sauerland' }).hover();
    await expect(page.getByRole('tooltip')).toHaveText('Kundennummer unbekannt – bitte prüfen Sie Ihre Angabe.');

    // Request Nordbad with a customer number: list → form → confirmation.
    await page.getByRole('button', { name: 'Lieferanten hinzufügen' }).click();
    const wizard = page.getByRole('dialog', { name: 'Lieferanten hinzufügen' });
    await expect(wizard.getByRole('button', { name: 'Rohrwerk Sauerland auswählen' })).toBeDisabled();
    await wizard.getByLabel('Lieferant suchen').fill('nord');
    await wizard.getByRole('button', { name: `${NORDBAD} auswählen` }).click();
    await expect(wizard.getByTestId('wizard-supplier')).toHaveText(NORDBAD);
    await wizard.getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(wizard.getByText('Pflichtfeld')).toBeVisible();
    await wizard.getByLabel('Kundennummer').fill('K-20002');
    await wizard.getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(wizard.getByText(`Ihre Anfrage an ${NORDBAD} wurde erfolgreich übermittelt`)).toBeVisible();
    await wizard.getByRole('button', { name: 'Schließen' }).click();
    await expect(wizard).toBeHidden();
    const nordbad = tableRow(page, 'Geschäftsbeziehungen', NORDBAD);
    await expect(nordbad.getByText('Wartet auf Bestätigung')).toBeVisible();
    await expect(nordbad.getByRole('cell', { name: 'K-20002' })).toBeVisible();

    // The seller rejects it: reason required, confirmation dialog.
    const seller = await sellerPage(browser);
    let dialog = await openCustomer(seller.page, BUYER_PARTNER);
    await expect(dialog.getByLabel('Kundennummer')).toHaveValue('K-20002');
    await chooseStatus(seller.page, dialog, 'Abgelehnt');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByText('Pflichtfeld')).toBeVisible();
    await dialog.getByLabel('Begründung').fill(REASON);
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    const confirm = seller.page.getByRole('dialog', { name: 'Bitte bestätigen' });
    await expect(confirm).toContainText(`Möchten Sie die Anfrage von ${BUYER_PARTNER} wirklich ablehnen?`);
    await confirm.getByRole('button', { name: 'Bestätigen' }).click();
    await expect(
      toastWith(seller.page, `Sie haben den Status des Kunden ${BUYER_PARTNER} erfolgreich aktualisiert`),
    ).toBeVisible();
    await expect(tableRow(seller.page, 'Kunden', BUYER_PARTNER).getByText('Abgelehnt')).toBeVisible();

    // The buyer sees the reason and requests again (customer number prefilled, corrected).
    await page.reload();
    await expect(nordbad.getByText('Abgelehnt', { exact: true })).toBeVisible();
    await expect(nordbad.getByTestId('rejection-reason')).toHaveText(`Grund: ${REASON}`);
    const again = nordbad.getByRole('button', { name: `Neu anfragen bei ${NORDBAD}` });
    await again.hover();
    await expect(page.getByRole('tooltip')).toHaveText(REASON);
    await again.click();
    await expect(wizard.getByTestId('wizard-supplier')).toHaveText(NORDBAD);
    await expect(wizard.getByLabel('Kundennummer')).toHaveValue('K-20002');
    await wizard.getByLabel('Kundennummer').fill('K-20022');
    await wizard.getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(wizard.getByText(`Ihre Anfrage an ${NORDBAD} wurde erfolgreich übermittelt`)).toBeVisible();
    await wizard.getByRole('button', { name: 'Schließen' }).click();
    await expect(nordbad.getByText('Wartet auf Bestätigung')).toBeVisible();
    await expect(nordbad.getByTestId('rejection-reason')).toHaveCount(0);

    // The seller approves it in 'Meine Kunden'.
    dialog = await openCustomer(seller.page, BUYER_PARTNER);
    await expect(dialog.getByLabel('Kundennummer')).toHaveValue('K-20022');
    await chooseStatus(seller.page, dialog, 'Freigegeben');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(
      toastWith(seller.page, `Sie haben den Status des Kunden ${BUYER_PARTNER} erfolgreich aktualisiert`),
    ).toBeVisible();
    await expect(tableRow(seller.page, 'Kunden', BUYER_PARTNER).getByText('Freigegeben')).toBeVisible();
    await seller.context.close();

    // The buyer: Nordbad approved, its offers orderable (API and product page).
    await page.reload();
    await expect(nordbad.getByText('Freigegeben')).toBeVisible();
    const after = await firstOfferOfSupplier(page, '200001');
    expect(after.productOrderableStatus).toBe(1);
    await page.goto(
      `/produkt?id=${encodeURIComponent(after.productId)}&articleNumber=${encodeURIComponent(after.productInstanceId)}`,
    );
    await expect(page.getByTestId('add-to-cart').first()).toBeEnabled();

    // Home page: Nordbad is now among the supplier cards.
    await page.goto('/');
    await expect(page.getByTestId('home-my-suppliers').getByRole('article', { name: NORDBAD })).toBeVisible();
  });

  test('Anfrage ohne Kundennummer → Kundennummer angefragt → Kundennummer eingeben', async ({ page }) => {
    await switchPartner(page, `100002 ${BUYER_PARTNER}`, BUYER_PARTNER);
    await page.goto('/meine-lieferanten');
    await page.getByRole('button', { name: 'Lieferanten hinzufügen' }).click();
    const wizard = page.getByRole('dialog', { name: 'Lieferanten hinzufügen' });
    await wizard.getByRole('button', { name: 'Westfalen Sanitär auswählen' }).click();
    await wizard.getByText('Ich bin Neukunde').click();
    await expect(wizard.getByRole('textbox', { name: /^Name/ })).toHaveValue('Erika Einkauf');
    await expect(wizard.getByLabel('E-Mail')).toHaveValue('einkauf@example.com');
    await wizard.getByLabel('Telefon').fill('+49 221 5550-12');
    await wizard.getByLabel('Nachricht').fill('Wir möchten gern bei Ihnen bestellen.');
    // As a new customer: buyer detail, then the company data (prefilled from the partner), confirmed and sent.
    await wizard.getByRole('button', { name: 'Weiter' }).click();
    await expect(wizard.getByTestId('wizard-step')).toHaveText('Schritt 3 von 5 · Käuferdetails');
    await wizard.getByRole('button', { name: 'Weiter' }).click();
    await expect(wizard.getByTestId('wizard-step')).toHaveText('Schritt 4 von 5 · Geschäftspartner hinzufügen');
    await expect(wizard.getByRole('textbox', { name: /^Firmenname/ })).toHaveValue(BUYER_PARTNER);
    await wizard.getByRole('button', { name: 'Weiter' }).click();
    await expect(wizard.getByTestId('wizard-step')).toHaveText('Schritt 5 von 5 · Geschäftspartner bestätigen');
    await wizard.getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(toastWith(page, 'Ihre Anfrage an Westfalen Sanitär wurde erfolgreich übermittelt')).toBeVisible();
    await expect(wizard).toBeHidden();

    const row = tableRow(page, 'Geschäftsbeziehungen', 'Westfalen Sanitär');
    await expect(row.getByText('Kundennummer angefragt')).toBeVisible();
    await row.getByRole('button', { name: 'Kundennummer für Westfalen Sanitär eingeben' }).click();
    const numberDialog = page.getByRole('dialog', { name: 'Kundennummer eingeben' });
    await numberDialog.getByRole('button', { name: 'Kundennummer senden' }).click();
    await expect(numberDialog.getByText('Pflichtfeld')).toBeVisible();
    await numberDialog.getByLabel('Kundennummer').fill('WS-4711');
    await numberDialog.getByRole('button', { name: 'Kundennummer senden' }).click();
    await expect(toastWith(page, 'Ihre Kundennummer wurde erfolgreich übermittelt.')).toBeVisible();
    await expect(row.getByText('Wartet auf Bestätigung')).toBeVisible();
    await expect(row.getByRole('cell', { name: 'WS-4711' })).toBeVisible();
  });

  test('Mitarbeiter sehen den Verlauf der Beziehung', async ({ browser }) => {
    const context = await browser.newContext({ storageState: sessionFile('admin') });
    const page = await context.newPage();
    await page.goto('/geschaeftspartner?kunde=100002&lieferant=200001');
    const row = tableRow(page, 'Geschäftsbeziehungen', BUYER_PARTNER);
    await expect(row).toHaveCount(1);
    await expect(row.getByText('Freigegeben')).toBeVisible();
    await row.getByRole('button', { name: /^Verlauf/ }).click();
    const trail = page.getByRole('dialog', { name: 'Verlauf der Geschäftsbeziehung' });
    const changes = trail.getByRole('table', { name: 'Statusänderungen' }).getByRole('row');
    // Header + request, rejection, new request, approval.
    await expect(changes).toHaveCount(5);
    await expect(changes.nth(1)).toContainText('Erika Einkauf');
    await expect(changes.nth(1)).toContainText('Wartet auf Bestätigung');
    await expect(changes.nth(2)).toContainText('Volker Verkauf');
    await expect(changes.nth(2)).toContainText(REASON);
    await expect(changes.nth(4)).toContainText('Freigegeben');
    await context.close();
  });
});
