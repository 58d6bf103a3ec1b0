/**
 * An import's cost per product must not grow with the catalogue: a batch's merge finds its products through the unique
 * index (or the numbers its own upsert returned), never by reading the whole products table. Before, the offers' insert
 * and the search vectors each joined the batch with all products by a hash join — two scans of the table per batch,
 * so a 5M import read about 500 million product rows. Counted here with Postgres's own statistics: the rows its
 * sequential scans read from products while an import of many small batches runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { createPool } from '../../db/pool.ts';
import { insertImport, importDetails } from './catalogue-import.repo.ts';
import { runImport } from './import-pipeline.ts';

const SUPPLIER = '200001';
const ARTICLES = 800;
const BATCH = 50;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const article = (k: number) =>
  `<PRODUCT mode="update"><SUPPLIER_PID>SCALE-${k}</SUPPLIER_PID>
<PRODUCT_DETAILS><DESCRIPTION_SHORT>Skalierungsprobe ${k} Messing</DESCRIPTION_SHORT><MANUFACTURER_PID>SC-${k}</MANUFACTURER_PID>
<MANUFACTURER_NAME>Skalierwerk</MANUFACTURER_NAME></PRODUCT_DETAILS>
<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>1</QUANTITY_MIN></PRODUCT_ORDER_DETAILS>
<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>12.50</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS></PRODUCT>`;

const catalogue = () =>
  `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">
<HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>SC</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>
<T_UPDATE_PRODUCTS>${Array.from({ length: ARTICLES }, (_, k) => article(k + 1)).join('\n')}</T_UPDATE_PRODUCTS></BMECAT>`;

/** Rows read from products by sequential scans, and rows inserted, as Postgres's statistics have them now. */
async function productsStats() {
  const c = await t.pool.connect();
  try {
    await c.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await c.query<{ read: number; inserted: number; size: number }>(
      `SELECT seq_tup_read::bigint::float8 AS read, n_tup_ins::bigint::float8 AS inserted,
              (SELECT count(*)::int FROM products) AS size
         FROM pg_stat_user_tables WHERE relid = 'products'::regclass`,
    );
    return rows[0];
  } finally {
    c.release();
  }
}

describe('catalogue import at scale', () => {
  it('reads products by index in every batch, not the whole table per batch', async () => {
    const file = path.join(t.config.dataDir, 'scale.xml');
    fs.writeFileSync(file, catalogue());
    const id = await insertImport(t.pool, { supplier: SUPPLIER, fileName: 'scale.xml', filePath: file, userId: null });
    const before = await productsStats();
    // Its own connections: they end with the pool, and a backend that ends reports its statistics.
    const pool = createPool(t.databaseUrl, 4);
    try {
      await runImport(pool, id, { batchSize: BATCH });
    } finally {
      await pool.end();
    }
    const details = (await importDetails(t.pool, SUPPLIER, id))!;
    expect(details.status).toBe('Completed');
    expect(details.counts.created).toBe(ARTICLES);
    // The ended backends' statistics arrive shortly after they exit.
    let after = await productsStats();
    for (let i = 0; i < 50 && after.inserted - before.inserted < ARTICLES; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await productsStats();
    }
    expect(after.inserted - before.inserted).toBe(ARTICLES);
    // Reading the reference data and the check after the import scan the table a few times (about 4 in all); sixteen
    // batches that joined with all products read it up to 32 times more (11 times in all for half as many batches).
    const scans = (after.read - before.read) / after.size;
    expect(scans).toBeLessThan(8);
  });
});
