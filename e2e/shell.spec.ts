import { expect, test } from '@playwright/test';
import { sessionFile } from './support/demo';
import { mainMenu, menuEntries, pageHeading } from './support/session';

test.describe('Kopf mit nur einem Geschäftspartner', () => {
  test.use({ storageState: sessionFile('seller') });

  test('zeigt den Partnernamen, die Auswahl ist gesperrt und es gibt keinen Warenkorb', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('current-partner')).toHaveText('Nordbad Großhandel');
    await expect(page.getByTestId('partner-switch')).toBeDisabled();
    await expect(page.getByRole('link', { name: 'Warenkorb' })).toHaveCount(0);
  });
});

test.describe('Kopf ohne Geschäftspartner', () => {
  test.use({ storageState: sessionFile('admin') });

  test('zeigt E-Mail-Adresse und Rolle', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('current-user')).toContainText('admin@example.com');
    await expect(page.getByTestId('current-user')).toContainText('Administrator');
  });
});

test.describe('Shell für Einkäufer', () => {
  test.use({ storageState: sessionFile('buyer2') });

  test('hat Warenkorb-Widget, Seitentitel, Fußzeile und springt bei Navigation nach oben', async ({ page }) => {
    await page.goto('/impressum');
    await expect(page.getByRole('link', { name: 'Warenkorb' })).toBeVisible();
    await expect(page).toHaveTitle('SHK-Bestellportal | Impressum');
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText('Das digitale Bestellportal der');
    await expect(footer.getByRole('link', { name: 'support@shk-bestellportal.example' })).toHaveAttribute(
      'href',
      'mailto:support@shk-bestellportal.example',
    );
    await expect(footer.getByTestId('support-phone')).toHaveAttribute('href', /^tel:\+49/);

    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await mainMenu(page).getByRole('link', { name: 'Mein Profil' }).click();
    await expect(pageHeading(page)).toHaveText('Mein Profil');
    await expect(page).toHaveTitle('SHK-Bestellportal | Mein Profil');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('zeigt unter 1200 px das Menü hinter dem Burger-Button', async ({ page }) => {
    await page.setViewportSize({ width: 1000, height: 800 });
    await page.goto('/');
    await expect(mainMenu(page)).toBeHidden();
    await page.getByRole('button', { name: 'Menü öffnen' }).click();
    await expect(menuEntries(page)).toHaveText([
      'Suche',
      'Meine Favoriten',
      'Meine Warenkörbe',
      'Meine Bestellungen',
      'Meine Lieferanten',
      'Mein Profil',
      'Abmelden',
    ]);
    await mainMenu(page).getByRole('link', { name: 'Meine Lieferanten' }).click();
    await expect(pageHeading(page)).toHaveText('Meine Lieferanten');
    await expect(mainMenu(page)).toBeHidden();
  });
});
