import { expect, test, type Locator, type Page } from '@playwright/test';
import { sessionFile } from './support/demo';
import { pageHeading } from './support/session';
import { toastWith } from './support/relations';

/**
 * Supplier management: the administrator turns business partner 200010 of the master data into
 * a supplier with an e-mail interface and a logo and activates it; a buyer then finds its offers with that
 * logo; Support sees the same supplier read-only. 200010 exists only for this flow (seed), so the spec
 * changes no state another spec reads.
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

const NEWCOMER = 'Sanitärkontor Elbe';
const LOGO = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40">' +
    '<rect width="120" height="40" rx="6" fill="#0b5fa5"/><circle cx="20" cy="20" r="10" fill="#fff"/></svg>',
);
const field = (scope: Locator, label: string) => scope.getByRole('textbox', { name: new RegExp(`^${label}( \\*)?$`) });

async function choose(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test.describe('Administrator', () => {
  test.use({ storageState: sessionFile('admin') });

  test('adds supplier 200010 from the master data, fills the e-mail interface, uploads a logo, sets Active', async ({
    page,
  }) => {
    await page.goto('/admin');
    await expect(pageHeading(page)).toHaveText('Lieferanten');
    await expect(page.getByRole('table', { name: 'Lieferanten' }).getByRole('row')).not.toHaveCount(1);

    await page.getByRole('button', { name: 'Lieferant hinzufügen' }).click();
    const add = page.getByRole('dialog', { name: 'Lieferant hinzufügen' });
    const number = add.getByRole('textbox', { name: /Geschäftspartnernummer/ });
    await number.fill('200001');
    await add.getByRole('button', { name: 'Weiter' }).click();
    await expect(add.getByRole('alert')).toContainText('Geschäftspartner existiert bereits!');
    await expect(add.getByRole('alert')).toContainText('Bitte überprüfen Sie Ihre Eingabe.');
    await number.fill('999999');
    await add.getByRole('button', { name: 'Weiter' }).click();
    await expect(add.getByRole('alert')).toContainText('Geschäftspartner nicht gefunden!');
    await number.fill('200010');
    await add.getByRole('button', { name: 'Weiter' }).click();

    const dialog = page.getByRole('dialog', { name: `${NEWCOMER} (200010)` });
    await expect(dialog).toBeVisible();
    // The shared schema speaks first: the required fields of an e-mail interface.
    await dialog.getByRole('button', { name: 'Speichern', exact: true }).click();
    await expect(dialog.getByText('Pflichtfeld').first()).toBeVisible();

    await field(dialog, 'Name').fill('Frau Elbe');
    await field(dialog, 'E-Mail').fill('kontakt@sanitaerkontor-elbe.example');
    await field(dialog, 'E-Mail-Adressen für Bestellungen \\(durch ; getrennt\\)').fill(
      'auftrag@sanitaerkontor-elbe.example; kopie',
    );
    await field(dialog, 'Kundenanfragen an').fill('kunden@sanitaerkontor-elbe.example');
    await field(dialog, 'Neukundenanfragen an').fill('neukunden@sanitaerkontor-elbe.example');
    await dialog.getByRole('button', { name: 'Speichern', exact: true }).click();
    await expect(dialog.getByText('Bitte überprüfen Sie Ihre Eingabe.')).toBeVisible();
    await field(dialog, 'E-Mail-Adressen für Bestellungen \\(durch ; getrennt\\)').fill(
      'auftrag@sanitaerkontor-elbe.example; kopie@sanitaerkontor-elbe.example',
    );
    await dialog.getByRole('button', { name: 'Speichern', exact: true }).click();
    await expect(toastWith(page, 'Der Lieferant wurde angelegt.')).toBeVisible();

    // Active needs a logo: refused in the form before the logo is there.
    await choose(page, dialog, 'Status', 'Aktiv');
    await dialog.getByRole('button', { name: 'Speichern', exact: true }).click();
    await expect(dialog.getByText('Bitte fügen Sie zunächst ein Logo hinzu, oder ändern den Status')).toBeVisible();

    await dialog.locator('input[type="file"][accept*=".svg"]').setInputFiles({
      name: 'sanitaerkontor.svg',
      mimeType: 'image/svg+xml',
      buffer: LOGO,
    });
    await expect(toastWith(page, 'Das Logo wurde gespeichert.')).toBeVisible();
    const logo = dialog.getByRole('img', { name: `Logo ${NEWCOMER}` });
    await expect(logo).toBeVisible();
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    await choose(page, dialog, 'Status', 'Aktiv');
    await dialog.getByRole('button', { name: 'Speichern', exact: true }).click();
    await expect(toastWith(page, 'Die Lieferantendaten wurden gespeichert.')).toBeVisible();

    await dialog.getByRole('tab', { name: 'Änderungsprotokoll' }).click();
    const trail = dialog.getByRole('table', { name: 'Änderungsprotokoll' });
    await expect(trail.getByRole('row').filter({ hasText: 'Status' }).filter({ hasText: '2' }).first()).toContainText(
      '1',
    );
    await expect(trail.getByRole('row').filter({ hasText: 'Logo' }).first()).toContainText('sanitaerkontor.svg');
    await expect(trail).toContainText('admin@example.com');
    await page.keyboard.press('Escape');

    await page.getByRole('searchbox', { name: 'Suche' }).fill('Elbe');
    await page.getByRole('searchbox', { name: 'Suche' }).press('Enter');
    const row = page.getByRole('table', { name: 'Lieferanten' }).getByRole('row').filter({ hasText: '200010' });
    await expect(row).toContainText('Aktiv');
    await expect(row.getByRole('img', { name: `Logo ${NEWCOMER}` })).toBeVisible();
  });
});

test.describe('Buyer', () => {
  test.use({ storageState: sessionFile('buyer') });

  test("finds the new supplier's offers with its logo", async ({ page }) => {
    const filters = Buffer.from(
      JSON.stringify([{ columnName: 'supplierID', filterType: 'Auswahl', filterValue: [{ value: '200010' }] }]),
    ).toString('base64');
    await page.goto(`/suche?page=1&filters=${encodeURIComponent(filters)}`);
    const cardLogo = page.getByRole('img', { name: `Logo ${NEWCOMER}` }).first();
    await expect(cardLogo).toBeVisible();
    await expect.poll(() => cardLogo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expect(page.getByText(`(${NEWCOMER})`).first()).toBeVisible();

    // Every hit of this filter has an offer of the newcomer; its product page lists that offer with the logo.
    await page.getByTestId('card-name').first().click();
    const offer = page.getByTestId('offer').filter({ hasText: NEWCOMER });
    await expect(offer.getByRole('img', { name: `Logo ${NEWCOMER}` })).toBeVisible();
  });
});

test.describe('Support', () => {
  test.use({ storageState: sessionFile('support') });

  test('sees the same supplier read-only', async ({ page }) => {
    await page.goto('/admin');
    await expect(pageHeading(page)).toHaveText('Lieferanten');
    await expect(page.getByRole('button', { name: 'Lieferant hinzufügen' })).toHaveCount(0);
    await page.getByRole('searchbox', { name: 'Suche' }).fill('Elbe');
    await page.getByRole('searchbox', { name: 'Suche' }).press('Enter');
    await page.getByRole('button', { name: `Info: ${NEWCOMER}` }).click();
    const dialog = page.getByRole('dialog', { name: `${NEWCOMER} (200010) – Details` });
    await expect(dialog.getByRole('img', { name: `Logo ${NEWCOMER}` })).toBeVisible();
    await expect(field(dialog, 'Kundenanfragen an')).toHaveValue('kunden@sanitaerkontor-elbe.example');
    await expect(field(dialog, 'Kundenanfragen an')).not.toBeEditable();
    await expect(dialog.getByRole('button', { name: 'Speichern', exact: true })).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Logo hochladen' })).toHaveCount(0);
    await dialog.getByRole('tab', { name: 'Änderungsprotokoll' }).click();
    await expect(dialog.getByRole('table', { name: 'Änderungsprotokoll' })).toContainText('sanitaerkontor.svg');
  });
});
