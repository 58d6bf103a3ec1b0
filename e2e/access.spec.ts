import { expect, test } from '@playwright/test';
import { demoUsers, routeHeadings, routeUrls, sessionFile, type RouteKey } from './support/demo';
import { mainMenu, navigateInApp, pageHeading, presetCookieConsent, submitLoginForm } from './support/session';

const tableRoutes = Object.entries(routeUrls) as [RouteKey, string][];

/** The spec's role × route table: allowed routes open, all others lead to the role's first allowed route ('/'). */
for (const user of demoUsers) {
  test.describe(`Rolle ${user.roleLabel} (${user.email})`, () => {
    test.use({ storageState: sessionFile(user.key) });

    test('öffnet genau die erlaubten Routen der Tabelle', async ({ page }) => {
      await page.goto('/');
      for (const [key, url] of tableRoutes) {
        await navigateInApp(page, url);
        const allowed = user.allowed.includes(key);
        // Allowed: the route's own page. Otherwise: the role's first allowed route, the home page.
        await expect(pageHeading(page), `${user.email} auf ${url}`).toHaveText(allowed ? routeHeadings[key] : 'Startseite');
        await expect(page).toHaveURL((current) => current.pathname === (allowed ? url : '/'));
        await expect(page).toHaveTitle(`SHK-Bestellportal | ${allowed ? routeHeadings[key] : 'Startseite'}`);
        await expect(mainMenu(page)).toBeVisible();
      }
    });
  });
}

test.describe('Nicht angemeldet', () => {
  test.beforeEach(async ({ page }) => presetCookieConsent(page));

  test('sieht auf jeder geschützten Route den Willkommen-Bildschirm', async ({ page }) => {
    await page.goto('/');
    for (const url of [...Object.values(routeUrls), '/version']) {
      await navigateInApp(page, url);
      await expect(pageHeading(page), url).toHaveText('Willkommen');
      await expect(page.getByRole('button', { name: 'Anmelden' })).toBeVisible();
      await expect(page).toHaveURL((current) => current.pathname === url);
    }
  });

  test('erreicht die öffentlichen Seiten ohne Anmeldung', async ({ page }) => {
    const publicPages: [string, string][] = [
      ['/impressum', 'Impressum'],
      ['/datenschutz', 'Datenschutzerklärung'],
      ['/agb', 'Allgemeine Geschäftsbedingungen'],
      ['/cookie-declaration', 'Cookie-Erklärung'],
      ['/unauthorized', 'Fehler 401 - Nicht autorisiert'],
      ['/ids-bad-request', 'Fehler 400 - Ungültige Anfrage'],
    ];
    for (const [url, heading] of publicPages) {
      await page.goto(url);
      await expect(pageHeading(page), url).toHaveText(heading);
    }
    await page.goto('/ids');
    await expect(pageHeading(page)).not.toHaveText('Willkommen');
  });

  test('kommt nach der Anmeldung auf die zuvor aufgerufene Seite zurück', async ({ page }) => {
    await page.goto('/meine-lieferanten');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await submitLoginForm(page, 'einkauf2@example.com');
    await expect(page).toHaveURL((url) => url.pathname === '/meine-lieferanten');
    await expect(pageHeading(page)).toHaveText('Meine Lieferanten');
  });
});

test.describe('Unerlaubte Route beim direkten Aufruf', () => {
  test.use({ storageState: sessionFile('seller') });

  test('leitet einen Verkäufer von /admin und /my-carts auf seine erste erlaubte Route um', async ({ page }) => {
    for (const url of ['/admin', '/my-carts']) {
      await page.goto(url);
      await expect(page).toHaveURL((current) => current.pathname === '/');
      await expect(pageHeading(page)).toHaveText('Startseite');
    }
  });
});
