import { expect, test } from '@playwright/test';
import { sessionFile } from './support/demo';
import { apiFromPage } from './support/relations';
import { pageHeading } from './support/session';

/**
 * Supplier catalogues and quick order: the administrator uploads a small BMEcat for
 * Nordbad (200001) and watches the import complete; a buyer finds a new product by its GTIN,
 * pastes three article numbers with quantities into the quick order of a cart of its own and
 * orders them. A T_UPDATE_PRODUCTS is used so the demo offers of Nordbad stay for parallel specs.
 */
const suffix = `${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1e3)}`;
const gtinOf = (body: string) => {
  const sum = [...body].reverse().reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return body + ((10 - (sum % 10)) % 10);
};
const articles = [1, 2, 3].map((k) => ({
  pid: `E2E-${suffix}-${k}`,
  gtin: gtinOf(`40${String(Date.now() % 1e9).padStart(9, '0')}${k}`),
  name: `Eckventil Testimport ${suffix} Nr. ${k} verchromt`,
}));
const bmecat = `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">
  <HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>E2E</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>
  <T_UPDATE_PRODUCTS prev_version="0">
${articles
  .map(
    (a, k) => `    <PRODUCT mode="new">
      <SUPPLIER_PID>${a.pid}</SUPPLIER_PID>
      <PRODUCT_DETAILS>
        <DESCRIPTION_SHORT lang="deu">${a.name}</DESCRIPTION_SHORT>
        <INTERNATIONAL_PID type="gtin">${a.gtin}</INTERNATIONAL_PID>
        <MANUFACTURER_PID>M-${a.pid}</MANUFACTURER_PID>
        <MANUFACTURER_NAME>Prüfwerk Armaturen</MANUFACTURER_NAME>
      </PRODUCT_DETAILS>
      <PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>1</QUANTITY_MIN></PRODUCT_ORDER_DETAILS>
      <PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>${12 + k}.50</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS>
    </PRODUCT>`,
  )
  .join('\n')}
  </T_UPDATE_PRODUCTS>
</BMECAT>
`;

test('Administrator importiert BMEcat → Käufer findet per GTIN → Schnellerfassung mit drei Artikelnummern → Bestellung', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const admin = await (await browser.newContext({ storageState: sessionFile('admin') })).newPage();
  await admin.goto('/admin/katalogimport?bp=200001');
  await expect(pageHeading(admin)).toHaveText('Katalogimport');
  await admin.locator('input[type="file"]').setInputFiles({
    name: `e2e-${suffix}.xml`,
    mimeType: 'application/xml',
    buffer: Buffer.from(bmecat, 'utf8'),
  });
  await admin.getByRole('button', { name: 'Import starten' }).click();
  const row = admin
    .getByRole('table', { name: 'Katalogimporte' })
    .getByRole('row', { name: new RegExp(`e2e-${suffix}`) });
  await expect(row).toContainText('Abgeschlossen', { timeout: 60_000 });
  await expect(row).toContainText('BMEcat 2005 · T_UPDATE_PRODUCTS');
  await expect(admin.getByText('Keine abgelehnten Artikel.')).toBeVisible();

  const buyer = await (await browser.newContext({ storageState: sessionFile('buyer') })).newPage();
  await buyer.goto('/');
  await buyer.getByRole('searchbox', { name: 'Suchbegriff' }).fill(articles[0].gtin);
  await buyer.getByRole('button', { name: 'Suchen', exact: true }).click();
  await expect(buyer.getByTestId('search-results').getByText(articles[0].name)).toBeVisible({ timeout: 45_000 });

  const cart = await apiFromPage<{ id: number }>(buyer, 'POST', '/v1/MultiCarts', { name: `Import ${suffix}` });
  expect(cart.status).toBe(201);
  try {
    await buyer.goto(`/warenkorb/${cart.data.id}`);
    await buyer.getByRole('link', { name: 'Schnellerfassung' }).click();
    await expect(pageHeading(buyer)).toHaveText('Schnellerfassung');
    await buyer.getByLabel('Artikelnummern und Mengen').fill(articles.map((a, k) => `${a.pid}\t${k + 2}`).join('\n'));
    await buyer.getByRole('button', { name: 'Prüfen' }).click();
    const preview = buyer.getByRole('table', { name: 'Vorschau der Schnellerfassung' });
    for (const [k, a] of articles.entries()) {
      await expect(buyer.getByTestId(`quick-order-line-${k + 1}`)).toContainText('Wird hinzugefügt');
      await expect(preview).toContainText(a.name);
    }
    await buyer.getByRole('button', { name: '3 Positionen in den Warenkorb legen' }).click();
    await expect(buyer).toHaveURL(new RegExp(`/warenkorb/${cart.data.id}$`));
    for (const a of articles) await expect(buyer.getByText(a.name)).toBeVisible();

    await buyer.getByTestId('order-summary').getByRole('button', { name: 'Bestellen', exact: true }).click();
    await buyer
      .getByRole('dialog', { name: 'Bestellung absenden' })
      .getByRole('button', { name: 'Akzeptieren und Bestellen' })
      .click();
    await expect(buyer).toHaveURL(/\/bestellungen\/bestellung\?id=KB-[^&]+&orderType=customer&danke=true$/);
    for (const a of articles) await expect(buyer.getByText(a.name)).toBeVisible();
  } finally {
    await apiFromPage(buyer, 'DELETE', `/v1/MultiCarts/${cart.data.id}`).catch(() => {});
  }
});
