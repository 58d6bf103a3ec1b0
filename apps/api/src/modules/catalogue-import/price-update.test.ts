/**
 * T_UPDATE_PRICES through the price path (for import throughput): batches with changed, unchanged and unknown lines
 * mixed, the search index's lowest price and price filter, cart totals, a re-import that changes nothing, and an
 * update that broke off after its first batch and is imported again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { insertImport, importDetails } from './catalogue-import.repo.ts';
import { runImport } from './import-pipeline.ts';

const BUYER = 'einkauf@example.com'; // partner 100001, active relation to 200001
const SUPPLIER = '200001';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const sql = async (text: string, params: unknown[] = []) => (await t.pool.query(text, params)).rows;

const bmecat = (transaction: string, products: string, end = `</${transaction}></BMECAT>`) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">
<HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>PU</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>
<${transaction}>${products}${end}`;
const priced = (pid: string, price: string, details = '') =>
  `<PRODUCT mode="update"><SUPPLIER_PID>${pid}</SUPPLIER_PID>${details}
<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>${price}</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS></PRODUCT>`;
const details = (name: string) => `<PRODUCT_DETAILS><DESCRIPTION_SHORT>${name}</DESCRIPTION_SHORT></PRODUCT_DETAILS>
<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>1</QUANTITY_MIN></PRODUCT_ORDER_DETAILS>`;

async function run(name: string, text: string, batchSize?: number) {
  const file = path.join(t.config.dataDir, name);
  fs.writeFileSync(file, text);
  const id = await insertImport(t.pool, { supplier: SUPPLIER, fileName: name, filePath: file, userId: null });
  await runImport(t.pool, id, batchSize ? { batchSize } : {});
  return (await importDetails(t.pool, SUPPLIER, id))!;
}

const offerPrices = async (pids: string[]) =>
  Object.fromEntries(
    (
      await sql(
        `SELECT supplier_pid, net_price FROM product_offers WHERE supplier_bp_number = $1 AND supplier_pid = ANY($2)`,
        [SUPPLIER, pids],
      )
    ).map((r) => [r.supplier_pid, r.net_price]),
  );
const searchPrices = async (pids: string[]) =>
  Object.fromEntries(
    (
      await sql(
        `SELECT o.supplier_pid, s.price_cents FROM product_offers o JOIN product_search_prices s ON s.id = o.product_no
          WHERE o.supplier_bp_number = $1 AND o.supplier_pid = ANY($2)`,
        [SUPPLIER, pids],
      )
    ).map((r) => [r.supplier_pid, r.price_cents]),
  );
/** The row versions (xmin) of the products' wide search rows: a price update must not rewrite them. */
const searchRowVersions = async (pids: string[]) =>
  sql(
    `SELECT o.supplier_pid, s.xmin::text AS version FROM product_offers o JOIN product_search s ON s.id = o.product_no
      WHERE o.supplier_bp_number = $1 AND o.supplier_pid = ANY($2) ORDER BY o.supplier_pid`,
    [SUPPLIER, pids],
  );
/**
 * Search price rows whose recorded number of offers (migration 0230) is not their product's: a price update takes a
 * single offer's price as the lowest without reading the offers, so a wrong count would give a wrong price.
 */
const offerCountMismatches = async () =>
  sql(
    `SELECT sp.id, sp.offers, (SELECT count(*)::int FROM product_offers o WHERE o.product_no = sp.id) AS actual
       FROM product_search_prices sp
      WHERE sp.offers <> (SELECT count(*) FROM product_offers o WHERE o.product_no = sp.id)`,
  );
const catalogueVersion = async () => Number((await sql('SELECT version FROM catalogue_state'))[0].version);

/** Article numbers of the hits of a search for `term` with the price slider at [min, max] EUR. */
async function searchWithPrice(term: string, min: number, max: number) {
  const r = await t.request('POST', '/v1/Product/Search', {
    as: BUYER,
    body: {
      searchTerm: term,
      page: 1,
      pageSize: 25,
      filter: [
        {
          columnName: 'mhk_handelsdaten_preis',
          filterType: 'Regler',
          sliderValues: { minValue: min, maxValue: max },
        },
      ],
    },
  });
  expect(r.status, r.text).toBe(200);
  return r.body;
}

describe('a price update (T_UPDATE_PRICES)', () => {
  let cartId: number;
  beforeAll(async () => {
    const created = await run(
      'pu-products.xml',
      bmecat(
        'T_UPDATE_PRODUCTS',
        ['PU-1', 'PU-2', 'PU-3', 'PU-4']
          .map((pid) => priced(pid, '10.00', details(`Preisprobe Ventilkappe ${pid}`)))
          .join(''),
      ),
    );
    expect(created).toMatchObject({ status: 'Completed', counts: { created: 4, rejected: 0 } });
    const cart = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Preisprobe' } });
    expect(cart.status).toBe(201);
    cartId = cart.body.id;
    await t.pool.query(
      `INSERT INTO cart_items (cart_id, product_instance_id, supplier_bp_number, article_number, quantity)
       VALUES ($1, '200001~PU-1', '200001', 'PU-1', 2), ($1, '200001~PU-3', '200001', 'PU-3', 1)`,
      [cartId],
    );
  });

  const overviewTotal = async () => {
    const res = await t.request('GET', '/v1/MultiCarts', { as: BUYER });
    expect(res.status).toBe(200);
    return res.body.find((c: { id: number }) => c.id === cartId).totalNetValue;
  };

  const prices = bmecat(
    'T_UPDATE_PRICES',
    // Batches of two: (changed, unchanged), (unknown, changed), (changed).
    priced('PU-1', '12.50') +
      priced('PU-2', '10.00') +
      priced('PU-UNBEKANNT', '5.00') +
      priced('PU-3', '31.00') +
      priced('PU-4', '7.25'),
  );

  it('changes the offers whose price moved, counts unchanged and unknown lines apart, and the search and cart follow', async () => {
    expect(await overviewTotal()).toBe(30);
    const versions = await searchRowVersions(['PU-1', 'PU-2', 'PU-3', 'PU-4']);
    const result = await run('pu-prices.xml', prices, 2);
    expect(result).toMatchObject({
      status: 'Completed',
      transaction: 'T_UPDATE_PRICES',
      counts: { read: 5, created: 0, updated: 3, unchanged: 1, rejected: 1 },
      rejections: [
        {
          position: 3,
          productId: 'PU-UNBEKANNT',
          reason: 'Der Artikel PU-UNBEKANNT ist im Katalog des Lieferanten nicht vorhanden.',
        },
      ],
    });
    expect(await offerPrices(['PU-1', 'PU-2', 'PU-3', 'PU-4'])).toEqual({
      'PU-1': 12.5,
      'PU-2': 10,
      'PU-3': 31,
      'PU-4': 7.25,
    });
    expect(await searchPrices(['PU-1', 'PU-2', 'PU-3', 'PU-4'])).toEqual({
      'PU-1': 1250,
      'PU-2': 1000,
      'PU-3': 3100,
      'PU-4': 725,
    });
    // The lowest prices went to the narrow price rows (migration 0205): the wide search rows (words, facets) are as
    // they were, not one rewritten.
    expect(await searchRowVersions(['PU-1', 'PU-2', 'PU-3', 'PU-4'])).toEqual(versions);
    // The price slider finds the products by their new prices only.
    const between = await eventually(async () => {
      const body = await searchWithPrice('Preisprobe', 12, 40);
      return body.hitCount === 2 ? body : null;
    });
    expect(between.hitCount).toBe(2);
    // The last batch's search price is a transaction of its own: the index engine may apply it a round later.
    const cheap = await eventually(async () => {
      const body = await searchWithPrice('Preisprobe', 7, 8);
      return body.hitCount === 1 ? body : null;
    });
    expect(cheap.hitCount).toBe(1);
    // 2 × 12.50 + 1 × 31.00
    expect(await overviewTotal()).toBe(56);
    // Demo catalogue (loaded with its counts), the import's publish and the price update: every count right.
    expect(await offerCountMismatches()).toEqual([]);
  });

  it('changes nothing when the same file is imported again', async () => {
    const version = await catalogueVersion();
    const again = await run('pu-prices-again.xml', prices, 2);
    expect(again).toMatchObject({
      status: 'Completed',
      counts: { read: 5, updated: 0, unchanged: 4, rejected: 1 },
    });
    expect(await catalogueVersion()).toBe(version);
    expect(await searchPrices(['PU-1', 'PU-3'])).toEqual({ 'PU-1': 1250, 'PU-3': 3100 });
  });

  it('keeps the prices of the batches merged before a file broke off, and takes the rest when it comes again', async () => {
    const next = [priced('PU-1', '13.00'), priced('PU-2', '11.00'), priced('PU-3', '32.00'), priced('PU-4', '8.00')];
    const broken = await run(
      'pu-broken.xml',
      bmecat('T_UPDATE_PRICES', next.slice(0, 2).join('') + '<PRODUCT mode="update"><SUPPLIER_PID>PU-3</SUPP', ''),
      2,
    );
    expect(broken.status).toBe('Failed');
    expect(await offerPrices(['PU-1', 'PU-2', 'PU-3'])).toEqual({ 'PU-1': 13, 'PU-2': 11, 'PU-3': 31 });
    // The merged batch is in the search rows and the cart totals although the import failed.
    expect(await searchPrices(['PU-1', 'PU-2', 'PU-3'])).toEqual({ 'PU-1': 1300, 'PU-2': 1100, 'PU-3': 3100 });
    expect(await overviewTotal()).toBe(57);

    const whole = await run('pu-whole.xml', bmecat('T_UPDATE_PRICES', next.join('')), 2);
    expect(whole).toMatchObject({ status: 'Completed', counts: { read: 4, updated: 2, unchanged: 2, rejected: 0 } });
    expect(await searchPrices(['PU-1', 'PU-2', 'PU-3', 'PU-4'])).toEqual({
      'PU-1': 1300,
      'PU-2': 1100,
      'PU-3': 3200,
      'PU-4': 800,
    });
    expect(await overviewTotal()).toBe(58);
    // Every search price of the imports written: the supplier is not marked any more.
    expect(await sql('SELECT supplier_bp_number FROM catalogue_import_search_prices')).toEqual([]);
  });

  it('gives a product with two offers in different batches (the last one among them) the lowest of both prices', async () => {
    // Two articles of the supplier for one product (same manufacturer and manufacturer article number).
    const shared = (pid: string) =>
      priced(
        pid,
        '20.00',
        `<PRODUCT_DETAILS><DESCRIPTION_SHORT>Preisprobe Doppelangebot ${pid}</DESCRIPTION_SHORT>
<MANUFACTURER_PID>DOPPEL-1</MANUFACTURER_PID><MANUFACTURER_NAME>Preisprobe Werke</MANUFACTURER_NAME></PRODUCT_DETAILS>
<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>1</QUANTITY_MIN></PRODUCT_ORDER_DETAILS>`,
      );
    const created = await run('pu-shared.xml', bmecat('T_UPDATE_PRODUCTS', shared('PU-7') + shared('PU-8')));
    expect(created).toMatchObject({ status: 'Completed', counts: { created: 2, rejected: 0 } });
    const [{ n }] = await sql(
      `SELECT count(DISTINCT product_no)::int AS n FROM product_offers WHERE supplier_bp_number = $1 AND supplier_pid IN ('PU-7', 'PU-8')`,
      [SUPPLIER],
    );
    expect(n).toBe(1);
    expect(await searchPrices(['PU-7'])).toEqual({ 'PU-7': 2000 });

    // Batches of two: (PU-7, PU-1), then the last batch (PU-8), while the first may still be the second session's.
    const first = await run(
      'pu-shared-prices.xml',
      bmecat('T_UPDATE_PRICES', priced('PU-7', '12.00') + priced('PU-1', '13.50') + priced('PU-8', '9.00')),
      2,
    );
    expect(first).toMatchObject({ status: 'Completed', counts: { updated: 3, rejected: 0 } });
    expect(await searchPrices(['PU-7', 'PU-8', 'PU-1'])).toEqual({ 'PU-7': 900, 'PU-8': 900, 'PU-1': 1350 });

    // The cheaper offer dearer now, in the first batch; the other one in the last.
    const second = await run(
      'pu-shared-prices-2.xml',
      bmecat('T_UPDATE_PRICES', priced('PU-8', '15.00') + priced('PU-1', '13.00') + priced('PU-7', '14.00')),
      2,
    );
    expect(second).toMatchObject({ status: 'Completed', counts: { updated: 3, rejected: 0 } });
    expect(await searchPrices(['PU-7', 'PU-8', 'PU-1'])).toEqual({ 'PU-7': 1400, 'PU-8': 1400, 'PU-1': 1300 });

    // Only the dearer offer changes: the product keeps the other's price (its row counts two offers).
    const third = await run('pu-shared-prices-3.xml', bmecat('T_UPDATE_PRICES', priced('PU-8', '30.00')));
    expect(third).toMatchObject({ status: 'Completed', counts: { updated: 1, rejected: 0 } });
    expect(await searchPrices(['PU-7', 'PU-8'])).toEqual({ 'PU-7': 1400, 'PU-8': 1400 });
    expect(await sql('SELECT supplier_bp_number FROM catalogue_import_search_prices')).toEqual([]);
    expect(await offerCountMismatches()).toEqual([]);
  });

  it('keeps the first 1,000 rejections by position, no more, when batches merge side by side', async () => {
    const unknown = Array.from({ length: 1_300 }, (_, k) => priced(`PU-FEHLT-${k + 1}`, '1.00')).join('');
    // Batches of 600: the first two merge at once (two lanes), the third after them.
    const result = await run('pu-unknown.xml', bmecat('T_UPDATE_PRICES', unknown), 600);
    expect(result).toMatchObject({ status: 'Completed', counts: { read: 1_300, rejected: 1_300, updated: 0 } });
    expect(result.rejections.map((r: { position: number }) => r.position)).toEqual(
      Array.from({ length: 1_000 }, (_, k) => k + 1),
    );
    expect(result.rejections[999]).toEqual({
      position: 1_000,
      productId: 'PU-FEHLT-1000',
      reason: 'Der Artikel PU-FEHLT-1000 ist im Katalog des Lieferanten nicht vorhanden.',
    });
    const [{ n }] = await sql('SELECT count(*)::int AS n FROM catalogue_import_rejections WHERE import_id = $1', [
      result.id,
    ]);
    expect(n).toBe(1_000);
  });

  it('recomputes the search prices a price update crashed without writing when the supplier imports next', async () => {
    // As a crash leaves it: the offer prices of a batch committed and the supplier marked, its search rows not written.
    await t.pool.query(`INSERT INTO catalogue_import_search_prices (supplier_bp_number) VALUES ($1)`, [SUPPLIER]);
    await t.pool.query(
      `UPDATE product_search_prices SET price_cents = 1 WHERE id IN (SELECT product_no FROM product_offers
        WHERE supplier_bp_number = $1 AND supplier_pid IN ('PU-2', 'PU-4'))`,
      [SUPPLIER],
    );
    // The next import changes no offer (the same prices again).
    const next = await run('pu-after-crash.xml', bmecat('T_UPDATE_PRICES', priced('PU-1', '13.00')));
    expect(next).toMatchObject({ status: 'Completed', counts: { read: 1, updated: 0, unchanged: 1 } });
    expect(await searchPrices(['PU-1', 'PU-2', 'PU-3', 'PU-4'])).toEqual({
      'PU-1': 1300,
      'PU-2': 1100,
      'PU-3': 3200,
      'PU-4': 800,
    });
    expect(await sql('SELECT supplier_bp_number FROM catalogue_import_search_prices')).toEqual([]);
  });
});
