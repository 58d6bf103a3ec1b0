import { expect, test } from '@playwright/test';
import { sessionFile } from './support/demo';
import { apiFromPage, toastWith } from './support/relations';

/**
 * Media that need the supplier's token (buyer-side §7): an administrator sets the fallback address and the token on
 * the catalogue import page; the token is never shown again. Werkzeughaus Franken (200009) imports nothing in the
 * other specs; the settings are removed again at the end.
 */
test.use({ storageState: sessionFile('admin') });

test('Medienzugang: Ausweichadresse und Token speichern, Token bleibt verborgen, entfernen', async ({ page }) => {
  await page.goto('/admin/katalogimport?bp=200009');
  const access = page.getByTestId('media-access');
  await expect(access.getByText('Kein Token hinterlegt.')).toBeVisible();

  await access.getByLabel('Ausweichadresse der Medien').fill('ftp://medien.werkzeughaus.example/');
  await access.getByRole('button', { name: 'Medienzugang speichern' }).click();
  await expect(access.getByText('Bitte geben Sie eine http- oder https-Adresse ein.')).toBeVisible();

  await access.getByLabel('Ausweichadresse der Medien').fill('https://medien.werkzeughaus.example/bilder/');
  await access.getByLabel('Zugangstoken').fill('geheimes-medien-token');
  await access.getByRole('button', { name: 'Medienzugang speichern' }).click();
  await expect(toastWith(page, 'Der Medienzugang wurde gespeichert.')).toBeVisible();
  await expect(access.getByText('Ein Token ist hinterlegt. Leer lassen, um es zu behalten.')).toBeVisible();
  await expect(access.getByLabel('Zugangstoken')).toHaveValue('');

  // The API never gives the token back.
  const settings = await apiFromPage<Record<string, unknown>>(
    page,
    'GET',
    '/v1/Suppliers/200009/CatalogueImportSettings',
  );
  expect(settings.data).toMatchObject({
    mediaFallbackBaseUrl: 'https://medien.werkzeughaus.example/bilder/',
    mediaAccessTokenSet: true,
  });
  expect(JSON.stringify(settings.data)).not.toContain('geheimes-medien-token');

  // After a reload the address is shown, the token not.
  await page.reload();
  await expect(access.getByLabel('Ausweichadresse der Medien')).toHaveValue(
    'https://medien.werkzeughaus.example/bilder/',
  );
  await access.getByRole('button', { name: 'Token entfernen' }).click();
  await expect(access.getByText('Kein Token hinterlegt.')).toBeVisible();
  await access.getByLabel('Ausweichadresse der Medien').fill('');
  await access.getByRole('button', { name: 'Medienzugang speichern' }).click();
  await expect(access.getByLabel('Ausweichadresse der Medien')).toHaveValue('');
  const cleared = await apiFromPage<Record<string, unknown>>(
    page,
    'GET',
    '/v1/Suppliers/200009/CatalogueImportSettings',
  );
  expect(cleared.data).toMatchObject({ mediaFallbackBaseUrl: null, mediaAccessTokenSet: false });
});
