import { expect, test } from '@playwright/test';
import { sessionFile } from './support/demo';
import { pageHeading } from './support/session';
import { apiFromPage } from './support/relations';

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
    await expect(
      page.getByRole('status').filter({ hasText: 'Ihre Anfrage wurde erfolgreich gesendet.' }),
    ).toBeVisible();
    await expect(dialog).toBeHidden();
  });

  test('meldet einen Fehler des Servers', async ({ page }) => {
    await page.route('**/v1/SupportRequests/PartnerDataChange', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/problem+json',
        body: JSON.stringify({ type: 'internal-error', title: 'Fehler', status: 500 }),
      }),
    );
    await page.goto('/profil');
    await page.getByRole('button', { name: 'Änderung beantragen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Änderung der Firmendaten beantragen' });
    await dialog.getByLabel('Nachricht').fill('Neue Adresse: Hafenweg 9');
    await dialog.getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: 'Leider konnte Ihre Anfrage nicht gesendet werden. Bitte versuchen Sie es später erneut.' }),
    ).toBeVisible();
    await expect(dialog).toBeVisible();
  });
});

test.describe('Mein Profil eines Verkäufers', () => {
  test.use({ storageState: sessionFile('seller') });

  test('zeigt Lieferantendaten und Schnittstellen des eigenen Lieferanten (nur lesend)', async ({ page }) => {
    await page.goto('/profil');
    await expect(pageHeading(page)).toHaveText('Mein Profil');
    const details = page.getByRole('region', { name: 'Lieferantendaten' });
    const interfaces = page.getByRole('region', { name: 'Schnittstellen' });
    await expect(details).toBeVisible();
    await expect(interfaces).toBeVisible();
    const value = (region: typeof details, label: string) =>
      region.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');

    // What the API says about supplier 200001 (verkauf@ works for it) is what the panels show.
    const api = await apiFromPage<{
      gln: string | null;
      supplierStatusId: number;
      inboundInterface: { communicationProtocolId: number; dataFormats: number[] };
      outboundInterface: { communicationProtocolId: number; dataFormats: number[] };
    }>(page, 'GET', '/v1/Suppliers/200001/Interfaces');
    expect(api.status).toBe(200);
    const status: Record<number, string> = { 1: 'Aktiv', 2: 'Inaktiv', 3: 'Im Kommunikationstest' };
    // German display names, not the API's enum names ('Sftp', 'Edi_96A').
    const protocol: Record<number, string> = { 1: 'E-Mail', 2: 'SFTP', 3: 'AS2', 4: 'HTTP', 5: 'FTP', 6: 'API' };
    const format: Record<number, string> = { 1: 'PDF', 2: 'EDIFACT D.96A', 3: 'EDIFACT D.97A' };
    const formats = (ids: number[]) => ids.map((id) => format[id]).join(', ');
    const i = api.data;
    if (i.gln) await expect(value(interfaces, 'GLN')).toHaveText(i.gln);
    await expect(value(interfaces, 'Status')).toHaveText(status[i.supplierStatusId]);
    await expect(value(interfaces, 'Protokoll \\(eingehend\\)')).toHaveText(
      protocol[i.inboundInterface.communicationProtocolId],
    );
    await expect(value(interfaces, 'Datenformate \\(eingehend\\)')).toHaveText(formats(i.inboundInterface.dataFormats));
    await expect(value(interfaces, 'Protokoll \\(ausgehend\\)')).toHaveText(
      protocol[i.outboundInterface.communicationProtocolId],
    );
    await expect(value(interfaces, 'Datenformate \\(ausgehend\\)')).toHaveText(
      formats(i.outboundInterface.dataFormats),
    );

    await expect(value(details, 'Status')).toHaveText(status[i.supplierStatusId]);
    await expect(value(details, 'Lieferkosten')).toContainText('€');
    await expect(value(details, 'Bruttopreis ausgeblendet')).toHaveText(/^(Ja|Nein)$/);
    // Read-only: no inputs and no save button in either panel.
    await expect(details.locator('input, textarea, select')).toHaveCount(0);
    await expect(interfaces.locator('input, textarea, select')).toHaveCount(0);
    await expect(interfaces.getByRole('button')).toHaveCount(0);
  });
});

test('E-Mail-Benachrichtigungen: the user chooses the order mails, saved for the next visit', async ({ page }) => {
  await page.goto('/profil');
  const card = page.getByRole('region', { name: 'E-Mail-Benachrichtigungen' });
  await expect(card).toContainText('einkauf2@example.com');
  const placed = card.getByRole('checkbox', { name: /Bestellung aufgegeben/ });
  const changed = card.getByRole('checkbox', { name: 'Bestellung vom Lieferanten mit Änderungen bestätigt' });
  await expect(placed).toBeChecked();
  await expect(changed).toBeChecked();
  await placed.uncheck();
  await card.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByTestId('toasts').getByText('Ihre E-Mail-Einstellungen wurden gespeichert.')).toBeVisible();
  try {
    await page.reload();
    await expect(card.getByRole('checkbox', { name: /Bestellung aufgegeben/ })).not.toBeChecked();
    await expect(changed).toBeChecked();
  } finally {
    await card.getByRole('checkbox', { name: /Bestellung aufgegeben/ }).check();
    await card.getByRole('button', { name: 'Speichern' }).click();
    await expect(
      page.getByTestId('toasts').getByText('Ihre E-Mail-Einstellungen wurden gespeichert.').first(),
    ).toBeVisible();
  }
});
