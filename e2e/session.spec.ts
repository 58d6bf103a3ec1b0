import { expect, test } from '@playwright/test';
import { loginThroughUi, mainMenu, pageHeading, presetCookieConsent, submitLoginForm } from './support/session';

test.beforeEach(async ({ page }) => presetCookieConsent(page));

test('falsches Passwort zeigt den deutschen Fehler der Anmeldeseite', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await submitLoginForm(page, 'einkauf@example.com', 'falsch');
  await expect(page.getByRole('alert')).toHaveText('E-Mail-Adresse oder Passwort ist falsch.');
  await expect(page.locator('input[name="login"]')).toHaveValue('einkauf@example.com');
});

test('Abmelden beendet die Sitzung wirklich', async ({ page }) => {
  await loginThroughUi(page, 'einkauf2@example.com');
  await page.goto('/profil');
  await expect(pageHeading(page)).toHaveText('Mein Profil');
  await page.evaluate(() => sessionStorage.setItem('shk.currentCartId', 'cart-1'));

  await mainMenu(page).getByRole('button', { name: 'Abmelden' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/');
  await expect(pageHeading(page)).toHaveText('Willkommen');
  expect(await page.evaluate(() => sessionStorage.getItem('shk.currentCartId'))).toBeNull();
  expect(
    await page.evaluate(() =>
      [...Object.keys(localStorage), ...Object.keys(sessionStorage)].filter(
        (k) => k.startsWith('oidc.user') || k === 'shk.signedIn',
      ),
    ),
  ).toEqual([]);

  // Going back shows the welcome screen, not the profile.
  await page.goBack();
  await expect(pageHeading(page)).toHaveText('Willkommen');

  // The identity provider's session is over too: signing in asks for the password again.
  await page.goto('/');
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.locator('input[name="password"]')).toBeVisible();
});

test('ein abgelaufenes Zugangstoken wird beim Öffnen einer Seite still erneuert', async ({ page }) => {
  await loginThroughUi(page, 'einkauf2@example.com');
  await page.goto('/profil');
  await expect(pageHeading(page)).toHaveText('Mein Profil');

  // As after a lunch break: the stored token ran out while no page was open; the provider session lives on.
  const expiredAt = Math.floor(Date.now() / 1000) - 60;
  await page.evaluate((at) => {
    const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user'))!;
    sessionStorage.setItem(key, JSON.stringify({ ...JSON.parse(sessionStorage.getItem(key)!), expires_at: at }));
  }, expiredAt);

  await page.reload();
  await expect(pageHeading(page)).toHaveText('Mein Profil');
  const renewedUntil = await page.evaluate(() => {
    const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user'))!;
    return JSON.parse(sessionStorage.getItem(key)!).expires_at as number;
  });
  expect(renewedUntil).toBeGreaterThan(Math.floor(Date.now() / 1000));
});

test('Tokens liegen nicht im dauerhaften Speicher; Neuladen und ein neuer Tab bleiben angemeldet', async ({ page }) => {
  await loginThroughUi(page, 'einkauf2@example.com');
  await page.goto('/profil');
  await expect(pageHeading(page)).toHaveText('Mein Profil');
  const persistent = () =>
    page.evaluate(() =>
      Object.entries(localStorage)
        .filter(([, value]) => /access_token|id_token|refresh_token|eyJ/.test(value))
        .map(([key]) => key),
    );
  expect(await persistent()).toEqual([]);
  expect(await page.evaluate(() => Object.keys(sessionStorage).some((k) => k.startsWith('oidc.user:')))).toBe(true);

  await page.reload();
  await expect(pageHeading(page)).toHaveText('Mein Profil');

  // A new tab has its own (empty) sessionStorage: it signs in silently through the provider session.
  const tab = await page.context().newPage();
  await tab.goto('/profil');
  await expect(pageHeading(tab)).toHaveText('Mein Profil');
  await expect(mainMenu(tab)).toBeVisible();
  expect(await tab.evaluate(() => Object.keys(sessionStorage).some((k) => k.startsWith('oidc.user:')))).toBe(true);
  expect(
    await tab.evaluate(
      () => Object.entries(localStorage).filter(([, value]) => /access_token|id_token|eyJ/.test(value)).length,
    ),
  ).toBe(0);
  await tab.close();
});

test('eine Seite mit gültigem Token lädt die OIDC-Bibliothek nicht; ein offener Tab erneuert das Token vor dem Ablauf', async ({
  page,
}) => {
  await loginThroughUi(page, 'einkauf2@example.com');
  await page.goto('/profil');
  await expect(pageHeading(page)).toHaveText('Mein Profil');

  // A page load with a stored, unexpired token renders without oidc-client-ts (its chunk: user-manager-*.js).
  const oidcChunks: string[] = [];
  page.on('request', (request) => {
    if (/\/assets\/user-manager-[^/]*\.js$/.test(request.url())) oidcChunks.push(request.url());
  });
  await page.reload();
  await expect(pageHeading(page)).toHaveText('Mein Profil');
  await expect(mainMenu(page)).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(oidcChunks).toEqual([]);

  // Shortly before the token runs out (oidc-client-ts renews 60 s ahead), the open tab loads the library and renews.
  const readExpiry = () =>
    page.evaluate(() => {
      const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user'))!;
      return JSON.parse(sessionStorage.getItem(key)!).expires_at as number;
    });
  const soon = Math.floor(Date.now() / 1000) + 63;
  await page.evaluate((at) => {
    const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user'))!;
    sessionStorage.setItem(key, JSON.stringify({ ...JSON.parse(sessionStorage.getItem(key)!), expires_at: at }));
  }, soon);
  await page.reload();
  await expect(pageHeading(page)).toHaveText('Mein Profil');
  await expect.poll(readExpiry, { timeout: 20_000 }).toBeGreaterThan(soon);
  expect(oidcChunks.length).toBeGreaterThan(0);
  await expect(mainMenu(page)).toBeVisible();
});
