import { expect, test } from '@playwright/test';
import { sessionFile } from './support/demo';
import { pageHeading, presetCookieConsent } from './support/session';

test.describe('Angemeldet', () => {
  test.use({ storageState: sessionFile('none') });

  test('/version zeigt UI- und API-Version', async ({ page }) => {
    await page.goto('/version');
    await expect(pageHeading(page)).toHaveText('Version');
    await expect(page.getByTestId('ui-version')).toHaveText('1.14.0-alpha.3');
    await expect(page.getByTestId('api-version')).toHaveText(/^\d+\.\d+\.\d+/);
  });

  test('Rolle ohne Berechtigung sieht nur die Startseite mit Hinweis', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByText('Ihrem Benutzerkonto ist noch keine Rolle zugewiesen.')).toBeVisible();
    await expect(page.getByTestId('current-user')).toContainText('gast@example.com');
    await expect(page.getByTestId('current-user')).toContainText('Keine Rolle');
  });
});

test.describe('Öffentliche Seiten', () => {
  test.beforeEach(async ({ page }) => presetCookieConsent(page));

  test('Datenschutz nennt Stand, Dienste und Fristen', async ({ page }) => {
    await page.goto('/datenschutz');
    const text = page.getByTestId('legal-text');
    await expect(text).toContainText('Stand: 21.04.2025');
    for (const topic of ['Consent-Tool', 'Webanalyse', 'Tag-Manager', 'Fehlerberichte', 'Videodienste', 'Hosting']) {
      await expect(text).toContainText(topic);
    }
    await expect(text).toContainText('6 Monate');
    await expect(text).toContainText('bis zu 10 Jahren');
    await expect(text).toContainText('alle drei Jahre');
  });

  test('AGB haben 8 nummerierte Abschnitte und deutsches Recht', async ({ page }) => {
    await page.goto('/agb');
    await expect(page.getByTestId('legal-text').getByRole('heading', { level: 2 })).toHaveText([
      /^§ 1 /,
      /^§ 2 /,
      /^§ 3 /,
      /^§ 4 /,
      /^§ 5 /,
      /^§ 6 /,
      /^§ 7 /,
      /^§ 8 /,
    ]);
    await expect(page.getByTestId('legal-text')).toContainText('Recht der Bundesrepublik Deutschland');
    await expect(page.getByTestId('legal-text')).toContainText('Gerichtsstand');
  });

  test('/unauthorized nennt die zu prüfenden Angaben', async ({ page }) => {
    await page.goto('/unauthorized');
    await expect(pageHeading(page)).toHaveText('Fehler 401 - Nicht autorisiert');
    await expect(page.getByText('Kundennummer (Geschäftspartnernummer)')).toBeVisible();
    await expect(page.getByText('Benutzernamen (E-Mail-Adresse)')).toBeVisible();
    await expect(page.getByText('Passwort', { exact: false }).first()).toBeVisible();
  });

  test('/ids-bad-request erklärt VE002_NotEmpty und VE007_ValueNotInRange', async ({ page }) => {
    await page.goto('/ids-bad-request?property=version&error=VE002_NotEmpty');
    await expect(page.getByTestId('ids-property')).toHaveText('version');
    await expect(page.getByTestId('ids-error')).toHaveText('VE002_NotEmpty');
    await expect(
      page.getByText('Die Version ist ein Pflichtfeld. Die Plattform unterstützt die Versionen 2.0 und 2.5.'),
    ).toBeVisible();

    await page.goto('/ids-bad-request?property=version&error=VE007_ValueNotInRange');
    await expect(
      page.getByText('Die Plattform unterstützt die Versionen 2.0 und 2.5.', { exact: false }),
    ).toBeVisible();
  });
});
