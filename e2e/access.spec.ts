import { expect, test } from '@playwright/test';
import { demoUsers, routeUrls, sessionFile, type RouteKey } from './support/demo';
import {
  clearGuardDecisions,
  guardDecision,
  mainMenu,
  navigateInApp,
  pageHeading,
  presetCookieConsent,
  submitLoginForm,
} from './support/session';

const tableRoutes = Object.entries(routeUrls) as [RouteKey, string][];

/**
 * The spec's role × route table. The route guard's own decision is checked (not the page content, which
 * later issues fill in and which may redirect by itself), plus where a refused route leads: the role's
 * first allowed route, '/'.
 */
for (const user of demoUsers) {
  test.describe(`Rolle ${user.roleLabel} (${user.email})`, () => {
    test.use({ storageState: sessionFile(user.key) });

    test('darf genau die Routen der Tabelle öffnen', async ({ page }) => {
      test.slow(); // 18 routes, some of them real pages with data
      // Start on a public page, so that opening '/' mounts the home route afresh.
      await page.goto('/impressum');
      await expect(mainMenu(page)).toBeVisible();
      for (const [key, url] of tableRoutes) {
        await clearGuardDecisions(page);
        await navigateInApp(page, url);
        const allowed = user.allowed.includes(key);
        expect(await guardDecision(page, key), `${user.email} auf ${url}`).toBe(allowed ? 'allowed' : 'denied');
        if (!allowed)
          await expect(page, `${url} führt zur Startseite`).toHaveURL((current) => current.pathname === '/');
      }
    });
  });
}

test.describe('Nicht angemeldet', () => {
  test.beforeEach(async ({ page }) => presetCookieConsent(page));

  test('sieht auf jeder geschützten Route den Willkommen-Bildschirm', async ({ page }) => {
    test.slow();
    await page.goto('/impressum');
    // The router listens for history changes only once the app has rendered: a navigation before it is lost.
    await expect(pageHeading(page)).toHaveText('Impressum');
    for (const [key, url] of [...tableRoutes, ['signedIn', '/version'] as const]) {
      await clearGuardDecisions(page);
      await navigateInApp(page, url);
      expect(await guardDecision(page, key), url).toBe('login');
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
    await expect(page.getByRole('button', { name: 'Anmelden' })).toHaveCount(0);
  });

  test('kommt nach der Anmeldung auf die zuvor aufgerufene Seite zurück', async ({ page }) => {
    await page.goto('/meine-lieferanten');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await submitLoginForm(page, 'einkauf2@example.com');
    await expect(page).toHaveURL((url) => url.pathname === '/meine-lieferanten');
    await expect(mainMenu(page).getByRole('link', { name: 'Meine Lieferanten' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });
});

test.describe('Unerlaubte Route beim direkten Aufruf', () => {
  test.use({ storageState: sessionFile('seller') });

  test('führt einen Verkäufer von /admin und /my-carts auf seine erste erlaubte Route', async ({ page }) => {
    for (const [key, url] of [
      ['admin', '/admin'],
      ['myCarts', '/my-carts'],
    ] as const) {
      await page.goto(url);
      expect(await guardDecision(page, key)).toBe('denied');
      await expect(page).toHaveURL((current) => current.pathname === '/');
      expect(await guardDecision(page, 'home')).toBe('allowed');
    }
  });
});
