import { expect, test } from '@playwright/test';
import { sessionFile } from './support/demo';
import { pageHeading } from './support/session';

test.use({ storageState: sessionFile('buyer2') });

const field = (page: import('@playwright/test').Page, label: string) =>
  page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');

test('Mein Profil zeigt Benutzer- und Firmendaten', async ({ page }) => {
  await page.goto('/profil');
  await expect(pageHeading(page)).toHaveText('Mein Profil');
  await expect(page).toHaveTitle('SHK-Bestellportal | Mein Profil');
  await expect(field(page, 'Vorname')).toHaveText('Bernd');
  await expect(field(page, 'Nachname')).toHaveText('Becker');
  await expect(field(page, 'Geschäftspartnernummer')).toHaveText('100003');
  await expect(field(page, 'Rolle')).toHaveText('Einkäufer');
  await expect(field(page, 'Name')).toHaveText('Wärme & Wasser Becker e.K.');
  await expect(field(page, 'Straße')).toHaveText('Hafenweg');
  await expect(field(page, 'Hausnummer')).toHaveText('7');
  await expect(field(page, 'Postleitzahl')).toHaveText('20457');
  await expect(field(page, 'Ort')).toHaveText('Hamburg');
  await expect(field(page, 'Land')).toHaveText('Deutschland');
  await expect(field(page, 'Telefon')).toHaveText('+49 40 998877-0');
  await expect(field(page, 'Fax')).toHaveText('+49 40 998877-1');
  await expect(field(page, 'Website')).toHaveText('https://becker-ww.example');
  await expect(field(page, 'Steuernummer')).toHaveText('46/123/45678');
});

test.describe('Änderungsantrag der Firmendaten', () => {
  test('prüft die Eingaben und meldet den Erfolg', async ({ page }) => {
    await page.goto('/profil');
    await page.getByRole('button', { name: 'Änderung beantragen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Änderung der Firmendaten beantragen' });
    await expect(dialog.getByLabel('E-Mail-Adresse')).toHaveValue('einkauf2@example.com');

    await dialog.getByLabel('E-Mail-Adresse').fill('');
    await dialog.getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(dialog.getByText('Pflichtfeld')).toHaveCount(2);

    await dialog.getByLabel('Nachricht').fill('Bitte ändern Sie unsere Faxnummer in +49 40 998877-2.');
    await dialog.getByLabel('E-Mail-Adresse').fill('keine-adresse');
    await expect(dialog.getByText('Bitte überprüfen Sie Ihre Eingabe.')).toBeVisible();

    await dialog.getByLabel('E-Mail-Adresse').fill('einkauf2@example.com');
    await dialog.getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Ihre Anfrage wurde erfolgreich gesendet.' })).toBeVisible();
    await expect(dialog).toBeHidden();
  });

  test('meldet einen Fehler des Servers', async ({ page }) => {
    await page.route('**/v1/SupportRequests/PartnerDataChange', (route) =>
      route.fulfill({ status: 500, contentType: 'application/problem+json', body: JSON.stringify({ type: 'internal-error', title: 'Fehler', status: 500 }) }));
    await page.goto('/profil');
    await page.getByRole('button', { name: 'Änderung beantragen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Änderung der Firmendaten beantragen' });
    await dialog.getByLabel('Nachricht').fill('Neue Adresse: Hafenweg 9');
    await dialog.getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Leider konnte Ihre Anfrage nicht gesendet werden. Bitte versuchen Sie es später erneut.' })).toBeVisible();
    await expect(dialog).toBeVisible();
  });
});
