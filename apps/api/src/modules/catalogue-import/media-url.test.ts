/**
 * Media a catalogue names by URL are fetched and stored, never redirected to: a local HTTP server on loopback (allowed
 * for the test by MEDIA_FETCH_ALLOW=127.0.0.1) serves a real JPEG, an HTML page named .jpg, redirects to the cloud
 * metadata address and to another loopback address, a redirect chain and a file over the size limit.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { importAndFetchMedia, productOf200001 } from '../../../test/support/media-fixtures.ts';

const ADMIN = 'admin@example.com';
const BUYER = 'einkauf@example.com'; // partner 100001, active relation to 200001
let t: TestApp;
let server: http.Server;
let base: string;
let jpeg: Buffer;
const requested: string[] = [];

beforeAll(async () => {
  jpeg = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .jpeg()
    .toBuffer();
  server = http.createServer((req, res) => {
    requested.push(req.url!);
    const port = (server.address() as AddressInfo).port;
    const redirect = (location: string) => res.writeHead(302, { location }).end();
    const chain = /^\/kette(\d)\.jpg$/.exec(req.url!);
    if (req.url === '/bild.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    else if (req.url === '/umweg.jpg') redirect('/bild.jpg');
    else if (req.url === '/seite.jpg')
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<html>kein Bild</html>');
    else if (req.url === '/metadaten.jpg') redirect('http://169.254.169.254/latest/meta-data/bild.jpg');
    else if (req.url === '/lokal.jpg') redirect(`http://127.0.0.2:${port}/bild.jpg`);
    else if (chain) redirect(Number(chain[1]) < 4 ? `/kette${Number(chain[1]) + 1}.jpg` : '/bild.jpg');
    else if (req.url === '/gross.jpg')
      res.writeHead(200).end(Buffer.concat([jpeg.subarray(0, 4), Buffer.alloc(2 * 1024 * 1024)]));
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startTestApp({
    env: { MEDIA_FETCH_ALLOW: '127.0.0.1', MEDIA_FETCH_POLL_MS: '100', MEDIA_FETCH_MAX_MB: '1' },
  });
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => server?.close(r));
});

const sources: Record<string, () => string> = {
  'URL-1': () => `${base}/bild.jpg`,
  'URL-2': () => `${base}/umweg.jpg`,
  'URL-3': () => `${base}/seite.jpg`,
  'URL-4': () => `${base}/metadaten.jpg`,
  'URL-5': () => `${base}/lokal.jpg`,
  'URL-6': () => `${base}/kette1.jpg`,
  'URL-7': () => `${base}/gross.jpg`,
  'URL-8': () => 'ftp://medien.example/bild.jpg',
  'URL-9': () => `http://127.0.0.2:${(server.address() as AddressInfo).port}/bild.jpg`,
};

function catalogue() {
  const products = Object.entries(sources).map(
    ([pid, source]) => `<PRODUCT mode="new"><SUPPLIER_PID>${pid}</SUPPLIER_PID><PRODUCT_DETAILS>
<DESCRIPTION_SHORT>Medientest ${pid} Thermostatkopf</DESCRIPTION_SHORT><MANUFACTURER_PID>MT-${pid}</MANUFACTURER_PID>
<MANUFACTURER_NAME>Medienwerk</MANUFACTURER_NAME></PRODUCT_DETAILS>
<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>1</QUANTITY_MIN></PRODUCT_ORDER_DETAILS>
<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>12.50</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS>
<MIME_INFO><MIME><MIME_TYPE>image/jpeg</MIME_TYPE><MIME_SOURCE>${source().replace(/&/g, '&amp;')}</MIME_SOURCE><MIME_PURPOSE>normal</MIME_PURPOSE></MIME></MIME_INFO></PRODUCT>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>M</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>
<T_UPDATE_PRODUCTS>${products.join('\n')}</T_UPDATE_PRODUCTS></BMECAT>\n`;
}

const product = (pid: string) => productOf200001(t, pid, BUYER);

let details: any;
beforeAll(async () => {
  details = await importAndFetchMedia(t, catalogue(), { fileName: 'medien.xml', as: ADMIN, minQueued: 1 });
}, 90_000);

it('stores a good JPEG (also behind one redirect) once and serves it from the media route', async () => {
  for (const pid of ['URL-1', 'URL-2']) {
    const p = await product(pid);
    const picture = p.picturesPackage[0];
    expect(picture.size).toBe(jpeg.length);
    const res = await fetch(`${t.baseUrl}${picture.url}`, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await res.arrayBuffer()).equals(jpeg)).toBe(true);
  }
  const { rows } = await t.pool.query(
    `SELECT content_type, size_bytes::int AS size FROM catalogue_media_files WHERE supplier_bp_number = '200001' AND content_type = 'image/jpeg'`,
  );
  expect(rows).toEqual([{ content_type: 'image/jpeg', size: jpeg.length }]);
});

it('never redirects: a medium not stored is a 404, and each one that could not be fetched is a warning on the import', async () => {
  for (const pid of ['URL-3', 'URL-4', 'URL-5', 'URL-6', 'URL-7', 'URL-8', 'URL-9']) {
    const p = await product(pid);
    const res = await fetch(`${t.baseUrl}${p.picturesPackage[0].url}`, { redirect: 'manual' });
    expect(res.status, pid).toBe(404);
    expect(res.headers.get('location')).toBeNull();
  }
  const warning = (pid: string, reason: string) => ({
    productId: pid,
    reason: `Das Medium „${sources[pid]()}“ konnte nicht geladen werden: ${reason}`,
  });
  // Warnings, apart from the rejections (the products were imported, without the medium), and counted.
  expect(details.counts).toMatchObject({ rejected: 0, warnings: 7 });
  expect(details.rejections).toEqual([]);
  expect(details.warnings.map((r: any) => ({ productId: r.productId, reason: r.reason }))).toEqual([
    warning('URL-3', 'der Inhalt ist kein JPEG- oder PNG-Bild.'),
    warning('URL-4', 'die Adresse zeigt auf ein internes Netz.'),
    warning('URL-5', 'die Adresse zeigt auf ein internes Netz.'),
    warning('URL-6', 'zu viele Weiterleitungen.'),
    warning('URL-7', 'die Datei ist größer als 1 MB.'),
    warning('URL-8', 'nur http- und https-Adressen werden geladen.'),
    warning('URL-9', 'die Adresse zeigt auf ein internes Netz.'),
  ]);
  // The refused addresses were never asked (the redirect target is checked before connecting).
  expect(requested).not.toContain('/latest/meta-data/bild.jpg');
  expect(requested.filter((r) => r === '/bild.jpg')).toHaveLength(2);
});
