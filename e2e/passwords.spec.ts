import { randomBytes } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { sessionFile } from './support/demo';
import { layoutProblems } from './support/layout-check';
import { mailDir, passwordLinkFor } from './support/mails';
import { pageHeading, presetCookieConsent, submitLoginForm } from './support/session';

/**
 * Passwords in the browser: staff invite a person ('Benutzer einladen'), the person sets a password through the
 * mailed link on a phone and signs in, changes it on 'Mein Profil', and gets a new one through 'Passwort vergessen?'.
 * The provider's pages (login, password) must fit 360 px and link Impressum and Datenschutz.
 */
test.describe.configure({ mode: 'serial' });
test.skip(!mailDir(), 'braucht den Mail-Ordner des Servers (node scripts/e2e.mjs setzt E2E_AUTH_DIR)');

const email = `eingeladen-${randomBytes(4).toString('hex')}@example.com`;
const FIRST = 'Abfluss gluckert seit dem Frühjahr';
const SECOND = 'Zweites Passwort für den Test';
const THIRD = 'Drittes Passwort nach dem Vergessen';

async function phone(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'de-DE' });
  const page = await context.newPage();
  await presetCookieConsent(page);
  return page;
}

const fitsPhone = async (page: Page) => expect(await layoutProblems(page)).toEqual([]);

test.describe('Passwörter', () => {
  test('Support lädt eine Einkäuferin per E-Mail ein', async ({ browser }) => {
    const context = await browser.newContext({ storageState: sessionFile('support') });
    const page = await context.newPage();
    await page.goto('/geschaeftspartner');
    await page.getByRole('button', { name: 'Benutzer einladen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Benutzer einladen' });
    await dialog.getByLabel('E-Mail-Adresse').fill(email);
    await dialog.getByLabel('Vorname').fill('Ina');
    await dialog.getByLabel('Nachname').fill('Neu');
    // Support may invite buyers and sellers only.
    const role = dialog.getByRole('combobox', { name: /Rolle/ });
    await expect(role.locator('option')).toHaveText(['Einkäufer', 'Verkäufer']);
    await role.selectOption({ label: 'Verkäufer' });
    // The API's rule, shown under the field: a seller needs a business partner.
    await dialog.getByRole('button', { name: 'Einladen' }).click();
    await expect(dialog.getByText('Einkäufer und Verkäufer brauchen mindestens einen Geschäftspartner.')).toBeVisible();

    await role.selectOption({ label: 'Einkäufer' });
    await dialog.getByLabel('Geschäftspartnernummern').fill('100001');
    await dialog.getByRole('button', { name: 'Einladen' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: `Die Einladung an ${email} wurde versandt.` }),
    ).toBeVisible();
    await context.close();
  });

  test('Die Eingeladene legt am Handy ihr Passwort fest, meldet sich an und ändert es im Profil', async ({
    browser,
  }) => {
    const link = await passwordLinkFor(email, 'Konto im SHK-Bestellportal angelegt');
    const page = await phone(browser);
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Willkommen – Passwort festlegen');
    await fitsPhone(page);

    // The list of common passwords (checked by the server).
    await page.getByLabel('Neues Passwort', { exact: true }).fill('passwort1234');
    await page.getByLabel('Neues Passwort wiederholen').fill('passwort1234');
    await page.getByRole('button', { name: 'Passwort speichern' }).click();
    await expect(page.getByRole('alert')).toContainText('Dieses Passwort ist zu verbreitet');
    await fitsPhone(page);

    await page.getByLabel('Neues Passwort', { exact: true }).fill(FIRST);
    await page.getByLabel('Neues Passwort wiederholen').fill(FIRST);
    await page.getByRole('button', { name: 'Passwort speichern' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Passwort festgelegt');

    await page.getByRole('link', { name: 'Zur Anmeldung' }).click();
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL(/\/auth\/interaction\//);
    // The login page: legal links, 'Passwort vergessen?', the portal's typeface, 360 px.
    await expect(page.getByRole('link', { name: 'Impressum' })).toHaveAttribute('href', '/impressum');
    await expect(page.getByRole('link', { name: 'Datenschutz' })).toHaveAttribute('href', '/datenschutz');
    await expect(page.getByRole('link', { name: 'Passwort vergessen?' })).toBeVisible();
    await fitsPhone(page);
    const loginFont = await page.evaluate(() => getComputedStyle(document.body).fontFamily);

    await submitLoginForm(page, email, FIRST);
    await page.waitForURL((url) => !url.pathname.startsWith('/auth'));
    await expect(page.getByRole('button', { name: 'Menü öffnen' })).toBeVisible();
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toBe(loginFont);

    await page.goto('/profil');
    await expect(pageHeading(page)).toHaveText('Mein Profil');
    const card = page.getByRole('region', { name: 'Passwort ändern' });
    await card.locator('input[name="currentPassword"]').fill('falsches Passwort');
    // The form's own rules (the contracts' schema) …
    await card.locator('input[name="newPassword"]').fill('kurz');
    await card.locator('input[name="newPasswordRepeat"]').fill('anders');
    await card.getByRole('button', { name: 'Passwort ändern' }).click();
    await expect(card.getByText('Das Passwort muss mindestens 12 Zeichen lang sein.')).toBeVisible();
    await expect(card.getByText('Die beiden Passwörter stimmen nicht überein.')).toBeVisible();
    // … and the server's: the current password.
    await card.locator('input[name="newPassword"]').fill(SECOND);
    await card.locator('input[name="newPasswordRepeat"]').fill(SECOND);
    await card.getByRole('button', { name: 'Passwort ändern' }).click();
    await expect(card.getByText('Das aktuelle Passwort ist falsch.')).toBeVisible();
    await fitsPhone(page);

    await card.locator('input[name="currentPassword"]').fill(FIRST);
    await card.getByRole('button', { name: 'Passwort ändern' }).click();
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: 'Ihr Passwort wurde geändert. Ihre anderen Anmeldungen wurden beendet.' }),
    ).toBeVisible();
    await expect(card.locator('input[name="currentPassword"]')).toHaveValue('');
    await page.context().close();
  });

  test("'Passwort vergessen?' am Handy: Link per E-Mail, neues Passwort, der Link gilt nur einmal", async ({
    browser,
  }) => {
    const page = await phone(browser);
    await page.goto('/');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL(/\/auth\/interaction\//);
    await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Passwort vergessen?');
    await fitsPhone(page);
    await page.getByLabel('E-Mail-Adresse').fill(email);
    await page.getByRole('button', { name: 'Link anfordern' }).click();
    await expect(page.getByRole('status')).toContainText('Wenn zu dieser E-Mail-Adresse ein Konto besteht');
    await fitsPhone(page);

    const link = await passwordLinkFor(email, 'neues Passwort angefordert');
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Neues Passwort festlegen');
    await fitsPhone(page);
    await page.getByLabel('Neues Passwort', { exact: true }).fill(THIRD);
    await page.getByLabel('Neues Passwort wiederholen').fill(THIRD);
    await page.getByRole('button', { name: 'Passwort speichern' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Passwort festgelegt');

    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Link ungültig');
    await expect(page.getByRole('alert')).toContainText('Dieser Link ist nicht mehr gültig');
    await fitsPhone(page);

    await page.goto('/');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await submitLoginForm(page, email, THIRD);
    await page.waitForURL((url) => !url.pathname.startsWith('/auth'));
    await page.context().close();
  });
});
