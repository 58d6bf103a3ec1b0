/**
 * Media a supplier's server gives out only with a token: a local HTTP server on loopback (allowed for the test by
 * MEDIA_FETCH_ALLOW=127.0.0.1) answers 401 without the supplier's bearer token. The fallback address is tried first,
 * the catalogue's address after it; pictures are stored only when their bytes are a JPEG or PNG (a GIF, an SVG and an
 * HTML page, each named .jpg and sent as image/jpeg, are refused and never stored); the token never goes to another
 * origin a redirect leads to.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { importAndFetchMedia, productOf200001 } from '../../../test/support/media-fixtures.ts';

const ADMIN = 'admin@example.com';
const SELLER = 'verkauf@example.com';
const BUYER = 'einkauf@example.com'; // partner 100001, active relation to 200001
const TOKEN = 'medien-token-4711';
let t: TestApp;
let server: http.Server;
let other: http.Server;
let base: string;
let otherBase: string;
let jpeg: Buffer;
let png: Buffer;
let gif: Buffer;
const requested: { url: string; authorization: string | undefined }[] = [];
const otherRequested: { url: string; authorization: string | undefined }[] = [];
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);
const svg = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>';

beforeAll(async () => {
  const picture = sharp({ create: { width: 20, height: 16, channels: 3, background: { r: 10, g: 90, b: 160 } } });
  jpeg = await picture.clone().jpeg().toBuffer();
  png = await picture.clone().png().toBuffer();
  gif = await picture.clone().gif().toBuffer();
  other = http.createServer((req, res) => {
    otherRequested.push({ url: req.url!, authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  server = http.createServer((req, res) => {
    requested.push({ url: req.url!, authorization: req.headers.authorization });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return res.writeHead(401).end();
    const asJpeg = (body: Buffer | string) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(body);
    switch (req.url) {
      case '/ausweich/tok1.jpg':
        return asJpeg(jpeg);
      case '/primaer/tok2.png':
        return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      case '/primaer/tok3.jpg':
        return asJpeg(gif);
      case '/primaer/tok4.jpg':
        return asJpeg(svg);
      case '/primaer/tok5.jpg':
        return asJpeg('<!doctype html><html><body>Anmeldung erforderlich</body></html>');
      case '/ausweich/tok6.jpg':
        return res.writeHead(302, { location: `${otherBase}/fremd/tok6.jpg` }).end();
      case '/primaer/tok7.pdf':
        return res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
      case '/primaer/tok1.jpg':
        return res.writeHead(503).end();
      default:
        return res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startTestApp({ env: { MEDIA_FETCH_ALLOW: '127.0.0.1', MEDIA_FETCH_POLL_MS: '100' } });
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => server?.close(r));
  await new Promise((r) => other?.close(r));
});

const media: Record<string, { url: () => string; type: string; purpose: string }> = {
  'TOK-1': { url: () => `${base}/primaer/tok1.jpg`, type: 'image/jpeg', purpose: 'normal' },
  'TOK-2': { url: () => `${base}/primaer/tok2.png`, type: 'image/png', purpose: 'normal' },
  'TOK-3': { url: () => `${base}/primaer/tok3.jpg`, type: 'image/jpeg', purpose: 'normal' },
  'TOK-4': { url: () => `${base}/primaer/tok4.jpg`, type: 'image/jpeg', purpose: 'normal' },
  'TOK-5': { url: () => `${base}/primaer/tok5.jpg`, type: 'image/jpeg', purpose: 'normal' },
  'TOK-6': { url: () => `${base}/primaer/tok6.jpg`, type: 'image/jpeg', purpose: 'normal' },
  'TOK-7': { url: () => `${base}/primaer/tok7.pdf`, type: 'application/pdf', purpose: 'data_sheet' },
};

function catalogue() {
  const products = Object.entries(media).map(
    ([pid, m]) => `<PRODUCT mode="new"><SUPPLIER_PID>${pid}</SUPPLIER_PID><PRODUCT_DETAILS>
<DESCRIPTION_SHORT>Tokenmedien ${pid} Heizkörperventil</DESCRIPTION_SHORT><MANUFACTURER_PID>TM-${pid}</MANUFACTURER_PID>
<MANUFACTURER_NAME>Tokenwerk</MANUFACTURER_NAME></PRODUCT_DETAILS>
<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>1</QUANTITY_MIN></PRODUCT_ORDER_DETAILS>
<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>9.90</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS>
<MIME_INFO><MIME><MIME_TYPE>${m.type}</MIME_TYPE><MIME_SOURCE>${m.url()}</MIME_SOURCE><MIME_PURPOSE>${m.purpose}</MIME_PURPOSE></MIME></MIME_INFO></PRODUCT>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>T</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>
<T_UPDATE_PRODUCTS>${products.join('\n')}</T_UPDATE_PRODUCTS></BMECAT>\n`;
}

const product = (pid: string) => productOf200001(t, pid, BUYER);

const settingsUrl = '/v1/Suppliers/200001/CatalogueImportSettings';
let details: any;

it('keeps the media fallback address and the token (encrypted, never given back); only administrators change them', async () => {
  const bad = await t.request('PUT', settingsUrl, {
    as: ADMIN,
    body: { maxWithdrawPercent: 20, maxRejectPercent: 5, mediaFallbackBaseUrl: 'ftp://medien.example/' },
  });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.body)).toContain('Bitte geben Sie eine http- oder https-Adresse ein.');

  const bySeller = await t.request('PUT', settingsUrl, {
    as: SELLER,
    body: { maxWithdrawPercent: 20, maxRejectPercent: 5, mediaAccessToken: 'fremd' },
  });
  expect(bySeller.status).toBe(403);

  const saved = await t.request('PUT', settingsUrl, {
    as: ADMIN,
    body: {
      maxWithdrawPercent: 20,
      maxRejectPercent: 5,
      mediaFallbackBaseUrl: `${base}/ausweich`,
      mediaAccessToken: TOKEN,
    },
  });
  expect(saved.status, saved.text).toBe(200);
  expect(saved.body).toEqual({
    maxWithdrawPercent: 20,
    maxRejectPercent: 5,
    mediaFallbackBaseUrl: `${base}/ausweich`,
    mediaAccessTokenSet: true,
  });
  // The limits alone (as the import settings form sends them) keep the media access.
  const limitsOnly = await t.request('PUT', settingsUrl, {
    as: ADMIN,
    body: { maxWithdrawPercent: 25, maxRejectPercent: 5 },
  });
  expect(limitsOnly.body).toMatchObject({ mediaFallbackBaseUrl: `${base}/ausweich`, mediaAccessTokenSet: true });
  const read = await t.request('GET', settingsUrl, { as: SELLER });
  expect(read.status).toBe(200);
  expect(read.text).not.toContain(TOKEN);
  const { rows } = await t.pool.query(
    `SELECT media_access_token FROM catalogue_import_settings WHERE supplier_bp_number = '200001'`,
  );
  expect(rows[0].media_access_token).toMatch(/^v1:/);
  expect(rows[0].media_access_token).not.toContain(TOKEN);
});

it('imports a catalogue whose media need the token', async () => {
  details = await importAndFetchMedia(t, catalogue(), { fileName: 'tokenmedien.xml', as: ADMIN, minQueued: 7 });
}, 90_000);

async function served(pid: string, documents = false) {
  const p = await product(pid);
  const entry = documents ? p.documentsPackage[0] : p.picturesPackage[0];
  const res = await fetch(`${t.baseUrl}${entry.url}`, { redirect: 'manual' });
  return { res, body: Buffer.from(await res.arrayBuffer()), entry };
}

it('fetches with the token from the fallback address first: the failing catalogue address is not asked', async () => {
  const { res, body } = await served('TOK-1');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/jpeg');
  expect(body.equals(jpeg)).toBe(true);
  expect(requested.find((r) => r.url === '/ausweich/tok1.jpg')?.authorization).toBe(`Bearer ${TOKEN}`);
  expect(requested.map((r) => r.url)).not.toContain('/primaer/tok1.jpg');
});

it('falls back to the catalogue address when the fallback address has no such file', async () => {
  const { res, body } = await served('TOK-2');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/png');
  expect(body.equals(png)).toBe(true);
  const order = requested.map((r) => r.url).filter((u) => u.endsWith('tok2.png'));
  expect(order).toEqual(['/ausweich/tok2.png', '/primaer/tok2.png']);
});

it('refuses a GIF, an SVG and an HTML page named .jpg: never stored, a German warning, 404 on the media route', async () => {
  for (const pid of ['TOK-3', 'TOK-4', 'TOK-5']) {
    const { res } = await served(pid);
    expect(res.status, pid).toBe(404);
  }
  const reason = (pid: string) =>
    `Das Medium „${media[pid].url()}“ konnte nicht geladen werden: der Inhalt ist kein JPEG- oder PNG-Bild.`;
  const warnings = details.warnings.map((w: any) => ({ productId: w.productId, reason: w.reason }));
  expect(warnings).toEqual([
    { productId: 'TOK-3', reason: reason('TOK-3') },
    { productId: 'TOK-4', reason: reason('TOK-4') },
    { productId: 'TOK-5', reason: reason('TOK-5') },
  ]);
  const { rows } = await t.pool.query(
    `SELECT DISTINCT content_type FROM catalogue_media_files WHERE supplier_bp_number = '200001' ORDER BY 1`,
  );
  expect(rows.map((r) => r.content_type)).toEqual(['application/pdf', 'image/jpeg', 'image/png']);
});

it('sends the token only to its own origin: a redirect elsewhere goes without it', async () => {
  const { res, body } = await served('TOK-6');
  expect(res.status).toBe(200);
  expect(body.equals(jpeg)).toBe(true);
  expect(requested.find((r) => r.url === '/ausweich/tok6.jpg')?.authorization).toBe(`Bearer ${TOKEN}`);
  expect(otherRequested).toEqual([{ url: '/fremd/tok6.jpg', authorization: undefined }]);
});

it('still accepts a PDF data sheet by URL (documents are not pictures)', async () => {
  const { res, body } = await served('TOK-7', true);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  expect(body.equals(pdf)).toBe(true);
});
