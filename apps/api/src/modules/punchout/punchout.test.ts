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
    // The demo configuration: CUST_FIELD1 the line's project (none here), CUST_FIELD5 the offer id.
    expect(field(f, 'NEW_ITEM-CUST_FIELD1[1]')).toBeUndefined();
    expect(field(f, 'NEW_ITEM-CUST_FIELD5[1]')).toBe(offers.nordbad);
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
      body: { ...body, ociCustFields: ['project', '', '', '', 'offerId'] },
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

/** The cart (id and lines) a token's session works on. */
async function sessionCart(token: string) {
  const cart = await t.request('GET', '/v1/MultiCarts/Default', { token });
  expect(cart.status).toBe(200);
  return cart.body as {
    id: number;
    isDefault: boolean;
    items: { id: number; productInstanceId: string; quantity: number }[];
  };
}

async function startCxml(operation: string, items = '') {
  const res = await cxml(setupRequest({ operation, items }));
  expect(res.doc.cXML.Response.Status['@code']).toBe('200');
  const start = new URL(res.doc.cXML.Response.PunchOutSetupResponse.StartPage.URL as string);
  const location = (await fetch(`${t.baseUrl}${start.pathname}`, { redirect: 'manual' })).headers.get('location')!;
  return {
    token: await sessionToken(location),
    contextId: new URL(location, t.baseUrl).searchParams.get('contextId')!,
  };
}

describe("the punchout session's own cart", () => {
  it('is created with the session, used only by it, and is exactly what goes back', async () => {
    // The buyer's normal default cart holds another offer: it must neither appear in nor go back with the session.
    const normal = await t.request('GET', '/v1/MultiCarts/Default', { as: 'einkauf@example.com' });
    await t.request('PUT', `/v1/MultiCarts/${normal.body.id}/items`, {
      as: 'einkauf@example.com',
      body: { items: [] },
    });
    const kept = await t.request('POST', '/v1/CartItems', {
      as: 'einkauf@example.com',
      body: { productInstanceId: offers.nordbadExpensive, quantity: 7 },
    });
    expect(kept.status).toBe(201);

    const first = await sessionToken((await oci(demo)).location);
    const second = await sessionToken((await oci(demo)).location);
    const a = await sessionCart(first);
    const b = await sessionCart(second);
    expect(a.id).not.toBe(normal.body.id);
    expect(b.id).not.toBe(a.id);
    expect(a.isDefault).toBe(false);
    expect(a.items).toEqual([]);
    // The session sees its cart only; another session's cart and the buyer's default cart are refused.
    const listed = await t.request('GET', '/v1/MultiCarts', { token: first });
    expect(listed.body.map((c: { id: number }) => c.id)).toEqual([a.id]);
    const foreign = await t.request('GET', `/v1/MultiCarts/${normal.body.id}`, { token: first });
    expect(foreign.status).toBe(403);
    expect((await t.request('GET', `/v1/MultiCarts/${b.id}`, { token: first })).status).toBe(403);
    expect(
      (
        await t.request('POST', '/v1/CartItems', {
          token: first,
          body: { cartId: b.id, productInstanceId: offers.nordbad, quantity: 1 },
        })
      ).status,
    ).toBe(403);

    expect(
      (
        await t.request('POST', '/v1/CartItems', {
          token: first,
          body: { productInstanceId: offers.nordbad, quantity: 2 },
        })
      ).status,
    ).toBe(201);
    expect((await sessionCart(first)).items.map((i) => i.productInstanceId)).toEqual([offers.nordbad]);
    expect((await sessionCart(second)).items).toEqual([]);

    // The normal session neither lists nor reaches the punchout carts.
    const mine = await t.request('GET', '/v1/MultiCarts', { as: 'einkauf@example.com' });
    expect(mine.body.map((c: { id: number }) => c.id)).not.toContain(a.id);
    expect((await t.request('GET', `/v1/MultiCarts/${a.id}`, { as: 'einkauf@example.com' })).status).toBe(404);
    expect(
      (
        await t.request('POST', '/v1/CartItems', {
          as: 'einkauf@example.com',
          body: { cartId: a.id, productInstanceId: offers.nordbad, quantity: 1 },
        })
      ).status,
    ).toBe(404);
    expect((await t.request('DELETE', `/v1/MultiCarts/${a.id}`, { as: 'einkauf@example.com' })).status).toBe(404);
    expect(
      (await t.request('POST', `/v1/MultiCarts/${a.id}/checkout`, { as: 'einkauf@example.com', body: {} })).status,
    ).toBe(404);

    const f = formOf((await t.request('POST', '/v1/Punchout/return', { token: first })).text).fields;
    expect(f.filter(([n]) => n.startsWith('NEW_ITEM-VENDORMAT[')).map(([, v]) => v)).toEqual(['TEST-NB-1']);
    expect(field(f, 'NEW_ITEM-QUANTITY[1]')).toBe('2');
    // The buyer's default cart is as it was.
    const after = await t.request('GET', `/v1/MultiCarts/${normal.body.id}`, { as: 'einkauf@example.com' });
    expect(
      after.body.items.map((i: { productInstanceId: string; quantity: number }) => [
        i.productInstanceId,
        Number(i.quantity),
      ]),
    ).toEqual([[offers.nordbadExpensive, 7]]);
  });

  it('cXML edit re-opens the earlier cart into the session cart, and the return sends exactly its lines', async () => {
    const items = `<ItemOut quantity="4"><ItemID><SupplierPartID>TEST-NB-1</SupplierPartID>
        <SupplierPartAuxiliaryID>${offers.nordbad}</SupplierPartAuxiliaryID></ItemID></ItemOut>
      <ItemOut quantity="1"><ItemID><SupplierPartID>TEST-NB-2</SupplierPartID></ItemID></ItemOut>`;
    const { token } = await startCxml('edit', items);
    const cart = await sessionCart(token);
    expect(cart.isDefault).toBe(false);
    expect(cart.items.map((i) => [i.productInstanceId, Number(i.quantity)])).toEqual([
      [offers.nordbad, 4],
      [offers.nordbadExpensive, 1],
    ]);
    const normal = await t.request('GET', '/v1/MultiCarts/Default', { as: 'einkauf@example.com' });
    expect(normal.body.items.some((i: { productInstanceId: string }) => i.productInstanceId === offers.nordbad)).toBe(
      false,
    );
    const line = cart.items.find((i) => i.productInstanceId === offers.nordbadExpensive)!;
    expect((await t.request('DELETE', `/v1/CartItems/${line.id}`, { token })).status).toBe(204);
    const message = formOf((await t.request('POST', '/v1/Punchout/return', { token })).text).fields[0][1];
    const itemIn = parser.parse(message).cXML.Message.PunchOutOrderMessage.ItemIn;
    expect(Array.isArray(itemIn)).toBe(false);
    expect(itemIn['@quantity']).toBe('4');
    expect(itemIn.ItemID.SupplierPartAuxiliaryID).toBe(offers.nordbad);
  });

  it('cXML inspect: the cart can be looked at, every change is refused with a German 403', async () => {
    const items = `<ItemOut quantity="2"><ItemID><SupplierPartID>TEST-NB-1</SupplierPartID>
      <SupplierPartAuxiliaryID>${offers.nordbad}</SupplierPartAuxiliaryID></ItemID></ItemOut>`;
    const { token, contextId } = await startCxml('inspect', items);
    const cart = await sessionCart(token);
    expect(cart.items.map((i) => Number(i.quantity))).toEqual([2]);
    expect((await t.request('GET', `/v1/IdsCarts/${contextId}`, { token })).body.readOnly).toBe(true);
    const item = cart.items[0].id;
    const changes: [string, string, unknown][] = [
      ['POST', '/v1/CartItems', { productInstanceId: offers.nordbad, quantity: 1 }],
      ['POST', '/v1/CartItems', { cartId: cart.id, productInstanceId: offers.nordbadExpensive, quantity: 1 }],
      ['PUT', `/v1/CartItems/${item}/properties`, { quantity: 9 }],
      ['DELETE', `/v1/CartItems/${item}`, undefined],
      ['DELETE', `/v1/CartItems?cartId=${cart.id}&id=${item}`, undefined],
      ['PUT', `/v1/MultiCarts/${cart.id}/items`, { items: [] }],
      ['PUT', `/v1/MultiCarts/${cart.id}`, { deliveryDate: null }],
      ['POST', `/v1/MultiCarts/${cart.id}/QuickOrder`, { lines: [{ articleNumber: 'TEST-NB-1', quantity: 1 }] }],
    ];
    for (const [method, url, body] of changes) {
      const res = await t.request(method, url, { token, body });
      expect([method, url, res.status]).toEqual([method, url, 403]);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(res.body.detail).toBe(punchoutTexts.readOnlyCart);
    }
    expect((await sessionCart(token)).items.map((i) => Number(i.quantity))).toEqual([2]);
    // A create session's cart is not read-only.
    const { contextId: created, token: other } = await startCxml('create');
    expect((await t.request('GET', `/v1/IdsCarts/${created}`, { token: other })).body.readOnly).toBe(false);
  });
});

describe('OCI entry as multipart/form-data', () => {
  const multipart = (fields: Record<string, string>, charset?: string) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (charset) form.append('_charset_', charset);
    return form;
  };

  it('is read like the urlencoded form', async () => {
    const res = await fetch(`${t.baseUrl}/oci`, {
      method: 'POST',
      redirect: 'manual',
      body: multipart({ ...demo, SEARCHSTRING: 'Wärme' }),
    });
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(new URL(location, t.baseUrl).searchParams.get('searchterm')).toBe('Wärme');
    const token = await sessionToken(location);
    await fillCart(token);
    const form = formOf((await t.request('POST', '/v1/Punchout/return', { token })).text);
    expect(form).toMatchObject({ action: HOOK, charset: 'UTF-8' });
    expect(field(form.fields, '~OkCode')).toBe('ADDI');
    expect(field(form.fields, 'NEW_ITEM-VENDORMAT[1]')).toBe('TEST-NB-1');
  });

  it('keeps ISO-8859-1 bytes and answers in ISO-8859-1', async () => {
    const boundary = 'sapBoundary4711';
    const parts = [...Object.entries(demo), ['SEARCHSTRING', 'W\u00e4rme']]
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('');
    const res = await fetch(`${t.baseUrl}/oci`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: new Uint8Array(Buffer.from(`${parts}--${boundary}--\r\n`, 'latin1')),
    });
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(new URL(location, t.baseUrl).searchParams.get('searchterm')).toBe('Wärme');
    const token = await sessionToken(location);
    await fillCart(token);
    expect(formOf((await t.request('POST', '/v1/Punchout/return', { token })).text).charset).toBe('ISO-8859-1');
  });

  it('refuses a bad login, a body over 1 MB, a broken form and other body types with German pages', async () => {
    const before = [await sessions(), await contexts()];
    const post = (body: BodyInit, headers: Record<string, string> = {}) =>
      fetch(`${t.baseUrl}/oci`, { method: 'POST', redirect: 'manual', body, headers });
    const wrong = await post(multipart({ ...demo, PASSWORD: 'falsch' }));
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain(punchoutTexts.unknownUser);
    const large = await post(multipart({ ...demo, X: 'a'.repeat(1024 * 1024) }));
    expect(large.status).toBe(413);
    expect(large.headers.get('content-type')).toMatch(/text\/html/);
    expect(await large.text()).toContain(punchoutTexts.bodyTooLarge);
    const broken = await post('--x\r\nkaputt', { 'content-type': 'multipart/form-data; boundary=x' });
    expect(broken.headers.get('content-type')).toMatch(/text\/html/);
    expect(broken.status).toBe(400);
    const plain = await post('USERNAME=einkauf', { 'content-type': 'application/pdf' });
    expect(plain.status).toBe(415);
    expect(plain.headers.get('content-type')).toMatch(/text\/html/);
    expect(await plain.text()).toContain(punchoutTexts.mediaTypeOci);
    expect([await sessions(), await contexts()]).toEqual(before);
  });
});

describe('OCI 5.0 customer fields configured by the buyer', () => {
  const credentials = {
    ociEnabled: true,
    ociUsername: 'einkauf@example.com',
    ociPassword: null,
    cxmlEnabled: true,
    cxmlDomain: 'NetworkId',
    cxmlIdentity: '100001',
    cxmlSharedSecret: null,
  };

  it('carry a fixed text, the line project and note; German messages for bad settings', async () => {
    const missing = await t.request('PUT', '/v1/PunchoutCredentials', {
      as: 'einkauf@example.com',
      body: { ...credentials, ociCustFields: ['fixed'], ociCustFieldValues: [''] },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([
      { field: 'body.ociCustFieldValues.0', message: punchoutTexts.custFieldValueMissing(1) },
    ]);
    const tooLong = await t.request('PUT', '/v1/PunchoutCredentials', {
      as: 'einkauf@example.com',
      body: { ...credentials, ociCustFields: ['', 'fixed'], ociCustFieldValues: ['', 'X'.repeat(11)] },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0]).toEqual({
      field: 'body.ociCustFieldValues.1',
      message: punchoutTexts.custFieldValueTooLong(2, 10),
    });
    const unused = await t.request('PUT', '/v1/PunchoutCredentials', {
      as: 'einkauf@example.com',
      body: { ...credentials, ociCustFields: ['project'], ociCustFieldValues: ['KST1'] },
    });
    expect(unused.status).toBe(400);
    expect(unused.body.errors[0].message).toBe(punchoutTexts.custFieldValueUnused(1));

    const saved = await t.request('PUT', '/v1/PunchoutCredentials', {
      as: 'einkauf@example.com',
      body: {
        ...credentials,
        ociCustFields: ['fixed', 'project', 'comment', '', 'supplierName'],
        ociCustFieldValues: ['KST-4711', '', '', '', ''],
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      ociCustFields: ['fixed', 'project', 'comment', '', 'supplierName'],
      ociCustFieldValues: ['KST-4711', '', '', '', ''],
    });

    const project = await t.pool.query<{ id: string }>(
      `INSERT INTO projects (bp_number, code, description) VALUES ('100001', 'PRJ-0815', 'Testprojekt')
       ON CONFLICT (bp_number, lower(code)) DO UPDATE SET description = EXCLUDED.description RETURNING id`,
    );
    const token = await sessionToken((await oci({ ...demo, OCI_VERSION: '5.0' })).location);
    await fillCart(token);
    const line = (await sessionCart(token)).items[0];
    const changed = await t.request('PUT', `/v1/CartItems/${line.id}/properties`, {
      token,
      body: { quantity: 3, projectId: Number(project.rows[0].id), comment: 'Heizraum Keller links' },
    });
    expect(changed.status).toBe(200);
    const f = formOf((await t.request('POST', '/v1/Punchout/return', { token })).text).fields;
    expect(field(f, 'NEW_ITEM-CUST_FIELD1[1]')).toBe('KST-4711');
    expect(field(f, 'NEW_ITEM-CUST_FIELD2[1]')).toBe('PRJ-0815');
    // CUST_FIELD3 is CHAR 10 in SAP's OCI: the note is cut to it.
    expect(field(f, 'NEW_ITEM-CUST_FIELD3[1]')).toBe('Heizraum K');
    expect(field(f, 'NEW_ITEM-CUST_FIELD4[1]')).toBeUndefined();
    expect(field(f, 'NEW_ITEM-CUST_FIELD5[1]')).toBeTruthy();

    // Back to the demo configuration.
    await t.request('PUT', '/v1/PunchoutCredentials', {
      as: 'einkauf@example.com',
      body: { ...credentials, ociCustFields: ['project', '', '', '', 'offerId'], ociCustFieldValues: [] },
    });
  });
});

describe('protocols switched off on the profile', () => {
  it('refuse their login with a German page or cXML Status 403 and store nothing', async () => {
    const credentials = {
      ociUsername: 'einkauf@example.com',
      ociPassword: null,
      cxmlDomain: 'NetworkId',
      cxmlIdentity: '100001',
      cxmlSharedSecret: null,
    };
    const off = await t.request('PUT', '/v1/PunchoutCredentials', {
      as: 'einkauf@example.com',
      body: { ...credentials, ociEnabled: false, cxmlEnabled: false },
    });
    expect(off.body).toMatchObject({ ociEnabled: false, cxmlEnabled: false, ociPasswordSet: true });
    try {
      const before = [await sessions(), await contexts()];
      const page = await oci(demo);
      expect(page.status).toBe(403);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      expect(page.text).toContain(punchoutTexts.protocolDisabled);
      const status = await cxml(setupRequest({}));
      expect(status.status).toBe(403);
      expect(status.doc.cXML.Response.Status['#text']).toBe(punchoutTexts.protocolDisabled);
      expect([await sessions(), await contexts()]).toEqual(before);
    } finally {
      await t.request('PUT', '/v1/PunchoutCredentials', {
        as: 'einkauf@example.com',
        body: { ...credentials, ociEnabled: true, cxmlEnabled: true },
      });
    }
  });
});
