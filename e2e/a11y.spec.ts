import { axeBuilder } from './support/axe';
import { expect, test, type Page } from '@playwright/test';
import { demoUsers, routeUrls, sessionFile, type RouteKey } from './support/demo';
import { mainMenu, presetCookieConsent } from './support/session';

/**
 * Accessibility: axe-core over every route of the spec's role table as every role, the signed-out
 * welcome screen, the public pages and the login page. A serious or critical violation (WCAG 2.1 A/AA rules)
 * fails the test; every violation of a role is listed in the failure message, so one run shows all of them.
 */

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface Finding {
  url: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
  /** axe's explanation for the first element (e.g. the measured contrast and colours). */
  summary: string;
}

async function settle(page: Page) {
  // Lists and pages load their data after the first paint; axe must see the finished page.
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0, { timeout: 15_000 });
  await page.waitForTimeout(300); // transitions (Mantine's fade-ins) end
}

async function audit(page: Page, url: string): Promise<Finding[]> {
  await settle(page);
  const result = await axeBuilder(page).withTags(WCAG_TAGS).analyze();
  expect(result.testEngine.version, 'axe-core of the root devDependency (the current release)').toMatch(/^4\.14\./);
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      url,
      rule: v.id,
      impact: v.impact!,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
      summary: (v.nodes[0]?.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300),
    }));
}

const report = (findings: Finding[]) =>
  findings
    .map((f) => `${f.url}: [${f.impact}] ${f.rule} – ${f.help}\n    ${f.summary}\n    ${f.targets.join('\n    ')}`)
    .join('\n');

/** A product detail page with a real product (the route '/produkt' without id shows only a notice). */
async function productUrl(page: Page): Promise<string | null> {
  const token = await page.evaluate(() => {
    for (const store of [window.sessionStorage, window.localStorage]) {
      for (let i = 0; i < store.length; i++) {
        const key = store.key(i)!;
        if (key.startsWith('oidc.user:'))
          return (JSON.parse(store.getItem(key)!) as { access_token: string }).access_token;
      }
    }
    return null;
  });
  if (!token) return null;
  const res = await page.request.post('/v1/Product/Search', {
    headers: { authorization: `Bearer ${token}` },
    data: { page: 1, pageSize: 1, searchTerm: 'Thermostat' },
  });
  if (!res.ok()) return null;
  const hit = ((await res.json()) as { hits: { productId: string; rows: { PRODUCTINSTANCE_ID: string } }[] }).hits[0];
  return hit
    ? `/produkt?id=${encodeURIComponent(hit.productId)}&articleNumber=${encodeURIComponent(hit.rows.PRODUCTINSTANCE_ID)}`
    : null;
}

for (const user of demoUsers.filter((u) => u.key !== 'buyer2')) {
  test.describe(`Barrierefreiheit als ${user.roleLabel} (${user.email})`, () => {
    test.use({ storageState: sessionFile(user.key) });

    test('keine schweren oder kritischen Verstöße auf den Routen der Rolle', async ({ page }) => {
      test.slow();
      const signedIn = page.waitForResponse((r) => r.url().includes('/v1/UserProfile') && r.ok());
      await page.goto('/');
      await signedIn;
      await expect(mainMenu(page)).toBeVisible();
      const urls = user.allowed.map((key: RouteKey) => routeUrls[key]);
      if (user.allowed.includes('product')) {
        const detail = await productUrl(page);
        if (detail) urls.push(detail);
      }
      const findings: Finding[] = [];
      for (const url of urls) {
        await page.goto(url);
        await expect(mainMenu(page)).toBeVisible();
        findings.push(...(await audit(page, url)));
      }
      expect(findings, report(findings)).toEqual([]);
    });
  });
}

test.describe('Barrierefreiheit ohne Anmeldung', () => {
  test.beforeEach(async ({ page }) => presetCookieConsent(page));

  test('Willkommen, öffentliche Seiten und Anmeldeseite', async ({ page }) => {
    const findings: Finding[] = [];
    for (const url of ['/', '/impressum', '/datenschutz', '/agb', '/cookie-declaration', '/unauthorized']) {
      await page.goto(url);
      findings.push(...(await audit(page, url)));
    }
    await page.goto('/');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL(/\/auth\/interaction\//);
    findings.push(...(await audit(page, 'Anmeldeseite')));
    expect(findings, report(findings)).toEqual([]);
  });
});

test.describe('Cookie-Hinweis', () => {
  test('der Dialog beim ersten Besuch ist barrierefrei', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('dialog', { name: 'Cookie-Einstellungen' })).toBeVisible();
    const findings = await audit(page, 'Cookie-Dialog');
    expect(findings, report(findings)).toEqual([]);
  });
});
