import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { insertTestOffers } from '../../../test/support/cart-fixtures.ts';

const fixtures = path.join(import.meta.dirname, 'fixtures');
const xsdDir = path.resolve(import.meta.dirname, '../../../test/fixtures/ids-xsd');
const hook = 'https://handwerk.example/ids/return?session=abc&x=1%202';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  await insertTestOffers(t.pool);
  // A second supplier (AquaTherm, orderable for 100001) for the thermostat valve: the GTIN is ambiguous.
  await t.pool.query(
    `INSERT INTO product_offers (product_instance_id, product_no, supplier_bp_number, supplier_pid, supplier_pid_norm, product_data_source, unit_code, net_price, price_basis, min_order_quantity)
     VALUES ('200003~TEST-AT-9', 900001, '200003', 'TEST-AT-9', 'TESTAT9', 1, 'C62', 18.5, 1, 1) ON CONFLICT DO NOTHING`,
  );
}, 120_000);
afterAll(async () => t?.close());

const login = { kndnr: '100001', name_kunde: 'einkauf@example.com', pw_kunde: 'demo' };

/** Posts the entry like a craftsman program; returns the redirect target. */
async function entry(fields: Record<string, string | Buffer>, as: 'multipart' | 'urlencoded' = 'multipart') {
  let body: BodyInit;
  const headers: Record<string, string> = {};
  if (as === 'multipart') {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields))
      form.append(k, typeof v === 'string' ? v : new Blob([new Uint8Array(v)]));
    body = form;
  } else {
    body = Object.entries(fields)
      .map(([k, v]) => `${encodeURIComponent(k)}=${typeof v === 'string' ? encodeURIComponent(v) : percentBytes(v)}`)
      .join('&');
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const res = await fetch(`${t.baseUrl}/ids`, { method: 'POST', body, headers, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location') ?? '', text: await res.text(), res };
}

/**
 * A multipart body written by hand: every field a plain text part (no file name, no charset), its bytes
 * as given, like craftsman programs that post a Latin-1 cart into the form field.
 */
async function rawMultipart(fields: Record<string, string | Buffer>) {
  const boundary = '----IdsTest7MA4YWxkTrZu0gW';
  const parts = Object.entries(fields).map(([k, v]) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n`, 'latin1'),
      typeof v === 'string' ? Buffer.from(v, 'utf8') : v,
      Buffer.from('\r\n', 'latin1'),
    ]),
  );
  const body = Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`, 'latin1')]);
  const res = await fetch(`${t.baseUrl}/ids`, {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location') ?? '', text: await res.text() };
}

const percentBytes = (b: Buffer) => [...b].map((x) => `%${x.toString(16).padStart(2, '0')}`).join('');

async function signIn(fields: Record<string, string | Buffer>, as: 'multipart' | 'urlencoded' = 'multipart') {
  const r = await entry({ ...login, ...fields }, as);
  expect(r.status).toBe(303);
  const url = new URL(r.location, t.baseUrl);
  expect(url.pathname).toBe('/ids');
  const code = url.searchParams.get('code')!;
  const tokens = await t.request('GET', `/v1/Ids?code=${encodeURIComponent(code)}`);
  expect(tokens.status).toBe(200);
  return { url, code, token: tokens.body.accessToken as string, contextId: url.searchParams.get('contextId')! };
}

const fixture = (name: string) => fs.readFileSync(path.join(fixtures, name));

/** The hidden field of the return form, as the browser would post it. */
function warenkorbOf(html: string): string {
  const m = /name="warenkorb" value="([^"]*)"/.exec(html);
  expect(m).toBeTruthy();
  return m![1]
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function validate(xml: string, version: string) {
  const xsd = path.join(xsdDir, `warenkorb-empfangen-${version}.xsd`);
  // xmllint exits non-zero (and the test fails) when the document does not validate.
  execFileSync('xmllint', ['--noout', '--schema', xsd, '-'], { input: xml, stdio: 'pipe' });
}

describe('IDS entry', () => {
  it('answers li and sv with the norm XML, action case-insensitive', async () => {
    const li = await entry({ action: 'LI' });
    expect(li.status).toBe(200);
    expect(li.text).toContain('<Benutzername_erforderlich>true</Benutzername_erforderlich>');
    const sv = await fetch(`${t.baseUrl}/ids?action=Sv`);
    const text = await sv.text();
    expect(text).toContain('<Version>2.0</Version>');
    expect(text).toContain('<Version>2.5</Version>');
    expect(text).toContain('<Version>2.5.1</Version>');
  });

  it('serves the SPA for the landing URL with a code', async () => {
    const res = await fetch(`${t.baseUrl}/ids?code=abc&contextId=x&action=wks`, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  });

  it('sends a missing or unsupported version to /ids-bad-request', async () => {
    const missing = await entry({ ...login, action: 'wks' });
    expect(missing.location).toBe('/ids-bad-request?property=version&error=VE002_NotEmpty');
    const wrong = await entry({ ...login, action: 'wks', version: '3.0' });
    expect(wrong.location).toBe('/ids-bad-request?property=version&error=VE007_ValueNotInRange');
    const action = await entry({ ...login, action: 'xyz', version: '2.5' });
    expect(action.location).toBe('/ids-bad-request?property=action&error=VE007_ValueNotInRange');
    const noAction = await entry({ ...login, version: '2.5' });
    expect(noAction.status).toBe(303);
    expect(noAction.location).toBe('/ids-bad-request?property=action&error=VE002_NotEmpty');
    const blankAction = await entry({ ...login, action: '  ', version: '2.5' }, 'urlencoded');
    expect(blankAction.location).toBe('/ids-bad-request?property=action&error=VE002_NotEmpty');
  });

  it('accepts 2.1, 2.2 and 2.3 as 2.0 (docs/ids.md), but SV lists only 2.0, 2.5 and 2.5.1', async () => {
    for (const version of ['2.1', '2.2', '2.3']) {
      const r = await entry({ ...login, action: 'wke', version, hookurl: hook });
      expect(r.status).toBe(303);
      expect(new URL(r.location, t.baseUrl).pathname).toBe('/ids');
    }
    const sv = await (await fetch(`${t.baseUrl}/ids?action=sv`)).text();
    expect(sv).not.toContain('2.2');
    expect((await entry({ ...login, action: 'wke', version: '2.4' })).location).toBe(
      '/ids-bad-request?property=version&error=VE007_ValueNotInRange',
    );
  });

  it('refuses NUL bytes in the form fields with a 400 problem, not a 500', async () => {
    const urlencoded = await entry({ ...login, kndnr: '100\u0000001', action: 'wke', version: '2.5' }, 'urlencoded');
    expect(urlencoded.status).toBe(400);
    expect(JSON.parse(urlencoded.text).type).toContain('invalid-characters');
    const user = await entry({ ...login, name_kunde: 'einkauf@example.com\u0000', action: 'wke', version: '2.5' });
    expect(user.status).toBe(400);
    const cart = await rawMultipart({
      ...login,
      action: 'wks',
      version: '2.5',
      hookurl: hook,
      warenkorb: Buffer.concat([fixture('wks-2.5.xml').subarray(0, 200), Buffer.from([0]), Buffer.from('x')]),
    });
    expect(cart.status).toBe(400);
    const hookNul = await entry({ ...login, action: 'wke', version: '2.5', hookurl: `${hook}\u0000` }, 'urlencoded');
    expect(hookNul.status).toBe(400);
    expect(JSON.parse(hookNul.text).title).toBe('Die Anfrage enthält unzulässige Zeichen.');
  });

  it('sends wrong credentials to /unauthorized', async () => {
    const r = await entry({ ...login, pw_kunde: 'falsch', action: 'as', version: '2.5' });
    expect(r.status).toBe(303);
    expect(r.location).toBe('/unauthorized');
    const other = await entry({ ...login, kndnr: '100003', action: 'as', version: '2.5' });
    expect(other.location).toBe('/unauthorized');
  });

  it('accepts the aliases (Kundennummer, Benutzername, Passwort, HOOK_URL) and routes as with the search term', async () => {
    const r = await entry({
      Kundennummer: '100001',
      Benutzername: 'einkauf@example.com',
      Passwort: 'demo',
      Aktion: 'As',
      VERSION: '2.5',
      Suchbegriff: 'Thermostat',
      HOOK_URL: hook,
    });
    const url = new URL(r.location, t.baseUrl);
    expect(url.searchParams.get('action')).toBe('as');
    expect(url.searchParams.get('searchterm')).toBe('Thermostat');
  });

  it('adl redirects with the offer of the wholesaler article number', async () => {
    const { url } = await signIn({ action: 'ADL', version: '2.5', ghnummer: 'TEST-NB-1', hookurl: hook });
    expect(url.searchParams.get('productId')).toBe('TESTM~TM-100');
    expect(url.searchParams.get('productInstanceId')).toBe('200001~TEST-NB-1');
    expect(url.searchParams.get('articleNumber')).toBe('TEST-NB-1');
  });

  it('refuses a replayed code; the token carries the IDS context', async () => {
    const { code, token, contextId } = await signIn({ action: 'wke', version: '2.5', hookurl: hook });
    const again = await t.request('GET', `/v1/Ids?code=${encodeURIComponent(code)}`);
    expect(again.status).toBe(401);
    const profile = await t.request('GET', '/v1/UserProfile', { token });
    expect(profile.body.idsContextId).toBe(contextId);
    expect(profile.body.currentBpNumber).toBe('100001');
  });

  it('refuses an expired code', async () => {
    const r = await entry({ ...login, action: 'wke', version: '2.5', hookurl: hook });
    const code = new URL(r.location, t.baseUrl).searchParams.get('code')!;
    await t.pool.query("UPDATE ids_codes SET expires_at = now() - interval '1 second' WHERE used_at IS NULL");
    const res = await t.request('GET', `/v1/Ids?code=${encodeURIComponent(code)}`);
    expect(res.status).toBe(401);
    expect(res.body.detail).toContain('abgelaufen');
  });
});

describe('receiving a cart (wks)', () => {
  it('matches a 2.5 cart into the five states and keeps every position', async () => {
    const { token, contextId, url } = await signIn({
      action: 'wks',
      version: '2.5',
      hookurl: hook,
      warenkorb: fixture('wks-2.5.xml').toString('utf8'),
    });
    expect(url.searchParams.get('itemsCount')).toBe('5');
    const cart = await t.request('GET', `/v1/IdsCarts/${contextId}`, { token });
    expect(cart.status).toBe(200);
    const states = Object.fromEntries(cart.body.items.map((i: any) => [i.articleNumber, i.matchResult]));
    expect(states).toEqual({
      'TEST-NB-1': 'Matched',
      'KR15-ALT': 'QuantityNotMatched',
      'TEST-WK-1': 'SupplierRelationshipNotMatched',
      'UNBEKANNT-999': 'NotMatched',
      'X-THERMO': 'SupplierNotMatched',
    });
    const ambiguous = cart.body.items.find((i: any) => i.articleNumber === 'X-THERMO');
    expect(ambiguous.supplierRelations.map((s: any) => s.supplierBpNumber).sort()).toEqual(['200001', '200003']);
  });

  it('reads 2.0 in ISO-8859-1 (urlencoded bytes) without namespace, children in any order', async () => {
    const { token, contextId } = await signIn(
      { action: 'WKS', version: '2.0', hookurl: hook, warenkorb: fixture('wks-2.0-latin1.xml') },
      'urlencoded',
    );
    const cart = await t.request('GET', `/v1/IdsCarts/${contextId}`, { token });
    expect(cart.body.items.map((i: any) => i.shortName)).toEqual([
      'Heizkörperverschraubung - Größe ½"',
      'Ventil für Bäder',
    ]);
    expect(cart.body.items.map((i: any) => i.matchResult)).toEqual(['Matched', 'Matched']);
    expect(cart.body.items[1].quantity).toBe(3);
  });

  it('reads 2.0 in ISO-8859-1 sent as a multipart text field (version 2.2 answered as 2.0)', async () => {
    const r = await rawMultipart({
      ...login,
      action: 'wks',
      version: '2.2',
      hookurl: hook,
      warenkorb: fixture('wks-2.0-latin1.xml'),
    });
    expect(r.status).toBe(303);
    const url = new URL(r.location, t.baseUrl);
    const tokens = await t.request('GET', `/v1/Ids?code=${encodeURIComponent(url.searchParams.get('code')!)}`);
    const token = tokens.body.accessToken as string;
    const contextId = url.searchParams.get('contextId')!;
    const cart = await t.request('GET', `/v1/IdsCarts/${contextId}`, { token });
    expect(cart.body.version).toBe('2.2');
    expect(cart.body.items.map((i: any) => i.shortName)).toEqual([
      'Heizkörperverschraubung - Größe ½"',
      'Ventil für Bäder',
    ]);
    expect((await t.request('POST', `/v1/IdsCarts/${contextId}`, { token })).status).toBe(201);
    const done = await t.request('POST', `/v1/Ids/complete?idsContextId=${contextId}&withCheckout=false`, { token });
    expect(done.status).toBe(200);
    const xml = warenkorbOf(done.text);
    validate(xml, '2.0');
    expect(xml).toContain('<Version>2.0</Version>');
    expect(xml).toContain('<ArtNo>TEST-NB-1</ArtNo>');
    expect(xml).toContain('<ArtNo>TEST-NB-2</ArtNo>');
  });

  it('reads an HTML-escaped 2.5.1 cart with prefixed namespace and Referenz blocks', async () => {
    const escaped = fixture('wks-2.5.1.xml')
      .toString('utf8')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;');
    const { token, contextId } = await signIn({ action: 'wks', version: '2.5.1', hookurl: hook, warenkorb: escaped });
    const cart = await t.request('GET', `/v1/IdsCarts/${contextId}`, { token });
    expect(cart.body.items.map((i: any) => [i.gtin, i.matchedProductInstanceId, i.matchResult])).toEqual([
      ['4000000000055', '200001~TEST-NB-2', 'Matched'],
      [null, null, 'SupplierRelationshipNotMatched'],
    ]);
  });

  it('keeps an unreadable position as NotMatched with its raw text', async () => {
    const { token, contextId } = await signIn({
      action: 'wks',
      version: '2.5',
      hookurl: hook,
      warenkorb: fixture('wks-broken.xml').toString('utf8'),
    });
    const cart = await t.request('GET', `/v1/IdsCarts/${contextId}`, { token });
    expect(cart.body.items).toHaveLength(2);
    expect(cart.body.items[0].matchResult).toBe('Matched');
    expect(cart.body.items[1].matchResult).toBe('NotMatched');
    expect(cart.body.items[1].rawText).toContain('KAPUTT');
  });
});

describe('round trips', () => {
  it('2.5: fix items, move to the cart, return without order; the document validates', async () => {
    const { token, contextId } = await signIn({
      action: 'wks',
      version: '2.5',
      hookurl: hook,
      target: 'idsframe',
      warenkorb: fixture('wks-2.5.xml').toString('utf8'),
    });
    const items = (await t.request('GET', `/v1/IdsCarts/${contextId}`, { token })).body.items as any[];
    const blocked = await t.request('POST', `/v1/IdsCarts/${contextId}`, { token });
    expect(blocked.status).toBe(409);

    const pipe = items.find((i) => i.articleNumber === 'KR15-ALT');
    const tooFew = await t.request('PUT', `/v1/IdsCartItems/${pipe.id}`, {
      token,
      body: { matchedProductInstanceId: '200003~TEST-AT-1', matchedQuantity: 10 },
    });
    expect(tooFew.status).toBe(200);
    expect(tooFew.body.matchResult).toBe('Matched');
    const valve = items.find((i) => i.articleNumber === 'X-THERMO');
    const foreign = await t.request('PUT', `/v1/IdsCartItems/${valve.id}`, {
      token,
      body: { matchedProductInstanceId: '200002~TEST-WK-1', matchedQuantity: 1 },
    });
    expect(foreign.status).toBe(400);
    await t.request('PUT', `/v1/IdsCartItems/${valve.id}`, {
      token,
      body: { matchedProductInstanceId: '200003~TEST-AT-9', matchedQuantity: 4 },
    });
    const unknown = items.find((i) => i.articleNumber === 'UNBEKANNT-999');
    expect((await t.request('DELETE', `/v1/IdsCartItems/${unknown.id}`, { token })).status).toBe(204);

    const moved = await t.request('POST', `/v1/IdsCarts/${contextId}`, { token });
    expect(moved.status).toBe(201);
    expect((await t.request('POST', `/v1/IdsCarts/${contextId}`, { token })).status).toBe(200);

    const done = await t.request('POST', `/v1/Ids/complete?idsContextId=${contextId}&withCheckout=false`, { token });
    expect(done.status).toBe(200);
    expect(done.headers.get('content-type')).toContain('text/html');
    expect(done.text).toContain(`action="${hook.replace(/&/g, '&amp;')}"`);
    expect(done.text).toContain('target="idsframe"');
    const xml = warenkorbOf(done.text);
    validate(xml, '2.5');
    expect(xml).toContain('<RueckgabeKZ>Warenkorbrückgabe</RueckgabeKZ>');
    expect(xml).toContain('<InquiryNo>ANF-4711</InquiryNo>');
    expect(xml).toContain('<Kommission>Bad Familie Groß</Kommission>');
    expect(xml).toMatch(/<Customer>10<\/Customer>\s*<CustomerSubNo>1<\/CustomerSubNo>/);
    expect(xml).toContain('<ArtNo>TEST-AT-1</ArtNo>');
    // 125 € per 100 m, minimum 10 m: quantity 10 → 125 / 100 × 10 × 10 = 125
    expect(xml).toMatch(
      /<ArtNo>TEST-AT-1<\/ArtNo>[\s\S]*?<OfferPrice>125.0000<\/OfferPrice>[\s\S]*?<PriceBasis>100.00<\/PriceBasis>/,
    );
    expect(xml).toContain('<EAN>4000000000017</EAN>');
    // The position without a relation goes back with an error.
    expect(xml).toMatch(/<ArtNo>TEST-WK-1<\/ArtNo>[\s\S]*?<Fehlercode>1<\/Fehlercode>/);
    expect(xml).not.toContain('UNBEKANNT-999');
    // The IDS session ended with the return: its token is refused from now on (401, like after sign-out).
    const again = await t.request('POST', `/v1/Ids/complete?idsContextId=${contextId}&withCheckout=false`, { token });
    expect(again.status).toBe(401);
    expect(again.body.detail).toBe('Die IDS-Sitzung ist beendet, weil der Warenkorb zurückgegeben wurde.');
    expect((await t.request('GET', '/v1/UserProfile', { token })).status).toBe(401);
    // The user's normal portal sign-in is not affected.
    expect((await t.request('GET', '/v1/UserProfile', { as: 'einkauf@example.com' })).status).toBe(200);
    // The same form as a page of our origin, once, allowed to post to the hook's origin only.
    const pageUrl = done.headers.get('x-ids-return-page')!;
    const page = await fetch(`${t.baseUrl}${pageUrl}`, { redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain('form-action https://handwerk.example');
    expect(page.headers.get('x-frame-options')).toBeNull();
    expect(warenkorbOf(await page.text())).toBe(xml);
    const reused = await fetch(`${t.baseUrl}${pageUrl}`, { redirect: 'manual' });
    expect(reused.status).toBe(303);
  });

  it('2.0: complete with order returns the order number and a valid 2.0 document', async () => {
    const { token, contextId } = await signIn({
      action: 'wks',
      version: '2.0',
      hookurl: hook,
      warenkorb: fixture('wks-2.0-latin1.xml'),
    });
    expect((await t.request('POST', `/v1/IdsCarts/${contextId}`, { token })).status).toBe(201);
    const done = await t.request('POST', `/v1/Ids/complete?idsContextId=${contextId}&withCheckout=true`, { token });
    expect(done.status).toBe(200);
    const xml = warenkorbOf(done.text);
    validate(xml, '2.0');
    expect(xml).toContain('<RueckgabeKZ>Warenkorbrückgabe mit Bestellung</RueckgabeKZ>');
    const number = /<OrderConfNo>([^<]+)<\/OrderConfNo>/.exec(xml)![1];
    const order = await t.pool.query('SELECT bp_number FROM customer_orders WHERE customer_order_number = $1', [
      number,
    ]);
    expect(order.rows[0].bp_number).toBe('100001');
    expect(xml).toContain('<ModeOfShipment>Abholung</ModeOfShipment>');
  });

  it('2.5.1: Referenz blocks survive the round trip and the document validates', async () => {
    const { token, contextId } = await signIn({
      action: 'wks',
      version: '2.5.1',
      hookurl: hook,
      warenkorb: fixture('wks-2.5.1.xml').toString('utf8'),
    });
    expect((await t.request('POST', `/v1/IdsCarts/${contextId}`, { token })).status).toBe(201);
    const done = await t.request('POST', `/v1/Ids/complete?idsContextId=${contextId}&withCheckout=false`, { token });
    const xml = warenkorbOf(done.text);
    validate(xml, '2.5.1');
    expect(xml).toContain('<Version>2.5.1</Version>');
    expect(xml).toMatch(/<ReferenzNumber>ANG-2026-17<\/ReferenzNumber>[\s\S]*<ReferenzLine>1<\/ReferenzLine>/);
  });

  it('as: one product is sent back with Send', async () => {
    const { token, contextId } = await signIn({ action: 'as', version: '2.5', hookurl: hook, searchterm: 'Ventil' });
    const sent = await t.request('POST', `/v1/Ids/Send?idsContextId=${contextId}`, {
      token,
      body: { productInstanceId: '200001~TEST-NB-1', quantity: 2, manufacturerId: 'TESTM', manufacturerPid: 'TM-100' },
    });
    expect(sent.status).toBe(200);
    const xml = warenkorbOf(sent.text);
    validate(xml, '2.5');
    expect(xml).toMatch(/<NetPrice>39.9800<\/NetPrice>/);
    expect(sent.text).toContain('target="_top"');
    // Send ends the IDS session too: a second product or any other call with the token is refused.
    const twice = await t.request('POST', `/v1/Ids/Send?idsContextId=${contextId}`, {
      token,
      body: { productInstanceId: '200001~TEST-NB-1', quantity: 1 },
    });
    expect(twice.status).toBe(401);
    expect((await t.request('GET', '/v1/UserProfile', { token })).status).toBe(401);
  });

  it('an open IDS session keeps its token; deleting all pre-cart items (DELETE /v1/IdsCarts/{id}/items)', async () => {
    const { token, contextId } = await signIn({
      action: 'wks',
      version: '2.5',
      hookurl: hook,
      warenkorb: fixture('wks-2.5.xml').toString('utf8'),
    });
    expect((await t.request('GET', '/v1/UserProfile', { token })).status).toBe(200);
    const foreign = await t.request('DELETE', `/v1/IdsCarts/${contextId}/items`, { as: 'einkauf2@example.com' });
    expect(foreign.status).toBe(404);
    const unknown = await t.request('DELETE', `/v1/IdsCarts/${crypto.randomUUID()}/items`, { token });
    expect(unknown.status).toBe(404);
    const before = await t.request('GET', `/v1/IdsCarts/${contextId}`, { token });
    expect(before.body.items.filter((i: any) => !i.isDeleted)).toHaveLength(5);
    const res = await t.request('DELETE', `/v1/IdsCarts/${contextId}/items`, { token });
    expect(res.status).toBe(204);
    const after = await t.request('GET', `/v1/IdsCarts/${contextId}`, { token });
    expect(after.body.items).toHaveLength(5);
    expect(after.body.items.every((i: any) => i.isDeleted)).toBe(true);
    // Nothing needs a supplier or a quantity any more: nothing is blocked, and the return holds no position.
    const done = await t.request('POST', `/v1/Ids/complete?idsContextId=${contextId}&withCheckout=false`, { token });
    expect(done.status).toBe(200);
    const xml = warenkorbOf(done.text);
    validate(xml, '2.5');
    expect(xml).not.toContain('UNBEKANNT-999');
    expect(xml).not.toContain('X-THERMO');
  });

  it("another user's context is a 404", async () => {
    const { contextId } = await signIn({ action: 'wke', version: '2.5', hookurl: hook });
    const res = await t.request('GET', `/v1/IdsCarts/${contextId}`, { as: 'einkauf2@example.com' });
    expect(res.status).toBe(404);
  });
});

describe('IDS credentials', () => {
  it('the buyer sets them and can log in with them', async () => {
    const put = await t.request('PUT', '/v1/IdsCredentials', {
      as: 'einkauf2@example.com',
      body: { loginName: 'becker-ids', password: 'geheim-123' },
    });
    expect(put.status).toBe(200);
    const row = await t.pool.query("SELECT password_hash FROM ids_credentials WHERE login_name = 'becker-ids'");
    expect(row.rows[0].password_hash).toMatch(/^scrypt\$/);
    const r = await entry({
      kndnr: '100003',
      name_kunde: 'BECKER-IDS',
      pw_kunde: 'geheim-123',
      action: 'wke',
      version: '2.5',
    });
    expect(new URL(r.location, t.baseUrl).pathname).toBe('/ids');
    const get = await t.request('GET', '/v1/IdsCredentials', { as: 'einkauf2@example.com' });
    expect(get.body).toEqual({ bpNumber: '100003', loginName: 'becker-ids', configured: true });
  });

  it('rate limits login attempts', async () => {
    let last = 0;
    for (let i = 0; i < 32; i++) {
      last = (await entry({ kndnr: '100002', name_kunde: 'x', pw_kunde: 'y', action: 'wke', version: '2.5' })).status;
    }
    expect(last).toBe(429);
  });
});
