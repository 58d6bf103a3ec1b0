import { expect, test as setup } from '@playwright/test';
import { demoUsers, sellerCatalogueFilter, sessionFile } from './support/demo';
import { loginThroughUi, menuEntries, presetCookieConsent } from './support/session';

/**
 * Every demo role signs in through the real login page, lands where the spec says and sees exactly its
 * menu. The sessions are stored for the other tests, so each role logs in once per run.
 */
for (const user of demoUsers) {
  setup(`${user.email} meldet sich an, landet richtig und sieht genau sein Menü`, async ({ page }) => {
    await presetCookieConsent(page);
    await loginThroughUi(page, user.email);

    const url = new URL(page.url());
    if (user.key === 'seller') {
      expect(url.pathname).toBe('/suche');
      const filters = JSON.parse(Buffer.from(url.searchParams.get('filters') ?? '', 'base64').toString('utf8'));
      expect(filters).toEqual(sellerCatalogueFilter);
    } else if (user.key === 'none') {
      expect(url.pathname).toBe('/');
    } else {
      expect(url.pathname).toBe('/suche');
    }

    await expect(menuEntries(page)).toHaveText(user.menu);
    await page.context().storageState({ path: sessionFile(user.key) });
  });
}
