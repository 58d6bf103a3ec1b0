import { axeBuilder } from './support/axe';
import { expect, test, type Page } from '@playwright/test';
import { sessionFile } from './support/demo';
import { pageHeading } from './support/session';

/**
 * A full catalogue that would withdraw most of an assortment waits for approval on the import screen: the
 * administrator sees the preview (figures, reasons, a sample of what would go), its warnings and rejections with their
 * CSV downloads, approves it and undoes it again — at 390 px without the page scrolling sideways. WerkzeugHaus
 * (200009) is used by no other spec: its assortment is withdrawn between the approval and the undo.
 */
const suffix = `${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1e3)}`;
const fileName = `gesamt-${suffix}.xml`;
const product = (pid: string, name: string | null, gtin?: string) => `
    <PRODUCT mode="new">
      <SUPPLIER_PID>${pid}</SUPPLIER_PID>
      <PRODUCT_DETAILS>
        ${name ? `<DESCRIPTION_SHORT lang="deu">${name}</DESCRIPTION_SHORT>` : ''}
        ${gtin ? `<INTERNATIONAL_PID type="gtin">${gtin}</INTERNATIONAL_PID>` : ''}
        <MANUFACTURER_NAME>Prüfwerk Armaturen</MANUFACTURER_NAME>
      </PRODUCT_DETAILS>
      <PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY></PRODUCT_ORDER_DETAILS>
      <PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>9.90</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS>
    </PRODUCT>`;
const bmecat = `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">
  <HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>E2E</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>
  <T_NEW_CATALOG>
    ${product(`E2E-${suffix}-1`, `Prüfventil ${suffix} mit sehr langem Namen ohne Leerzeichen_${'x'.repeat(60)}`)}
    ${product(`E2E-${suffix}-2`, `Prüfventil ${suffix} mit falscher GTIN`, '4006501234590')}
    ${product(`E2E-${suffix}-3`, null)}
  </T_NEW_CATALOG>
</BMECAT>
`;

/** No serious or critical WCAG 2.1 A/AA violation on the screen as it is (the preview's colours, the stacked tables). */
async function accessible(page: Page) {
  const result = await axeBuilder(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function noSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll, `page is ${widths.scroll} px wide at ${widths.client} px`).toBeLessThanOrEqual(widths.client);
}

test('Gesamtkatalog wartet auf Freigabe → Vorschau, Warnungen, Ablehnungen, CSV → Freigeben → rückgängig (390 px)', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({
    storageState: sessionFile('admin'),
    viewport: { width: 390, height: 844 },
  });
  const admin = await context.newPage();
  await admin.goto('/admin/katalogimport?bp=200009');
  await expect(pageHeading(admin)).toHaveText('Katalogimport');
  await admin.locator('input[type="file"]').setInputFiles({
    name: fileName,
    mimeType: 'application/xml',
    buffer: Buffer.from(bmecat, 'utf8'),
  });
  await admin.getByRole('button', { name: 'Import starten' }).click();

  const details = admin.getByTestId('import-details');
  const preview = admin.getByTestId('import-preview');
  await expect(preview).toBeVisible({ timeout: 60_000 });
  await expect(details).toContainText('Wartet auf Freigabe');
  await expect(preview).toContainText(/würde 100 % des Sortiments zurückziehen \(Grenze 20 %\)/);
  await expect(preview).toContainText('Zurückzuziehen');
  await expect(admin.getByTestId('withdraw-sample').getByRole('listitem').first()).toBeVisible();
  await expect(admin.getByTestId('import-warnings')).toContainText('ungültige Prüfziffer');
  await expect(admin.getByTestId('import-rejections')).toContainText('DESCRIPTION_SHORT');
  await noSidewaysScroll(admin);
  await admin.waitForTimeout(300); // Mantine's fade-ins end
  await accessible(admin);

  const [warnings] = await Promise.all([
    admin.waitForEvent('download'),
    admin.getByRole('button', { name: 'Warnungen als CSV' }).click(),
  ]);
  expect(warnings.suggestedFilename()).toMatch(/^Katalogimport-\d+-Warnungen\.csv$/);
  const [rejections] = await Promise.all([
    admin.waitForEvent('download'),
    admin.getByRole('button', { name: 'Ablehnungen als CSV' }).click(),
  ]);
  expect(rejections.suggestedFilename()).toMatch(/^Katalogimport-\d+-Ablehnungen\.csv$/);

  await admin.getByRole('button', { name: 'Freigeben und zurückziehen' }).click();
  await expect(details).toContainText('Abgeschlossen');
  await expect(details).toContainText('freigegeben von');
  await expect(preview).toHaveCount(0);
  await noSidewaysScroll(admin);

  await admin.getByRole('button', { name: 'Import rückgängig machen' }).click();
  await expect(details).toContainText('Rückgängig gemacht');
  await expect(admin.getByRole('button', { name: 'Import rückgängig machen' })).toHaveCount(0);
  await noSidewaysScroll(admin);
  await context.close();
});
