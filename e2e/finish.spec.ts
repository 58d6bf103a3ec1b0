import { expect, test } from '@playwright/test';
import { sessionFile } from './support/demo';
import { settle } from './support/route-tour';

/** What made the portal look unfinished: missing logos, the dashboard's axis and icon, dates, sort marks. */

test.describe('Lieferantenlogos (einkauf@)', () => {
  test.use({ storageState: sessionFile('buyer') });

  test('jeder Lieferant zeigt sein Logo, keine Anfrage endet mit 404', async ({ page }) => {
    const missing: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/logo') && response.status() >= 400) missing.push(response.url());
    });
    for (const url of ['/suche', '/meine-lieferanten', '/']) {
      await page.goto(url);
      await settle(page);
      const logos = page.getByTestId('supplier-logo');
      await expect(logos.first()).toBeVisible();
      for (const logo of (await logos.all()).slice(0, 10)) {
        await logo.scrollIntoViewIfNeeded();
        await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth), url).toBeGreaterThan(0);
      }
    }
    expect(missing).toEqual([]);
  });

  test('ein Lieferant ohne Logo zeigt keine Lücke vor seinem Namen', async ({ page }) => {
    // The API answers 404 for a supplier without a logo: the card then shows no image at all.
    await page.route('**/v1/Suppliers/*/logo*', (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto('/suche');
    await settle(page);
    const first = page.getByTestId('product-card').first();
    await expect(first).toContainText('Lieferanten Artikelnummer');
    await expect(first.getByTestId('supplier-logo')).toHaveCount(0);
  });
});

test.describe('Dashboard (support@)', () => {
  test.use({ storageState: sessionFile('support') });

  test('ganzzahlige Achse ohne Doppelte, Prozent auf einer Zeile, Info-Symbol als Grafik', async ({ page }) => {
    await page.goto('/dashboard');
    await settle(page);
    const ticks = page.getByTestId('chart-count').locator('.recharts-yAxis-tick-labels text');
    await expect(ticks.first()).toBeAttached();
    const labels = await ticks.evaluateAll((all) => all.map((tick) => (tick.textContent ?? '').trim()));
    expect(labels.length).toBeGreaterThan(1);
    for (const label of labels) expect(label, 'Achsenbeschriftung').toMatch(/^\d{1,3}(\.\d{3})*$/);
    expect(new Set(labels).size, labels.join(', ')).toBe(labels.length);

    const sla = page.getByTestId('tile-sla-value');
    await expect(sla).toHaveText(/%$/);
    const lines = await sla.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    expect(lines, 'SLA-Wert auf einer Zeile').toBe(1);

    await expect(page.getByText('ⓘ')).toHaveCount(0);
    const icons = page.getByTestId('info-icon');
    await expect(icons.first()).toBeVisible();
    expect(await icons.first().evaluate((el) => el.tagName.toLowerCase())).toBe('svg');
  });
});

test.describe('Datumsfelder in einem englischen Browser (support@)', () => {
  test.use({ storageState: sessionFile('support'), locale: 'en-US' });

  test('zeigen und nehmen TT.MM.JJJJ', async ({ page }) => {
    await page.goto('/berichte');
    await settle(page);
    const start = page.getByLabel('Startdatum');
    await start.fill('15.03.2025');
    await start.blur();
    await expect(start).toHaveValue('15.03.2025');
    await page.goto('/dashboard');
    await settle(page);
    await expect(page.getByLabel('Von')).toHaveValue('01.01.2024');
  });
});

test.describe('Sortierung und Warenkorbzahl', () => {
  test.describe('admin@', () => {
    test.use({ storageState: sessionFile('admin') });

    test('der Pfeil zeigt die aktive Richtung, die anderen Spalten ein neutrales Zeichen', async ({ page }) => {
      await page.goto('/parameter');
      await settle(page);
      const header = page.getByRole('columnheader', { name: 'Schlüssel' });
      await expect(header).toHaveAttribute('aria-sort', 'ascending');
      await expect(header.locator('svg')).toHaveAttribute('data-direction', 'asc');
      await header.getByRole('button').click();
      await expect(header).toHaveAttribute('aria-sort', 'descending');
      await expect(header.locator('svg')).toHaveAttribute('data-direction', 'desc');
    });
  });

  test.describe('einkauf@', () => {
    test.use({ storageState: sessionFile('buyer') });

    test('„Meine Warenkörbe“ nennt Anzahl und Höchstzahl, nicht „1 von 10“', async ({ page }) => {
      await page.goto('/my-carts');
      await settle(page);
      await expect(page.getByTestId('cart-count')).toHaveText(
        /^\d+ Warenk(orb|örbe) angelegt \(höchstens \d+ möglich\)$/,
      );
      const marks = page.getByRole('table').locator('th svg[data-direction]');
      const directions = await marks.evaluateAll((all) => all.map((svg) => svg.getAttribute('data-direction')));
      expect(directions.filter((d) => d !== 'none').length, directions.join(', ')).toBeLessThanOrEqual(1);
    });
  });
});
