/**
 * An import's cost per product must not grow with the catalogue: a batch's merge finds its products through the unique
 * index (or the numbers its own upsert returned), never by reading the whole products table. Before, the offers' insert
 * and the search vectors each joined the batch with all products by a hash join — two scans of the table per batch,
 * so a 5M import read about 500 million product rows. Counted here with Postgres's own statistics: the rows its
 * sequential scans read from products while an import of many small batches runs. A publish into an empty search
 * index skips the pass that moves other rows' places in the name order (there are none): the rows it inserts have
 * their places. A supplier's first catalogue writes its batches without looking for unchanged or existing offers (there
 * are none), and still counts an article number that comes back in a later batch right. A batch's search vectors parse each distinct brand, category and description text once, not once per
 * product.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { createPool } from '../../db/pool.ts';
import { insertImport, importDetails } from './catalogue-import.repo.ts';
import { runImport } from './import-pipeline.ts';
import { copySearchStage, prepareSearchStaging, searchVectorsStatement, stageSearchVectors } from './staging.repo.ts';
import { line } from './catalogue-writer.ts';

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

const named = (pid: string, name: string) =>
  `<PRODUCT mode="update"><SUPPLIER_PID>${pid}</SUPPLIER_PID>
<PRODUCT_DETAILS><DESCRIPTION_SHORT>${name}</DESCRIPTION_SHORT><MANUFACTURER_PID>${pid}</MANUFACTURER_PID>
<MANUFACTURER_NAME>Skalierwerk</MANUFACTURER_NAME></PRODUCT_DETAILS>
<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>1</QUANTITY_MIN></PRODUCT_ORDER_DETAILS>
<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>9.90</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS></PRODUCT>`;

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

  it('publishes into an empty search index with each row’s place in the German name order set by the insert', async () => {
    // An empty search index, as for a first catalogue of a new portal (the products stay; their search rows go).
    await t.pool.query('DELETE FROM product_search');
    const names = ['Zapfhahn Messing', 'Ölablass Schraube', 'Äußenbogen 90°', 'apfelgrün Spülkasten', 'Abzweig 45°'];
    const file = path.join(t.config.dataDir, 'empty-index.xml');
    fs.writeFileSync(
      file,
      catalogue().replace(
        /<T_UPDATE_PRODUCTS>[\s\S]*<\/T_UPDATE_PRODUCTS>/,
        () => `<T_UPDATE_PRODUCTS>${names.map((n, k) => named(`RANK-${k}`, n)).join('\n')}</T_UPDATE_PRODUCTS>`,
      ),
    );
    const id = await insertImport(t.pool, {
      supplier: SUPPLIER,
      fileName: 'empty-index.xml',
      filePath: file,
      userId: null,
    });
    await runImport(t.pool, id, { batchSize: 2 });
    expect((await importDetails(t.pool, SUPPLIER, id))!.status).toBe('Completed');
    // The check after the import gives the supplier's other products their search rows again; the imported ones have
    // theirs from the publish, with their places in the name order set by its insert.
    const { rows } = await t.pool.query<{ name: string; name_rank: number; expected: number }>(
      `SELECT x.name, x.name_rank, x.expected FROM (
         SELECT p.product_name AS name, p.manufacturer_pid AS mpid, s.name_rank,
                row_number() OVER (ORDER BY p.product_name COLLATE catalogue_de, p.id)::int AS expected
           FROM product_search s JOIN products p ON p.id = s.id WHERE p.manufacturer_pid LIKE 'RANK-%') x
        ORDER BY x.name_rank`,
    );
    expect(rows.map((r) => r.name)).toEqual([
      'Abzweig 45°',
      'apfelgrün Spülkasten',
      'Äußenbogen 90°',
      'Ölablass Schraube',
      'Zapfhahn Messing',
    ]);
    // Ordered by their places they are in German order (the places count all products, so they need not be 1…5).
    expect(rows.map((r) => r.expected)).toEqual([1, 2, 3, 4, 5]);
    expect(rows.every((r) => r.name_rank !== null)).toBe(true);
    // Each inserted row has its own product's vector (looked up after the sort by category, not carried through it).
    const { rows: inserted } = await t.pool.query<{ name: string; words: string[] }>(
      `SELECT p.product_name AS name, tsvector_to_array(s.vec) AS words
         FROM product_search s JOIN products p ON p.id = s.id WHERE p.manufacturer_pid LIKE 'RANK-%'`,
    );
    expect(inserted.length).toBe(5);
    const { rows: expected } = await t.pool.query<{ words: string[] }>(
      `SELECT tsvector_to_array(to_tsvector('german_unaccent', w)) AS words FROM unnest($1::text[]) w`,
      [['zapfhahn', 'olablass', 'aussenbogen', 'spulkasten', 'abzweig']],
    );
    for (const [k, name] of ['Zapfhahn', 'Ölablass', 'Äußenbogen', 'Spülkasten', 'Abzweig'].entries())
      expect(inserted.find((r) => r.name.includes(name))!.words).toEqual(expect.arrayContaining(expected[k].words));
  });

  it('writes a first catalogue without looking for unchanged offers, and counts an article met again in a later batch', async () => {
    // The newcomer of the demo world, without its offers: as a supplier's first catalogue finds it.
    const newcomer = '200010';
    await t.pool.query('DELETE FROM product_offers WHERE supplier_bp_number = $1', [newcomer]);
    const first = (pid: string, name: string) => named(pid, name).replace('mode="update"', 'mode="new"');
    const write = (name: string, articles: string[]) => {
      const file = path.join(t.config.dataDir, name);
      fs.writeFileSync(
        file,
        catalogue().replace(
          /<T_UPDATE_PRODUCTS>[\s\S]*<\/T_UPDATE_PRODUCTS>/,
          () => `<T_NEW_CATALOG>${articles.join('\n')}</T_NEW_CATALOG>`,
        ),
      );
      return file;
    };
    const run = async (name: string, articles: string[]) => {
      const file = write(name, articles);
      const id = await insertImport(t.pool, { supplier: newcomer, fileName: name, filePath: file, userId: null });
      const log: string[] = [];
      await runImport(t.pool, id, { batchSize: 2, log: (m) => log.push(m) });
      return {
        details: (await importDetails(t.pool, newcomer, id))!,
        steps: log.find((l) => l.includes('time per step'))!,
      };
    };
    // Six new articles in three batches: written straight away, none looked up as unchanged.
    const fresh = await run(
      'first.xml',
      [1, 2, 3, 4, 5, 6].map((k) => first(`FIRST-${k}`, `Erstkatalog Artikel ${k}`)),
    );
    expect(fresh.details.status).toBe('Completed');
    expect(fresh.details.counts).toMatchObject({ read: 6, created: 6, updated: 0, unchanged: 0 });
    expect(fresh.steps).not.toMatch(/unchanged/);
    await t.pool.query('DELETE FROM product_offers WHERE supplier_bp_number = $1', [newcomer]);
    // Article numbers met again two batches later, once as it was and once changed: the batch is written again with
    // upserts, and the counts are those of any other import (one unchanged, one updated; the last one in the file wins).
    const again = await run('again.xml', [
      ...[1, 2, 3, 4].map((k) => first(`AGAIN-${k}`, `Wiederkehr Artikel ${k}`)),
      first('AGAIN-1', 'Wiederkehr Artikel 1'),
      first('AGAIN-2', 'Wiederkehr Artikel 2 geändert'),
    ]);
    expect(again.details.status).toBe('Completed');
    expect(again.details.counts).toMatchObject({ read: 6, created: 4, updated: 1, unchanged: 1, rejected: 0 });
    const { rows: offers } = await t.pool.query<{ pid: string; name: string }>(
      `SELECT o.supplier_pid AS pid, p.product_name AS name FROM product_offers o JOIN products p ON p.id = o.product_no
        WHERE o.supplier_bp_number = $1 ORDER BY o.supplier_pid`,
      [newcomer],
    );
    expect(offers.map((o) => o.pid)).toEqual(['AGAIN-1', 'AGAIN-2', 'AGAIN-3', 'AGAIN-4']);
    expect(offers.find((o) => o.pid === 'AGAIN-2')!.name).toBe('Wiederkehr Artikel 2 geändert');
  });

  it('parses a batch’s brand, category and description texts once per distinct text, the name once per product', async () => {
    const s = await t.pool.connect();
    try {
      await s.query('BEGIN');
      await prepareSearchStaging(s);
      const { rows: products } = await s.query<{ id: number; product_id: string }>(
        'SELECT id, product_id FROM products ORDER BY id LIMIT 40',
      );
      expect(products.length).toBe(40);
      const docs = products.map((p, k) => ({
        ...p,
        a: `kugelhahn ${k} messing`,
        b: `benchwerk ${k % 2}`,
        c: 'absperrarmaturen absperr armatur',
        d: 'gepruft nach din en 1057',
      }));
      await copySearchStage(s, [Buffer.from(docs.map((x, k) => line([k, x.product_id, x.a, x.b, x.c, x.d])).join(''))]);
      await s.query('ANALYZE catalogue_import_search_stage');
      // Where the plan computes the vectors: the rows handed to the insert (one per product) carry the name's parse
      // only; the other texts' vectors come from their own nodes, one row per distinct text.
      const { rows: plan } = await s.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
        `EXPLAIN (VERBOSE, FORMAT JSON) ${searchVectorsStatement(false)}`,
        [-1],
      );
      const perProduct = plan[0]['QUERY PLAN'][0].Plan.Plans!.find((n) => n['Parent Relationship'] === 'Outer')!;
      const parses = (perProduct.Output ?? []).join(' ').match(/to_tsvector/g) ?? [];
      expect(parses.length).toBe(1);
      // The vectors are those of the four texts, each with its weight.
      await stageSearchVectors(s, false, -1, []);
      const { rows: wrong } = await s.query(
        `SELECT x.id FROM catalogue_import_search x
           JOIN unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[]) d(id, a, b, c, dd) ON d.id = x.id
          WHERE x.import_id = -1 AND x.vec <> setweight(to_tsvector('german_unaccent', d.a), 'A')
                || setweight(to_tsvector('german_unaccent', d.b), 'B') || setweight(to_tsvector('german_unaccent', d.c), 'C')
                || setweight(to_tsvector('german_unaccent', d.dd), 'D')`,
        [docs.map((x) => x.id), docs.map((x) => x.a), docs.map((x) => x.b), docs.map((x) => x.c), docs.map((x) => x.d)],
      );
      const { rows: staged } = await s.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM catalogue_import_search WHERE import_id = -1',
      );
      expect(staged[0].n).toBe(40);
      expect(wrong).toEqual([]);
      // Staged again (a product a later batch writes once more): the plain insert meets the rows there, and the batch
      // is upserted instead — the vectors are the new texts'.
      await s.query(`UPDATE catalogue_import_search_stage SET doc_a = doc_a || ' zweitausgabe'`);
      await stageSearchVectors(s, false, -1, []);
      const { rows: again } = await s.query<{ n: number; second: number }>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE vec @@ to_tsquery('german_unaccent', 'zweitausgabe'))::int AS second
           FROM catalogue_import_search WHERE import_id = -1`,
      );
      expect(again[0]).toEqual({ n: 40, second: 40 });
    } finally {
      await s.query('ROLLBACK');
      s.release();
    }
  });
});

interface PlanNode {
  'Parent Relationship'?: string;
  Output?: string[];
  Plans?: PlanNode[];
}
