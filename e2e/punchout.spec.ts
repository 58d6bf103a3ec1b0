import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { XMLParser } from 'fast-xml-parser';
import { punchoutTexts } from '@shk/contracts';
import { sessionFile } from './support/demo';
import { apiFromPage } from './support/relations';

/**
 * Punchout (docs/punchout.md) with the browser as the procurement system drives it. A local server plays SAP (its
 * page posts the OCI entry, its hook URL receives the cart) and Ariba (the test posts the PunchOutSetupRequest,
 * the browser opens the StartPage, the BrowserFormPost receives the PunchOutOrderMessage). The user searches, fills
 * the cart and returns it with 'In die Bestellanforderung übernehmen'. Works as einkauf2 (partner 100003) with its
 * own punchout logins. Each punchout session fills its own cart; the tests run one after the other (the inspect
 * test re-opens the line the cXML test returned).
 */
test.use({ storageState: sessionFile('buyer2') });
test.describe.configure({ mode: 'serial' });

const oci = { USERNAME: 'becker-oci-e2e', PASSWORD: 'oci-geheim-1' };
const cxmlLogin = { domain: 'NetworkId', identity: 'E2E-100003', secret: 'cxml-geheim-1' };

interface Received {
  url: string;
  contentType: string;
  body: Buffer;
}

/** The procurement system: its OCI start page and the hook URL / BrowserFormPost that receive the cart. */
async function procurementSystem(
  portal: string,
  ociFields: Record<string, string>,
  enctype = 'application/x-www-form-urlencoded',
) {
  const received: Received[] = [];
  const server = http.createServer(async (req, res) => {
    const { port } = server.address() as AddressInfo;
    if (req.method === 'GET' && req.url === '/oci-start') {
      const fields = { ...ociFields, HOOK_URL: `http://127.0.0.1:${port}/hook?sap-client=100` };
      const inputs = Object.entries(fields)
        .map(
          ([k, v]) => `<input type="hidden" name="${k}" value="${v.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`,
        )
        .join('');
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        `<!doctype html><meta charset="utf-8"><title>SAP SRM</title>
         <form id="f" method="post" accept-charset="UTF-8" enctype="${enctype}" action="${portal}/oci">${inputs}</form>
         <script>document.getElementById('f').submit()</script>`,
      );
      return;
    }
    if (req.method === 'POST' && req.url?.startsWith('/hook')) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      received.push({ url: req.url, contentType: req.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end('<!doctype html><meta charset="utf-8"><title>Empfangen</title><h1>Bestellanforderung empfangen</h1>');
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface CartLine {
  articleNumber: string;
  supplierBusinessPartnerNo: string;
  productInstanceId: string;
  quantity: number;
  productName: string | null;
  manufacturerId: string | null;
  manufacturerPid: string | null;
  unitPrice: number | null;
  priceBasis: number;
  unit: string | null;
}

/** Empties the session's cart, then searches in the UI and adds the first orderable hit twice. */
async function fillCart(page: Page, term: string): Promise<CartLine[]> {
  const cart = await apiFromPage<{ items: { id: number }[] }>(page, 'GET', '/v1/MultiCarts/Default');
  for (const item of cart.data.items) await apiFromPage(page, 'DELETE', `/v1/CartItems/${item.id}`);
  const searchBox = page.getByRole('searchbox', { name: 'Suchbegriff' });
  await searchBox.fill(term);
  await page.getByRole('button', { name: 'Suchen', exact: true }).click();
  const card = page
    .getByTestId('search-results')
    .getByTestId('product-card')
    .filter({ has: page.getByTestId('add-to-cart').and(page.locator(':enabled')) })
    .first();
  await card.getByTestId('add-to-cart').click();
  await expect(page.getByText('Der Artikel wurde erfolgreich zum Warenkorb hinzugefügt.')).toBeVisible();
  const filled = await apiFromPage<{ items: CartLine[] }>(page, 'GET', '/v1/MultiCarts/Default');
  expect(filled.data.items.length).toBe(1);
  return filled.data.items;
}

/** The cart page in a punchout session: no ordering, the requisition button; the return posts the form. */
async function returnCart(page: Page, origin: string) {
  await page.goto('/warenkorb');
  await expect(page.getByTestId('punchout-hint')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Bestellen', exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'In die Bestellanforderung übernehmen' }).click();
  await page.waitForURL(`${origin}/hook**`);
  await expect(page.getByRole('heading', { name: 'Bestellanforderung empfangen' })).toBeVisible();
}

/** The line the cXML test returned: the inspect test re-opens it. */
let returnedByAriba: CartLine | null = null;

/** Posts a PunchOutSetupRequest as Ariba does; returns the StartPage path. */
async function cxmlSetup(baseURL: string, operation: string, hook: string, items = '') {
  const setup = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.014/cXML.dtd">
<cXML payloadID="e2e.${operation}@ariba.example" timestamp="2026-11-29T03:00:00+01:00" xml:lang="de">
  <Header>
    <From><Credential domain="${cxmlLogin.domain}"><Identity>${cxmlLogin.identity}</Identity></Credential></From>
    <To><Credential domain="DUNS"><Identity>SHK-PORTAL</Identity></Credential></To>
    <Sender><Credential domain="NetworkId"><Identity>AN01</Identity><SharedSecret>${cxmlLogin.secret}</SharedSecret></Credential>
      <UserAgent>Ariba E2E</UserAgent></Sender>
  </Header>
  <Request><PunchOutSetupRequest operation="${operation}">
    <BuyerCookie>e2e-cookie-${operation}</BuyerCookie>
    <BrowserFormPost><URL>${hook}</URL></BrowserFormPost>
    ${items}
  </PunchOutSetupRequest></Request>
</cXML>`;
  const response = await fetch(`${baseURL}/cxml/punchout`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml; charset=utf-8' },
    body: setup,
  });
  expect(response.status).toBe(200);
  const answer = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false }).parse(
    await response.text(),
  ).cXML;
  expect(answer.Response.Status['@code']).toBe('200');
  return new URL(answer.Response.PunchOutSetupResponse.StartPage.URL as string).pathname;
}

const ociUnits: Record<string, string> = { C62: 'PCE', H87: 'PCE', MTR: 'MTR' };
const dec = (n: number) => String(Number(n.toFixed(4)));

test.describe('buyer', () => {
  test.beforeEach(async ({ page }) => {
    // The buyer switches both protocols on and sets the logins on 'Mein Profil'.
    await page.goto('/profil');
    const card = page.getByRole('region', { name: 'Punchout (OCI und cXML)' });
    await card.getByLabel('OCI (SAP) eingeschaltet').check({ force: true });
    await card.getByLabel('Benutzername (USERNAME)').fill(oci.USERNAME);
    await card.getByLabel('Passwort (PASSWORD)').fill(oci.PASSWORD);
    await card.getByLabel('cXML (Ariba, Coupa …) eingeschaltet').check({ force: true });
    await card.getByLabel('Domäne der Absenderkennung (cXML)').fill(cxmlLogin.domain);
    await card.getByLabel('Identität (Identity)').fill(cxmlLogin.identity);
    await card.getByLabel('Shared Secret').fill(cxmlLogin.secret);
    await card.getByRole('button', { name: 'Zugangsdaten speichern' }).click();
    await expect(page.getByText('Punchout-Zugangsdaten gespeichert.')).toBeVisible();
    const saved = await apiFromPage<{ ociEnabled: boolean; ociUsername: string; cxmlIdentity: string }>(
      page,
      'GET',
      '/v1/PunchoutCredentials',
    );
    expect(saved.data).toMatchObject({ ociEnabled: true, ociUsername: oci.USERNAME, cxmlIdentity: cxmlLogin.identity });
  });

  test('SAP posts the OCI 5.0 entry (multipart), the buyer fills the cart and returns it to the hook URL', async ({
    page,
    baseURL,
  }) => {
    // The buyer sets what the OCI 5.0 customer fields carry on 'Mein Profil'.
    const card = page.getByRole('region', { name: 'Punchout (OCI und cXML)' });
    const chooseSource = async (n: number, label: string) => {
      await card.getByLabel(`Kundenfeld ${n}`, { exact: true }).click();
      await page.getByRole('option', { name: label, exact: true }).click();
    };
    await chooseSource(1, 'Fester Wert');
    await card.getByLabel('Fester Wert (höchstens 10 Zeichen)').fill('KST-4711');
    await chooseSource(2, 'Nicht senden');
    await chooseSource(3, 'Notiz der Position');
    await chooseSource(4, 'Nicht senden');
    await chooseSource(5, 'Angebotsnummer im Portal');
    await card.getByRole('button', { name: 'Zugangsdaten speichern' }).click();
    await expect(page.getByText('Punchout-Zugangsdaten gespeichert.').first()).toBeVisible();
    const saved = await apiFromPage<{ ociCustFields: string[]; ociCustFieldValues: string[] }>(
      page,
      'GET',
      '/v1/PunchoutCredentials',
    );
    expect(saved.data).toMatchObject({
      ociCustFields: ['fixed', '', 'comment', '', 'offerId'],
      ociCustFieldValues: ['KST-4711', '', '', '', ''],
    });

    // SAP posts its entry form as multipart/form-data at times.
    const sap = await procurementSystem(
      baseURL!,
      {
        ...oci,
        OCI_VERSION: '5.0',
        '~OkCode': 'ADDI',
        '~TARGET': '_top',
        '~CALLER': 'CTLG',
        SEARCHSTRING: 'Ventil',
      },
      'multipart/form-data',
    );
    try {
      await page.goto(`${sap.origin}/oci-start`);
      await page.waitForURL(/\/suche\?term=Ventil/);
      const [line] = await fillCart(page, 'Ventil');
      await page.goto('/warenkorb');
      // The line's details are folded behind its summary.
      await page.getByTestId('cart-item').getByTestId('item-details-toggle').click();
      const note = page.getByTestId('cart-item').getByLabel('Notiz');
      await note.fill('Raum 3');
      await note.blur();
      await expect
        .poll(
          async () =>
            (await apiFromPage<{ items: { comment: string | null }[] }>(page, 'GET', '/v1/MultiCarts/Default')).data
              .items[0]?.comment,
        )
        .toBe('Raum 3');
      await returnCart(page, sap.origin);

      expect(sap.received).toHaveLength(1);
      const got = sap.received[0];
      expect(got.url).toBe('/hook?sap-client=100');
      expect(got.contentType).toBe('application/x-www-form-urlencoded');
      const fields = [...new URLSearchParams(got.body.toString('utf8'))];
      const value = (name: string) => fields.find(([n]) => n === name)?.[1];
      expect(value('NEW_ITEM-DESCRIPTION[1]')).toBe((line.productName ?? '').slice(0, 40));
      expect(value('NEW_ITEM-QUANTITY[1]')).toBe(dec(line.quantity));
      expect(value('NEW_ITEM-UNIT[1]')).toBe(ociUnits[line.unit ?? 'C62'] ?? line.unit);
      if (line.unitPrice != null) expect(Number(value('NEW_ITEM-PRICE[1]'))).toBe(line.unitPrice);
      expect(value('NEW_ITEM-PRICEUNIT[1]')).toBe(dec(line.priceBasis));
      expect(value('NEW_ITEM-CURRENCY[1]')).toBe('EUR');
      expect(value('NEW_ITEM-VENDOR[1]')).toBe(line.supplierBusinessPartnerNo);
      expect(value('NEW_ITEM-VENDORMAT[1]')).toBe(line.articleNumber);
      expect(value('NEW_ITEM-MANUFACTCODE[1]')).toBe(line.manufacturerId ?? undefined);
      expect(value('NEW_ITEM-MANUFACTMAT[1]')).toBe(line.manufacturerPid ?? undefined);
      const gtin = value('NEW_ITEM-EXT_PRODUCT_ID[1]');
      if (gtin !== undefined) expect(gtin).toMatch(/^\d{8,14}$/);
      const leadTime = value('NEW_ITEM-LEADTIME[1]');
      if (leadTime !== undefined) expect(leadTime).toMatch(/^\d+$/);
      for (const [name, v] of fields.filter(([n]) => n.startsWith('NEW_ITEM-LONGTEXT_1:132')))
        expect(name === 'NEW_ITEM-LONGTEXT_1:132[]' && v.length <= 132).toBe(true);
      expect(value('~OkCode')).toBe('ADDI');
      expect(value('~TARGET')).toBe('_top');
      expect(value('~CALLER')).toBe('CTLG');
      // OCI 5.0: the customer fields as configured (CUST_FIELD2 and 4 are not sent).
      expect(value('NEW_ITEM-CUST_FIELD1[1]')).toBe('KST-4711');
      expect(value('NEW_ITEM-CUST_FIELD3[1]')).toBe('Raum 3');
      expect(value('NEW_ITEM-CUST_FIELD5[1]')).toBe(line.productInstanceId.slice(0, 50));
      // Only OCI fields of line 1, decimal points only.
      for (const [name, v] of fields) {
        expect(name).toMatch(
          /^(NEW_ITEM-(DESCRIPTION|QUANTITY|UNIT|PRICE|PRICEUNIT|CURRENCY|LEADTIME|VENDOR|VENDORMAT|MANUFACTCODE|MANUFACTMAT|MATGROUP|EXT_PRODUCT_ID|CUST_FIELD1|CUST_FIELD3|CUST_FIELD5)\[1\]|NEW_ITEM-LONGTEXT_1:132\[\]|~OkCode|~TARGET|~CALLER)$/,
        );
        if (/QUANTITY|PRICE/.test(name)) expect(v).toMatch(/^\d+(\.\d+)?$/);
      }
    } finally {
      await sap.close();
    }
  });

  test('Ariba posts a PunchOutSetupRequest, opens the StartPage and receives the PunchOutOrderMessage', async ({
    page,
    baseURL,
  }) => {
    const ariba = await procurementSystem(baseURL!, {});
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });
    try {
      const setup = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.014/cXML.dtd">
<cXML payloadID="e2e.1@ariba.example" timestamp="2026-11-29T03:00:00+01:00" xml:lang="de">
  <Header>
    <From><Credential domain="${cxmlLogin.domain}"><Identity>${cxmlLogin.identity}</Identity></Credential></From>
    <To><Credential domain="DUNS"><Identity>SHK-PORTAL</Identity></Credential></To>
    <Sender><Credential domain="NetworkId"><Identity>AN01</Identity><SharedSecret>${cxmlLogin.secret}</SharedSecret></Credential>
      <UserAgent>Ariba E2E</UserAgent></Sender>
  </Header>
  <Request><PunchOutSetupRequest operation="create">
    <BuyerCookie>e2e-cookie-1</BuyerCookie>
    <BrowserFormPost><URL>${ariba.origin}/hook?po=1</URL></BrowserFormPost>
  </PunchOutSetupRequest></Request>
</cXML>`;
      const response = await fetch(`${baseURL}/cxml/punchout`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8' },
        body: setup,
      });
      expect(response.status).toBe(200);
      const answer = parser.parse(await response.text()).cXML;
      expect(answer.Response.Status['@code']).toBe('200');
      const startPage = answer.Response.PunchOutSetupResponse.StartPage.URL as string;
      await page.goto(`${baseURL}${new URL(startPage).pathname}`);
      await page.waitForURL(/\/suche/);
      const [line] = await fillCart(page, 'Ventil');
      returnedByAriba = line;
      await returnCart(page, ariba.origin);

      expect(ariba.received).toHaveLength(1);
      const form = new URLSearchParams(ariba.received[0].body.toString('utf8'));
      expect([...form.keys()]).toEqual(['cxml-urlencoded']);
      const message = form.get('cxml-urlencoded')!;
      expect(message).toContain('<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.014/cXML.dtd">');
      const doc = parser.parse(message).cXML;
      expect(doc['@payloadID']).toMatch(/@/);
      expect(doc['@timestamp']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
      expect(doc.Header.To.Credential).toEqual({ '@domain': cxmlLogin.domain, Identity: cxmlLogin.identity });
      const po = doc.Message.PunchOutOrderMessage;
      expect(po.BuyerCookie).toBe('e2e-cookie-1');
      expect(po.PunchOutOrderMessageHeader['@operationAllowed']).toBe('edit');
      expect(po.PunchOutOrderMessageHeader.Total.Money['@currency']).toBe('EUR');
      const item = po.ItemIn;
      expect(item['@quantity']).toBe(dec(line.quantity));
      expect(item.ItemID).toEqual({
        SupplierPartID: line.articleNumber,
        SupplierPartAuxiliaryID: line.productInstanceId,
      });
      expect(item.ItemDetail.UnitPrice.Money['@currency']).toBe('EUR');
      if (line.unitPrice != null)
        expect(Number(item.ItemDetail.UnitPrice.Money['#text'])).toBeCloseTo(line.unitPrice / line.priceBasis, 4);
      expect(item.ItemDetail.Description).toEqual({ '@xml:lang': 'de', '#text': line.productName });
      expect(item.ItemDetail.UnitOfMeasure).toMatch(/^[A-Z0-9]{2,3}$/);
      expect(item.ItemDetail.Classification['@domain']).toBe('ETIM');
      expect(item.ItemDetail.ManufacturerPartID).toBe(line.manufacturerPid);
      expect(item.ItemDetail.ManufacturerName).toBeTruthy();
    } finally {
      await ariba.close();
    }
  });

  test('Ariba inspect shows the earlier cart read-only: no change controls, and the API refuses changes', async ({
    page,
    baseURL,
  }) => {
    const line = returnedByAriba;
    expect(line, 'the cXML test returned a line').not.toBeNull();
    const items = `<ItemOut quantity="3"><ItemID><SupplierPartID>${line!.articleNumber}</SupplierPartID>
      <SupplierPartAuxiliaryID>${line!.productInstanceId}</SupplierPartAuxiliaryID></ItemID></ItemOut>`;
    await page.goto(`${baseURL}${await cxmlSetup(baseURL!, 'inspect', 'http://127.0.0.1:9/hook', items)}`);
    await page.waitForURL(/\/warenkorb/);
    await expect(page.getByTestId('punchout-read-only')).toHaveText(punchoutTexts.readOnlyHint);
    const row = page.getByTestId('cart-item');
    await expect(row).toHaveCount(1);
    await expect(
      row.getByRole('button', { name: `${line!.productName ?? line!.articleNumber} entfernen` }),
    ).toBeDisabled();
    await expect(row.getByLabel('Notiz')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Warenkorb leeren' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'In die Bestellanforderung übernehmen' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Bestellen', exact: true })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Schnellerfassung' })).toHaveCount(0);
    // The API refuses every change, whatever the page shows.
    const cart = await apiFromPage<{ id: number; items: { id: number; quantity: number }[] }>(
      page,
      'GET',
      '/v1/MultiCarts/Default',
    );
    expect(cart.data.items.map((i) => Number(i.quantity))).toEqual([3]);
    const refused = await apiFromPage<{ detail: string }>(
      page,
      'PUT',
      `/v1/CartItems/${cart.data.items[0].id}/properties`,
      { quantity: 5 },
    );
    expect(refused.status).toBe(403);
    expect(refused.data.detail).toBe(punchoutTexts.readOnlyCart);
    // The search shows no 'In den Warenkorb' in this session.
    await page.goto('/suche?term=Ventil');
    await expect(page.getByTestId('search-results').getByTestId('product-card').first()).toBeVisible();
    await expect(page.getByTestId('add-to-cart')).toHaveCount(0);
  });
});

test.describe('staff', () => {
  test.use({ storageState: sessionFile('admin') });

  test('see the punchout sessions with buyer, partner and lines returned', async ({ page }) => {
    await page.goto('/admin');
    const rows = page
      .getByRole('table', { name: 'Punchout-Sitzungen' })
      .getByRole('row')
      .filter({ hasText: 'einkauf2@example.com' });
    await expect(rows.filter({ hasText: 'OCI' }).first()).toContainText('100003');
    await expect(rows.filter({ hasText: 'cXML (create)' }).first()).toContainText('1');
  });
});
