/**
 * Overlapped batches (for import throughput): the import session merges batch N+1 while a second session computes the
 * search vectors of batch N. A failure of either side in the middle of the import ends it cleanly, and the file
 * imported again gives every article exactly one product, one offer and its search row (no duplicates, no losses).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { insertImport, importDetails } from './catalogue-import.repo.ts';
import { runImport } from './import-pipeline.ts';

const SUPPLIER = '200001';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const sql = async (text: string, params: unknown[] = []) => (await t.pool.query(text, params)).rows;

const bmecat = (products: string, end = '</T_UPDATE_PRODUCTS></BMECAT>') =>
  `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">
<HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>OV</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>
<T_UPDATE_PRODUCTS>${products}${end}`;
/** An article whose name carries a word of its own (`wort`), to find its search row by. */
const article = (pid: string, wort: string) =>
  `<PRODUCT mode="update"><SUPPLIER_PID>${pid}</SUPPLIER_PID>
<PRODUCT_DETAILS><DESCRIPTION_SHORT>Überlappungsprobe ${wort} ${pid}</DESCRIPTION_SHORT></PRODUCT_DETAILS>
<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>1</QUANTITY_MIN></PRODUCT_ORDER_DETAILS>
<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>10.00</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS></PRODUCT>`;

async function run(name: string, text: string) {
  const file = path.join(t.config.dataDir, name);
  fs.writeFileSync(file, text);
  const id = await insertImport(t.pool, { supplier: SUPPLIER, fileName: name, filePath: file, userId: null });
  // Batches of two articles: the second session's work on one batch overlaps the merge of the next.
  await runImport(t.pool, id, { batchSize: 2 });
  return (await importDetails(t.pool, SUPPLIER, id))!;
}

/** Per article number: its offers, products and search rows, and whether the search row holds the article's word. */
async function stored(prefix: string) {
  return sql(
    `SELECT o.supplier_pid AS pid,
            (SELECT count(*)::int FROM product_offers x WHERE x.supplier_bp_number = $1 AND x.supplier_pid = o.supplier_pid) AS offers,
            (SELECT count(*)::int FROM products p WHERE p.product_id = (SELECT product_id FROM products WHERE id = o.product_no)) AS products,
            (SELECT count(*)::int FROM product_search s WHERE s.id = o.product_no) AS search_rows,
            EXISTS (SELECT 1 FROM product_search s WHERE s.id = o.product_no
                     AND s.vec @@ to_tsquery('german_unaccent', 'wort' || replace(lower(o.supplier_pid), '-', ''))) AS found
       FROM product_offers o WHERE o.supplier_bp_number = $1 AND o.supplier_pid LIKE $2 ORDER BY o.supplier_pid`,
    [SUPPLIER, `${prefix}%`],
  );
}

const pids = (prefix: string, n: number) => Array.from({ length: n }, (_, k) => `${prefix}${k + 1}`);
// The word of an article: "wort" and its number without the hyphen (one token for the German parser).
const words = (list: string[]) => list.map((pid) => article(pid, `wort${pid.toLowerCase().replace('-', '')}`)).join('');
const complete = (list: string[]) => list.map((pid) => ({ pid, offers: 1, products: 1, search_rows: 1, found: true }));

describe('overlapped batches', () => {
  it('a failure of the second session ends the import cleanly; the file again leaves no duplicates and no losses', async () => {
    const list = pids('OVA-', 8);
    // A real failure of the second session while it computes the vectors of the second batch (OVA-3, OVA-4): the
    // import session has that batch committed and goes on with the next.
    await t.pool.query(`
      CREATE FUNCTION test_fail_search() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM products p WHERE p.id = NEW.id AND p.product_name LIKE '%OVA-4') THEN
          RAISE EXCEPTION 'Testfehler der Suchvektoren';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_fail_search BEFORE INSERT ON catalogue_import_search FOR EACH ROW EXECUTE FUNCTION test_fail_search();`);
    let failed;
    try {
      failed = await run('ova-failing.xml', bmecat(words(list)));
    } finally {
      await t.pool.query('DROP TRIGGER test_fail_search ON catalogue_import_search; DROP FUNCTION test_fail_search()');
    }
    expect(failed.status).toBe('Failed');
    expect(failed.error).toContain('Testfehler der Suchvektoren');
    // The first batch's vectors were written before the failure: published, searchable although the import failed.
    const partial = await stored('OVA-');
    expect(partial.slice(0, 2)).toEqual(complete(list.slice(0, 2)));
    expect(partial.every((r) => r.offers === 1 && r.products === 1)).toBe(true);
    expect(await sql('SELECT 1 FROM catalogue_import_search WHERE import_id = $1', [failed.id])).toEqual([]);

    const again = await run('ova-again.xml', bmecat(words(list)));
    expect(again.status).toBe('Completed');
    // The first batch is unchanged; the second (committed, its vectors lost) is written again, not taken as
    // unchanged; the later ones are written again or created, depending on how far the merge had got.
    expect(again.counts).toMatchObject({ read: 8, unchanged: 2, rejected: 0 });
    expect(again.counts.created + again.counts.updated).toBe(6);
    expect(again.counts.updated).toBeGreaterThanOrEqual(2);
    expect(await stored('OVA-')).toEqual(complete(list));
  });

  it('a file that breaks off: the vectors of every merged batch are written before the import is marked failed', async () => {
    const list = pids('OVB-', 6);
    const broken = await run(
      'ovb-broken.xml',
      bmecat(words(list.slice(0, 5)) + '<PRODUCT mode="update"><SUPPLIER_PID>OVB-6</SUPP', ''),
    );
    expect(broken.status).toBe('Failed');
    // Batches (1, 2) and (3, 4) were merged; the fifth article was staged but never merged.
    expect(await stored('OVB-')).toEqual(complete(list.slice(0, 4)));

    const whole = await run('ovb-whole.xml', bmecat(words(list)));
    expect(whole).toMatchObject({ status: 'Completed', counts: { read: 6, created: 2, unchanged: 4, rejected: 0 } });
    expect(await stored('OVB-')).toEqual(complete(list));
  });
});
