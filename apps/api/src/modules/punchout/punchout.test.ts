import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { parse as parseHtml } from 'parse5';
import { idsMessages, punchoutTexts } from '@shk/contracts';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { insertTestOffers, offers } from '../../../test/support/cart-fixtures.ts';

/**
 * Punchout (docs/punchout.md) through the real entries: OCI (login, functions, return fields), cXML (setup,
 * StartPage, PunchOutOrderMessage) and every refused input, with nothing stored for a refused one.
 */
let t: TestApp;
const HOOK = 'https://sap.example/sap/bc/srm/hook?sap-client=100';

beforeAll(async () => {
  t = await startTestApp();
  await insertTestOffers(t.pool);
  await t.pool
    .query(`INSERT INTO etim_classes (class_no, class_id, description) VALUES (990001, 'EC010101', 'Testklasse')
                      ON CONFLICT DO NOTHING`);
  await t.pool.query(
    `UPDATE products SET class_no = 990001, standard_delivery_period = 3, product_descr = $1 WHERE id = 900001`,
    ['Langtext '.repeat(20).trim()],
  );
});
afterAll(async () => {
  await t?.close();
});

const sessions = async () => Number((await t.pool.query('SELECT count(*) AS n FROM punchout_sessions')).rows[0].n);
const contexts = async () => Number((await t.pool.query('SELECT count(*) AS n FROM ids_contexts')).rows[0].n);

const demo = {
  USERNAME: 'einkauf@example.com',
  PASSWORD: 'demo',
  HOOK_URL: HOOK,
  '~OkCode': 'ADDI',
  '~TARGET': '_top',
  '~CALLER': 'CTLG',
};

async function oci(
  fields: Record<string, string>,
  init: { method?: string; contentType?: string; body?: Buffer } = {},
) {
  const method = init.method ?? 'POST';
  const query = new URLSearchParams(fields).toString();
  const res = await fetch(`${t.baseUrl}/oci${method === 'GET' ? `?${query}` : ''}`, {
    method,
    redirect: 'manual',
    headers: method === 'POST' ? { 'content-type': init.contentType ?? 'application/x-www-form-urlencoded' } : {},
    body: method === 'POST' ? (init.body ? new Uint8Array(init.body) : query) : undefined,
  });
  return {
    status: res.status,
    location: res.headers.get('location') ?? '',
    text: await res.text(),
    headers: res.headers,
  };
}

/** The form of a return page, read by an HTML parser: action, target, charset and the fields in order. */
function formOf(html: string) {
  type N = { nodeName: string; attrs?: { name: string; value: string }[]; childNodes?: N[] };
  const attr = (n: N, name: string) => n.attrs?.find((a) => a.name === name)?.value ?? null;
  let form: N | null = null;
  const walk = (n: N) => {
    if (n.nodeName === 'form') form ??= n;
    n.childNodes?.forEach(walk);
  };
  walk(parseHtml(html) as unknown as N);
  expect(form).not.toBeNull();
  const f = form as unknown as N;
  const inputs: N[] = [];
  const collect = (n: N) => {
    if (n.nodeName === 'input') inputs.push(n);
    n.childNodes?.forEach(collect);
  };
  collect(f);
  return {
    action: attr(f, 'action'),
    target: attr(f, 'target'),
    charset: attr(f, 'accept-charset'),
    fields: inputs.map((i) => [attr(i, 'name')!, attr(i, 'value')!] as [string, string]),
  };
}

const field = (fields: [string, string][], name: string) => fields.find(([n]) => n === name)?.[1];

/** Opens the SPA's session from a landing URL (the /ids?code=… the entry redirected to). */
async function sessionToken(location: string) {
  const code = new URL(location, t.baseUrl).searchParams.get('code')!;
  const res = await t.request('GET', `/v1/Ids?code=${encodeURIComponent(code)}`);
  expect(res.status).toBe(200);
  return res.body.accessToken as string;
}

async function fillCart(token: string) {
  const cart = await t.request('GET', '/v1/MultiCarts/Default', { token });
  for (const item of cart.body.items ?? []) await t.request('DELETE', `/v1/CartItems/${item.id}`, { token });
  const added = await t.request('POST', '/v1/CartItems', {
    token,
    body: { productInstanceId: offers.nordbad, quantity: 3 },
  });
  expect(added.status).toBe(201);
}

describe('OCI entry', () => {
  it('opens a punchout session on the search and returns the cart with the OCI fields', async () => {
    const res = await oci({ ...demo, SEARCHSTRING: 'Thermostat' });
    expect(res.status).toBe(303);
    const landing = new URL(res.location, t.baseUrl);
    expect(landing.pathname).toBe('/ids');
    expect(landing.searchParams.get('action')).toBe('oci');
    expect(landing.searchParams.get('searchterm')).toBe('Thermostat');
    const token = await sessionToken(res.location);

    // The IDS session's scope: no checkout, no second cart, no IDS return.
    const cart = await t.request('GET', '/v1/MultiCarts/Default', { token });
    expect((await t.request('POST', `/v1/MultiCarts/${cart.body.id}/checkout`, { token, body: {} })).status).toBe(403);
    expect((await t.request('POST', '/v1/MultiCarts', { token, body: { name: 'Zweitkorb' } })).status).toBe(403);
    await fillCart(token);
    const ids = await t.request('POST', `/v1/Ids/complete?idsContextId=${landing.searchParams.get('contextId')}`, {
      token,
    });
    expect(ids.status).toBe(409);
    expect(ids.body.title).toBe(idsMessages.punchoutSession);

    const back = await t.request('POST', '/v1/Punchout/return', { token });
    expect(back.status).toBe(200);
    const page = back.headers.get('x-ids-return-page')!;
    expect(page).toMatch(/^\/ids\/return\//);
    const form = formOf(back.text);
    expect(form).toMatchObject({ action: HOOK, target: '_top', charset: 'UTF-8' });
    const f = form.fields;
    expect(field(f, 'NEW_ITEM-DESCRIPTION[1]')).toBe('Thermostatventil Testserie DN15');
    expect(field(f, 'NEW_ITEM-QUANTITY[1]')).toBe('3');
    expect(field(f, 'NEW_ITEM-UNIT[1]')).toBe('PCE');
    expect(field(f, 'NEW_ITEM-PRICE[1]')).toBe('19.99');
    expect(field(f, 'NEW_ITEM-PRICEUNIT[1]')).toBe('1');
    expect(field(f, 'NEW_ITEM-CURRENCY[1]')).toBe('EUR');
    expect(field(f, 'NEW_ITEM-LEADTIME[1]')).toBe('3');
    expect(field(f, 'NEW_ITEM-VENDOR[1]')).toBe('200001');
    expect(field(f, 'NEW_ITEM-VENDORMAT[1]')).toBe('TEST-NB-1');
    expect(field(f, 'NEW_ITEM-MANUFACTCODE[1]')).toBe('TESTM');
    expect(field(f, 'NEW_ITEM-MANUFACTMAT[1]')).toBe('TM-100');
    expect(field(f, 'NEW_ITEM-MATGROUP[1]')).toBe('EC010101');
    expect(field(f, 'NEW_ITEM-EXT_PRODUCT_ID[1]')).toBe('4000000000017');
    const longText = f.filter(([n]) => n === 'NEW_ITEM-LONGTEXT_1:132[]').map(([, v]) => v);
    expect(longText.length).toBe(2);
    expect(longText.every((l) => l.length <= 132)).toBe(true);
    expect(longText.join('')).toBe('Langtext '.repeat(20).trim());
    // OCI 4.0: no customer fields; the caller's fields go back.
    expect(f.some(([n]) => n.includes('CUST_FIELD'))).toBe(false);
    expect(field(f, '~OkCode')).toBe('ADDI');
    expect(field(f, '~TARGET')).toBe('_top');
    expect(field(f, '~CALLER')).toBe('CTLG');

    // The return page is served once, may post to the hook's origin only; the session is over.
    const served = await fetch(`${t.baseUrl}${page}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-security-policy')).toContain('form-action https://sap.example');
    expect(formOf(await served.text()).fields).toEqual(f);
    expect((await t.request('GET', '/v1/MultiCarts/Default', { token })).status).toBe(401);
    const listed = await t.request('GET', '/v1/PunchoutSessions', { as: 'admin@example.com' });
    expect(listed.status).toBe(200);
    expect(listed.body[0]).toMatchObject({
      protocol: 'oci',
      bpNumber: '100001',
      userEmail: 'einkauf@example.com',
      linesReturned: 1,
    });
  });

  it('OCI 5.0 sends the configured customer fields; GET works; DETAIL opens the product', async () => {
    const res = await oci(
      { ...demo, OCI_VERSION: '5.0', FUNCTION: 'DETAIL', PRODUCTID: 'TEST-NB-1' },
      { method: 'GET' },
    );
    expect(res.status).toBe(303);
    const landing = new URL(res.location, t.baseUrl);
    expect(landing.searchParams.get('productId')).toBe('TESTM~TM-100');
    expect(landing.searchParams.get('productInstanceId')).toBe(offers.nordbad);
    const token = await sessionToken(res.location);
    await fillCart(token);
    const f = formOf((await t.request('POST', '/v1/Punchout/return', { token })).text).fields;
    expect(field(f, 'NEW_ITEM-CUST_FIELD1[1]')).toBe(offers.nordbad);
    expect(field(f, 'NEW_ITEM-CUST_FIELD2[1]')).toBeTruthy();
    expect(field(f, 'NEW_ITEM-CUST_FIELD3[1]')).toBeUndefined();
  });

  it('the buyer configures the OCI 5.0 customer fields; the password stays when none is sent', async () => {
    const body = {
      ociEnabled: true,
      ociUsername: 'einkauf@example.com',
      ociPassword: null,
      cxmlEnabled: true,
      cxmlDomain: 'NetworkId',
      cxmlIdentity: '100001',
      cxmlSharedSecret: null,
    };
    const saved = await t.request('PUT', '/v1/PunchoutCredentials', {
      as: 'einkauf@example.com',
      body: { ...body, ociCustFields: ['', 'total'] },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ ociPasswordSet: true, cxmlSecretSet: true, ociCustFields: ['', 'total'] });
    const res = await oci({ ...demo, OCI_VERSION: '5.0' });
    const token = await sessionToken(res.location);
    await fillCart(token);
    const f = formOf((await t.request('POST', '/v1/Punchout/return', { token })).text).fields;
    expect(field(f, 'NEW_ITEM-CUST_FIELD1[1]')).toBeUndefined();
    expect(field(f, 'NEW_ITEM-CUST_FIELD2[1]')).toBe('59.97');
    const refused = await t.request('PUT', '/v1/PunchoutCredentials', {
      as: 'einkauf@example.com',
      body: { ...body, ociCustFields: ['geheim'] },
    });
    expect(refused.status).toBe(400);
    // Back to the demo configuration for the other tests.
    await t.request('PUT', '/v1/PunchoutCredentials', {
      as: 'einkauf@example.com',
      body: { ...body, ociCustFields: ['offerId', 'supplierName'] },
    });
  });

  it('answers ISO-8859-1 when the caller asks for it', async () => {
    const body = Buffer.from(`${new URLSearchParams(demo)}&SEARCHSTRING=W%E4rme`, 'latin1');
    const res = await oci({}, { body, contentType: 'application/x-www-form-urlencoded; charset=ISO-8859-1' });
    expect(res.status).toBe(303);
    expect(new URL(res.location, t.baseUrl).searchParams.get('searchterm')).toBe('Wärme');
    const token = await sessionToken(res.location);
    await fillCart(token);
    expect(formOf((await t.request('POST', '/v1/Punchout/return', { token })).text).charset).toBe('ISO-8859-1');
  });

  it('VALIDATE returns the current price and availability without a page or a session', async () => {
    const before = await sessions();
    const res = await oci({ ...demo, FUNCTION: 'VALIDATE', PRODUCTID: offers.nordbad, QUANTITY: '2' });
    expect(res.status).toBe(200);
    const form = formOf(res.text);
    expect(form.action).toBe(HOOK);
    expect(field(form.fields, 'NEW_ITEM-VENDORMAT[1]')).toBe('TEST-NB-1');
    expect(field(form.fields, 'NEW_ITEM-QUANTITY[1]')).toBe('2');
    expect(field(form.fields, 'NEW_ITEM-PRICE[1]')).toBe('19.99');
    expect(field(form.fields, 'NEW_ITEM-DESCRIPTION[2]')).toBeUndefined();
    expect(await sessions()).toBe(before);
  });

  it('BACKGROUND_SEARCH returns the hits as fields without a page or a session', async () => {
    const before = await sessions();
    const res = await oci({ ...demo, FUNCTION: 'BACKGROUND_SEARCH', SEARCHSTRING: 'Thermostatventil Testserie' });
    expect(res.status).toBe(200);
    const { fields } = formOf(res.text);
    const descriptions = fields.filter(([n]) => n.startsWith('NEW_ITEM-DESCRIPTION[')).map(([, v]) => v);
    expect(descriptions).toContain('Thermostatventil Testserie DN15');
    expect(fields.some(([n, v]) => n.startsWith('NEW_ITEM-VENDORMAT[') && v === 'TEST-NB-1')).toBe(true);
    expect(await sessions()).toBe(before);
  });

  it.each([
    ['unknown user', { ...demo, USERNAME: 'niemand@example.com' }, 401, punchoutTexts.unknownUser],
    ['wrong password', { ...demo, PASSWORD: 'falsch' }, 401, punchoutTexts.unknownUser],
    ['missing HOOK_URL', { ...demo, HOOK_URL: '' }, 400, punchoutTexts.hookUrlMissing],
    ['non-http HOOK_URL', { ...demo, HOOK_URL: 'javascript:alert(1)' }, 400, punchoutTexts.hookUrlScheme],
    ['ftp HOOK_URL', { ...demo, HOOK_URL: 'ftp://sap.example/x' }, 400, punchoutTexts.hookUrlScheme],
    ['unknown FUNCTION', { ...demo, FUNCTION: 'ORDER' }, 400, punchoutTexts.unknownFunction('ORDER')],
  ])('refuses %s with a German page and stores nothing', async (_name, fields, status, text) => {
    const before = [await sessions(), await contexts()];
    const res = await oci(fields as Record<string, string>);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.text).toContain(text.replace(/„|“/g, (c) => c));
    expect([await sessions(), await contexts()]).toEqual(before);
  });

  it('refuses a body over 1 MB with a German page', async () => {
    const before = await sessions();
    const res = await oci({}, { body: Buffer.from(`${new URLSearchParams(demo)}&X=${'a'.repeat(1024 * 1024)}`) });
    expect(res.status).toBe(413);
    expect(res.text).toContain(punchoutTexts.bodyTooLarge);
    expect(await sessions()).toBe(before);
  });
});

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' });

function setupRequest(p: {
  operation?: string;
  secret?: string;
  identity?: string;
  items?: string;
  url?: string;
  doctype?: string;
}) {
  return `<?xml version="1.0" encoding="UTF-8"?>
${p.doctype ?? '<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.014/cXML.dtd">'}
<cXML payloadID="1.2@ariba.example" timestamp="2026-11-29T03:00:00+01:00" xml:lang="de">
  <Header>
    <From><Credential domain="NetworkId"><Identity>${p.identity ?? '100001'}</Identity></Credential></From>
    <To><Credential domain="DUNS"><Identity>SHK-PORTAL</Identity></Credential></To>
    <Sender><Credential domain="NetworkId"><Identity>AN01000000001</Identity><SharedSecret>${p.secret ?? 'demo'}</SharedSecret></Credential>
      <UserAgent>Ariba Test</UserAgent></Sender>
  </Header>
  <Request><PunchOutSetupRequest operation="${p.operation ?? 'create'}">
    <BuyerCookie>cookie-4711</BuyerCookie>
    <BrowserFormPost><URL>${p.url ?? 'https://ariba.example/punchout/return?x=1&amp;y=2'}</URL></BrowserFormPost>
    <SupplierSetup><URL>http://localhost/cxml/punchout</URL></SupplierSetup>
    ${p.items ?? ''}
  </PunchOutSetupRequest></Request>
</cXML>`;
}

async function cxml(body: string) {
  const res = await fetch(`${t.baseUrl}/cxml/punchout`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml' },
    body,
  });
  const text = await res.text();
  return { status: res.status, text, doc: parser.parse(text) };
}

describe('cXML punchout', () => {
  it('answers a setup with a one-time StartPage and returns a PunchOutOrderMessage', async () => {
    const res = await cxml(setupRequest({}));
    expect(res.status).toBe(200);
    expect(res.text).toContain('<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.014/cXML.dtd">');
    expect(res.doc.cXML['@payloadID']).toMatch(/^\d+\.\d+\.[0-9a-f]+@/);
    expect(res.doc.cXML['@timestamp']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect(res.doc.cXML.Response.Status['@code']).toBe('200');
    const startUrl = res.doc.cXML.Response.PunchOutSetupResponse.StartPage.URL as string;
    const start = new URL(startUrl);
    const opened = await fetch(`${t.baseUrl}${start.pathname}`, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    const location = opened.headers.get('location')!;
    expect(new URL(location, t.baseUrl).searchParams.get('action')).toBe('cxml');
    // One time only.
    expect((await fetch(`${t.baseUrl}${start.pathname}`, { redirect: 'manual' })).status).toBe(404);

    const token = await sessionToken(location);
    await fillCart(token);
    const back = await t.request('POST', '/v1/Punchout/return', { token });
    expect(back.status).toBe(200);
    const form = formOf(back.text);
    expect(form.action).toBe('https://ariba.example/punchout/return?x=1&y=2');
    expect(form.fields.map(([n]) => n)).toEqual(['cxml-urlencoded']);
    const message = form.fields[0][1];
    expect(message).toContain('<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.014/cXML.dtd">');
    const doc = parser.parse(message).cXML;
    expect(doc['@payloadID']).toBeTruthy();
    expect(doc.Header.To.Credential).toMatchObject({ '@domain': 'NetworkId', Identity: 100001 });
    const po = doc.Message.PunchOutOrderMessage;
    expect(po.BuyerCookie).toBe('cookie-4711');
    expect(po.PunchOutOrderMessageHeader['@operationAllowed']).toBe('edit');
    expect(po.PunchOutOrderMessageHeader.Total.Money).toMatchObject({ '@currency': 'EUR', '#text': 59.97 });
    const item = po.ItemIn;
    expect(item['@quantity']).toBe('3');
    expect(item.ItemID).toMatchObject({ SupplierPartID: 'TEST-NB-1', SupplierPartAuxiliaryID: offers.nordbad });
    expect(item.ItemDetail.UnitPrice.Money).toMatchObject({ '@currency': 'EUR', '#text': 19.99 });
    expect(item.ItemDetail.Description).toMatchObject({
      '@xml:lang': 'de',
      '#text': 'Thermostatventil Testserie DN15',
    });
    expect(item.ItemDetail.UnitOfMeasure).toBe('C62');
    expect(item.ItemDetail.Classification).toMatchObject({ '@domain': 'ETIM', '#text': 'EC010101' });
    expect(item.ItemDetail.ManufacturerPartID).toBe('TM-100');
    expect(item.ItemDetail.ManufacturerName).toBe('Testwerk Armaturen');
  });

  it('edit re-opens the earlier cart from its ItemOuts', async () => {
    const items = `<ItemOut quantity="5"><ItemID><SupplierPartID>TEST-NB-1</SupplierPartID>
      <SupplierPartAuxiliaryID>${offers.nordbad}</SupplierPartAuxiliaryID></ItemID></ItemOut>`;
    const res = await cxml(setupRequest({ operation: 'edit', items }));
    expect(res.doc.cXML.Response.Status['@code']).toBe('200');
    const start = new URL(res.doc.cXML.Response.PunchOutSetupResponse.StartPage.URL as string);
    const location = (await fetch(`${t.baseUrl}${start.pathname}`, { redirect: 'manual' })).headers.get('location')!;
    expect(new URL(location, t.baseUrl).searchParams.get('open')).toBe('cart');
    const token = await sessionToken(location);
    const cart = await t.request('GET', '/v1/MultiCarts/Default', { token });
    const line = cart.body.items.find((i: { productInstanceId: string }) => i.productInstanceId === offers.nordbad);
    expect(Number(line.quantity)).toBe(5);
  });

  it('inspect shows the earlier cart but returns nothing', async () => {
    const items = `<ItemOut quantity="2"><ItemID><SupplierPartID>TEST-NB-1</SupplierPartID>
      <SupplierPartAuxiliaryID>${offers.nordbad}</SupplierPartAuxiliaryID></ItemID></ItemOut>`;
    const res = await cxml(setupRequest({ operation: 'inspect', items }));
    const start = new URL(res.doc.cXML.Response.PunchOutSetupResponse.StartPage.URL as string);
    const location = (await fetch(`${t.baseUrl}${start.pathname}`, { redirect: 'manual' })).headers.get('location')!;
    const token = await sessionToken(location);
    const back = await t.request('POST', '/v1/Punchout/return', { token });
    expect(back.status).toBe(409);
    expect(back.body.title).toBe(punchoutTexts.inspectOnly);
  });

  it.each([
    ['an unknown identity', setupRequest({ identity: '999999' }), 401, punchoutTexts.cxmlAuthFailed],
    ['a wrong shared secret', setupRequest({ secret: 'falsch' }), 401, punchoutTexts.cxmlAuthFailed],
    ['malformed XML', setupRequest({}).replace('</Header>', '</Head>'), 400, punchoutTexts.xmlMalformed],
    [
      'a DOCTYPE with entities',
      setupRequest({ doctype: '<!DOCTYPE cXML [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>' }),
      400,
      punchoutTexts.xmlDoctypeEntities,
    ],
    [
      'a non-http BrowserFormPost',
      setupRequest({ url: 'javascript:alert(1)' }),
      400,
      punchoutTexts.browserFormPostMissing,
    ],
    ['an unknown operation', setupRequest({ operation: 'delete' }), 400, punchoutTexts.operationUnknown],
    ['no setup request', '<?xml version="1.0"?><cXML><Request/></cXML>', 400, punchoutTexts.xmlNotSetupRequest],
  ])('answers %s with a German cXML Status and stores nothing', async (_name, body, code, text) => {
    const before = [await sessions(), await contexts()];
    const res = await cxml(body);
    expect(res.status).toBe(code);
    expect(res.doc.cXML.Response.Status['@code']).toBe(String(code));
    expect(res.doc.cXML.Response.Status['#text']).toBe(text);
    expect([await sessions(), await contexts()]).toEqual(before);
  });

  it('answers a body over 1 MB with cXML Status 413', async () => {
    const before = await sessions();
    const res = await cxml(setupRequest({ items: `<!-- ${'x'.repeat(1024 * 1024)} -->` }));
    expect(res.status).toBe(413);
    expect(res.doc.cXML.Response.Status['#text']).toBe(punchoutTexts.bodyTooLarge);
    expect(await sessions()).toBe(before);
  });
});
