import { expect, test } from '@playwright/test';
import { sessionFile } from './support/demo';
import { fitsScreen } from './support/layout-check';

/**
 * The add-supplier dialog's steps for a buyer without customer number (seller-staff-side.md, 'My suppliers': select
 * supplier, choose partnership, buyer detail, add business partner, edit business partner, confirm business partner),
 * at 1366 px and at 390 px: einkauf2@ (Wärme & Wasser Becker e.K., 100003) asks Westfalen Sanitär. The request itself
 * is caught before the server (this spec must not change the shared demo relations; e2e/exclusive/relations.spec.ts
 * sends one for real): what the dialog would send is checked instead.
 */
test.use({ storageState: sessionFile('buyer2') });

const SUPPLIER = 'Westfalen Sanitär';

for (const viewport of [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
]) {
  test(`Lieferant hinzufügen als Neukunde: alle Schritte bei ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const posted: unknown[] = [];
    await page.route('**/v1/SupplierCustomers', (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      posted.push(route.request().postDataJSON());
      return route.fulfill({ status: 201, json: { bpNumber: '200007', name: SUPPLIER } });
    });

    await page.goto('/meine-lieferanten');
    await page.getByRole('button', { name: 'Lieferanten hinzufügen' }).click();
    const wizard = page.getByRole('dialog', { name: 'Lieferanten hinzufügen' });
    const step = wizard.getByTestId('wizard-step');
    await expect(step).toHaveText('Schritt 1 von 3 · Lieferant auswählen');
    await wizard.getByRole('button', { name: `${SUPPLIER} auswählen` }).click();

    // Choose partnership: as a new customer the steps become five.
    await expect(step).toHaveText('Schritt 2 von 3 · Partnerschaft wählen');
    await wizard.getByText('Ich bin Neukunde').click();
    await expect(step).toHaveText('Schritt 2 von 5 · Partnerschaft wählen');
    await wizard.getByLabel('Telefon').fill('+49 40 998877-12');
    await fitsScreen(page, wizard);
    await wizard.getByRole('button', { name: 'Weiter' }).click();

    // Buyer detail: the partner as the portal knows it, and the contact person.
    await expect(step).toHaveText('Schritt 3 von 5 · Käuferdetails');
    const detail = wizard.getByTestId('buyer-detail');
    await expect(detail).toContainText('Wärme & Wasser Becker e.K.');
    await expect(detail).toContainText('Hafenweg 7, 20457 Hamburg');
    await expect(wizard.getByText('Bernd Becker · einkauf2@example.com · +49 40 998877-12')).toBeVisible();
    await fitsScreen(page, wizard);
    await wizard.getByRole('button', { name: 'Zurück' }).click();
    await expect(step).toHaveText('Schritt 2 von 5 · Partnerschaft wählen');
    await wizard.getByRole('button', { name: 'Weiter' }).click();
    await wizard.getByRole('button', { name: 'Weiter' }).click();

    // Add business partner: prefilled from the partner; the rules shown are the API's.
    await expect(step).toHaveText('Schritt 4 von 5 · Geschäftspartner hinzufügen');
    await expect(wizard.getByRole('textbox', { name: /^Firmenname/ })).toHaveValue('Wärme & Wasser Becker e.K.');
    await expect(wizard.getByRole('textbox', { name: /^Steuernummer/ })).toHaveValue('46/123/45678');
    await wizard.getByRole('textbox', { name: /^Postleitzahl/ }).fill('2045');
    await wizard.getByRole('textbox', { name: /^USt-IdNr/ }).fill('AT12');
    await wizard.getByRole('button', { name: 'Weiter' }).click();
    await expect(wizard.getByText('Bitte geben Sie eine fünfstellige Postleitzahl ein.')).toBeVisible();
    await expect(wizard.getByText('Bitte geben Sie eine gültige USt-IdNr. ein (DE und neun Ziffern).')).toBeVisible();
    await fitsScreen(page, wizard);
    await wizard.getByRole('textbox', { name: /^Postleitzahl/ }).fill('20457');
    await wizard.getByRole('textbox', { name: /^USt-IdNr/ }).fill('DE123456789');
    await wizard.getByRole('button', { name: 'Weiter' }).click();

    // Confirm business partner, edit it, confirm again.
    await expect(step).toHaveText('Schritt 5 von 5 · Geschäftspartner bestätigen');
    const summary = wizard.getByTestId('partner-summary');
    await expect(summary).toContainText('DE123456789');
    await fitsScreen(page, wizard);
    await wizard.getByRole('button', { name: 'Bearbeiten' }).click();
    await expect(step).toHaveText('Schritt 4 von 5 · Geschäftspartner bearbeiten');
    await wizard.getByRole('textbox', { name: /^Hausnummer/ }).fill('7b');
    await wizard.getByRole('button', { name: 'Änderungen übernehmen' }).click();
    await expect(step).toHaveText('Schritt 5 von 5 · Geschäftspartner bestätigen');
    await expect(summary).toContainText('7b');

    await wizard.getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(page.getByText(`Ihre Anfrage an ${SUPPLIER} wurde erfolgreich übermittelt`)).toBeVisible();
    await expect(wizard).toBeHidden();
    expect(posted).toEqual([
      {
        supplierBpNumber: '200007',
        contactName: 'Bernd Becker',
        contactEmail: 'einkauf2@example.com',
        contactPhone: '+49 40 998877-12',
        message: null,
        newCustomerPartner: {
          officialCompanyName: 'Wärme & Wasser Becker e.K.',
          street: 'Hafenweg',
          houseNumber: '7b',
          postalCode: '20457',
          city: 'Hamburg',
          email: 'post@becker-ww.example',
          phoneNumber: '+49 40 998877-0',
          faxNumber: '+49 40 998877-1',
          website: 'https://becker-ww.example',
          vatId: 'DE123456789',
          taxNumber: '46/123/45678',
        },
      },
    ]);
  });
}
