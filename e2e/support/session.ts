import { expect, type Page } from '@playwright/test';

export const CONSENT_KEY = 'shk.cookieConsent';

/** Answers the cookie question before the portal loads (tests that are not about the dialog). */
export async function presetCookieConsent(page: Page) {
  await page.addInitScript((key) => {
    if (!window.localStorage.getItem(key)) {
      window.localStorage.setItem(
        key,
        JSON.stringify({ preferences: false, marketing: false, decidedAt: new Date().toISOString() }),
      );
    }
  }, CONSENT_KEY);
}

/** Fills and submits the identity provider's login form (the browser must already be on it). */
export async function submitLoginForm(page: Page, email: string, password = 'demo') {
  await page.waitForURL(/\/auth\/interaction\//);
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
}

/** Signs in through the 'Willkommen' screen and the real login page; resolves once the portal is back. */
export async function loginThroughUi(page: Page, email: string, password = 'demo') {
  await page.goto('/');
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await submitLoginForm(page, email, password);
  await page.waitForURL((url) => !url.pathname.startsWith('/auth'));
  await expect(mainMenu(page)).toBeVisible();
}

export const mainMenu = (page: Page) => page.getByRole('navigation', { name: 'Hauptmenü' });
export const menuEntries = (page: Page) => mainMenu(page).getByRole('listitem');
export const pageHeading = (page: Page) => page.getByRole('heading', { level: 1 });

/**
 * Client-side navigation, as when following a link inside the portal: the router and the route guard
 * run exactly as on a click, without the cost of a full page load.
 */
export async function navigateInApp(page: Page, url: string) {
  await page.evaluate((target) => {
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
}

export type GuardDecision = 'allowed' | 'denied' | 'login';

/** Forgets earlier route-guard decisions (User Timing marks written by the SPA's RouteGuard). */
export async function clearGuardDecisions(page: Page) {
  await page.evaluate(() => performance.clearMarks());
}

/** Waits for the route guard's decision on a route key: 'route:<decision>:<key>' marks. */
export async function guardDecision(page: Page, key: string): Promise<GuardDecision> {
  const read = () =>
    page.evaluate((routeKey) => {
      const mark = performance
        .getEntriesByType('mark')
        .find((m) => m.name.startsWith('route:') && m.name.endsWith(`:${routeKey}`));
      return mark ? mark.name.split(':')[1] : null;
    }, key);
  await expect.poll(read, { message: `Entscheidung des Routen-Wächters für ${key}` }).not.toBeNull();
  return (await read()) as GuardDecision;
}
