import { expect, test } from '@playwright/test';
import { sessionFile } from '../support/demo';

/**
 * Switches einkauf@'s current business partner (shared demo state), hence in the 'exclusive' project:
 * runs alone after the other specs and switches back at the end.
 */
test.describe('Geschäftspartnerwechsel (einkauf@ mit zwei Partnern)', () => {
  test.use({ storageState: sessionFile('buyer') });

  // Also when the test failed halfway: other specs rely on einkauf@ working for Sanitär Müller GmbH.
  test.afterEach(async ({ page }) => {
    const status = await page.evaluate(async () => {
      const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user:'));
      const token = key
        ? (JSON.parse(sessionStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token
        : undefined;
      const response = await fetch('/v1/UserProfile', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ bpNumber: '100001' }),
      });
      return response.status;
    });
    expect(status).toBe(204);
  });

  test('ändert den Kopf, vergisst den Warenkorb und stellt den Ausgangszustand wieder her', async ({ page }) => {
    const currentPartner = page.getByTestId('current-partner');
    const partnerSwitch = page.getByTestId('partner-switch');
    await page.goto('/profil');
    await expect(currentPartner).toHaveText('Sanitär Müller GmbH');
    await page.evaluate(() => sessionStorage.setItem('shk.currentCartId', 'cart-1'));

    await partnerSwitch.click();
    await expect(page.getByRole('menuitem')).toHaveText([
      '100001 Sanitär Müller GmbH',
      '100002 Heizungsbau Schmidt & Söhne KG',
    ]);
    await page.getByRole('menuitem', { name: '100002 Heizungsbau Schmidt & Söhne KG' }).click();

    await expect(page).toHaveURL((url) => url.pathname === '/');
    await expect(currentPartner).toHaveText('Heizungsbau Schmidt & Söhne KG');
    expect(await page.evaluate(() => sessionStorage.getItem('shk.currentCartId'))).toBeNull();
    await page.goto('/profil');
    await expect(page.getByRole('definition').filter({ hasText: '100002' }).first()).toBeVisible();

    // Restore: other tests rely on einkauf@ working for Sanitär Müller GmbH.
    await partnerSwitch.click();
    await page.getByRole('menuitem', { name: '100001 Sanitär Müller GmbH' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/');
    await expect(currentPartner).toHaveText('Sanitär Müller GmbH');
  });
});
