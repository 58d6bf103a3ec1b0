import { expect, test } from '@playwright/test';
import { pageHeading } from './support/session';

/** A fresh browser without any stored choice. */
const dialog = (page: import('@playwright/test').Page) => page.getByRole('dialog', { name: 'Cookie-Einstellungen' });

test('fragt nach der Einwilligung, aber nicht auf Impressum, Datenschutz und Cookie-Erklärung', async ({ page }) => {
  for (const url of ['/impressum', '/datenschutz', '/cookie-declaration']) {
    await page.goto(url);
    await expect(pageHeading(page)).toBeVisible();
    await expect(dialog(page), url).toBeHidden();
  }
  await page.goto('/');
  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page).getByLabel('Präferenzen')).not.toBeChecked();
  await expect(dialog(page).getByLabel('Marketing')).not.toBeChecked();
});

test('speichert die Auswahl und lässt sie widerrufen', async ({ page }) => {
  await page.goto('/');
  await dialog(page).getByLabel('Präferenzen').check();
  await dialog(page).getByRole('button', { name: 'Auswahl speichern' }).click();
  await expect(dialog(page)).toBeHidden();

  await page.reload();
  await expect(pageHeading(page)).toHaveText('Willkommen');
  await expect(dialog(page)).toBeHidden();

  // The footer link reopens the dialog with the stored choice.
  await page.getByRole('contentinfo').getByRole('button', { name: 'Cookie-Einstellungen' }).click();
  await expect(dialog(page).getByLabel('Präferenzen')).toBeChecked();
  await expect(dialog(page).getByLabel('Marketing')).not.toBeChecked();
  await dialog(page).getByRole('button', { name: 'Alle akzeptieren' }).click();

  await page.goto('/cookie-declaration');
  await expect(page.getByTestId('consent-status')).toContainText('Präferenzen: erteilt · Marketing: erteilt');
  await page.evaluate(() => sessionStorage.setItem('shk.pref.recentlyViewed', '[]'));
  await page.getByRole('button', { name: 'Einwilligung widerrufen' }).click();
  await expect(page.getByTestId('consent-status')).toContainText('Sie haben noch keine Auswahl getroffen.');
  expect(await page.evaluate(() => sessionStorage.getItem('shk.pref.recentlyViewed'))).toBeNull();
  // Still readable here until answered …
  await expect(dialog(page)).toBeHidden();
  // … but asked again everywhere else.
  await page.goto('/');
  await expect(dialog(page)).toBeVisible();
  await dialog(page).getByRole('button', { name: 'Nur notwendige' }).click();
  await expect(dialog(page)).toBeHidden();
});
