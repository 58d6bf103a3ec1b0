/**
 * Imported catalogues get suggestions and typo correction: an import keeps the word list
 * search_terms current in the transaction that publishes or removes search rows, and both search engines (SQL; the
 * in-process index, whose typo neighbours are kept per catalogue version) answer with the new words right after the
 * import, without a restart. Counts follow the products that are searchable (docs/catalogue-import.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchRequest } from '@shk/contracts';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { CatalogueMetaCache } from '../catalogue/catalogue-meta.ts';
import { listPriceStrategy } from '../catalogue/pricing/price-strategy.ts';
import { SearchEngine, type SearchCaller } from '../catalogue/search/search-engine.ts';
import { IndexSearchEngine } from '../catalogue/search/index/index-engine.ts';
import { SearchIndexHolder } from '../catalogue/search/index/index-holder.ts';
import { fold } from '../catalogue/search/fold.ts';
import { nameWords } from '../catalogue/search/search-terms.ts';
import { insertImport, importDetails } from './catalogue-import.repo.ts';
import { applyImportedTerms } from './search-terms.repo.ts';
import { runImport } from './import-pipeline.ts';

let t: TestApp;
let holder: SearchIndexHolder;
const engines: { name: string; engine: SearchEngine }[] = [];
const caller: SearchCaller = { userId: 'terms-test', bpNumber: null, prices: listPriceStrategy };

beforeAll(async () => {
  t = await startTestApp();
  // These tests are about what an applied full catalogue does (withdrawing demo offers included): every supplier may
  // withdraw and reject everything here. The check before a withdrawal has its own tests (catalogue-import.approval.test.ts).
  await t.pool.query(
    'INSERT INTO catalogue_import_settings (supplier_bp_number, max_withdraw_percent, max_reject_percent) SELECT bp_number, 100, 100 FROM suppliers',
  );
  const pool = () => t.pool;
  holder = new SearchIndexHolder(pool);
  await holder.get();
  engines.push({
    name: 'sql',
    engine: new SearchEngine(pool, new CatalogueMetaCache(pool, { pollMs: 0 }), { cache: true }),
  });
  engines.push({
    name: 'index',
    engine: new IndexSearchEngine(pool, new CatalogueMetaCache(pool, { pollMs: 0 }), () => holder.latest()),
  });
});
afterAll(async () => {
  await holder?.close();
  await t?.close();
});

const sql = async <T = any>(text: string, params: unknown[] = []) => (await t.pool.query(text, params)).rows as T[];

const bmecat = (transaction: string, products: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">
<HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>ST</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>
<${transaction}>${products}</${transaction}></BMECAT>`;
const article = (pid: string, name: string, mode = 'new') =>
  `<PRODUCT mode="${mode}"><SUPPLIER_PID>${pid}</SUPPLIER_PID>
<PRODUCT_DETAILS><DESCRIPTION_SHORT>${name}</DESCRIPTION_SHORT><MANUFACTURER_PID>M-${pid}</MANUFACTURER_PID>
<MANUFACTURER_NAME>Zwacker Armaturen</MANUFACTURER_NAME></PRODUCT_DETAILS>
<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>1</QUANTITY_MIN></PRODUCT_ORDER_DETAILS>
<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>10.00</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS></PRODUCT>`;
const deletion = (pid: string) => `<PRODUCT mode="delete"><SUPPLIER_PID>${pid}</SUPPLIER_PID></PRODUCT>`;

async function runFile(supplier: string, name: string, text: string, status = 'Completed', batchSize?: number) {
  const file = path.join(t.config.dataDir, name);
  fs.writeFileSync(file, text);
  const id = await insertImport(t.pool, { supplier, fileName: name, filePath: file, userId: null });
  await runImport(t.pool, id, { batchSize });
  const details = (await importDetails(t.pool, supplier, id))!;
  expect(details.status, JSON.stringify(details)).toBe(status);
  await holder.catchUp();
  return details;
}

const term = async (folded: string) =>
  (
    await sql<{ term: string; kind: number; doc_count: number }>(
      'SELECT term, kind, doc_count FROM search_terms WHERE folded = $1',
      [folded],
    )
  )[0];

const body = (searchTerm: string) => ({ page: 1, pageSize: 25, searchTerm }) as unknown as SearchRequest;
async function pageOne(engine: SearchEngine, searchTerm: string) {
  const r = await engine.search(caller, body(searchTerm));
  return r.hits.map((h) => h.rows.PRODUCTINSTANCE_ID);
}
async function suggested(engine: SearchEngine, typed: string) {
  return (await engine.suggestions(caller, typed)).suggestions.map((s) => `${s.kind}:${s.text}`);
}

/**
 * The count of every product-name word equals its occurrences in the names of the searchable products, and no such
 * word is missing from the list (brands and series, kinds 2 and 4, are counted by their products).
 */
async function expectWordCountsExact() {
  const names = await sql<{ name: string }>(
    'SELECT p.product_name AS name FROM products p WHERE EXISTS (SELECT 1 FROM product_search s WHERE s.id = p.id)',
  );
  const expected = new Map<string, number>();
  for (const { name } of names)
    for (const w of nameWords(name)) expected.set(fold(w), (expected.get(fold(w)) ?? 0) + 1);
  const stored = await sql<{ folded: string; kind: number; doc_count: number }>(
    'SELECT folded, kind, doc_count FROM search_terms',
  );
  const byKey = new Map(stored.map((r) => [r.folded, r]));
  const wrong = stored
    .filter((r) => r.kind === 1 && r.doc_count !== (expected.get(r.folded) ?? 0))
    .map((r) => `${r.folded}: ${r.doc_count} ≠ ${expected.get(r.folded) ?? 0}`);
  const missing = [...expected.keys()].filter((k) => !byKey.has(k) || byKey.get(k)!.kind === 5);
  expect(wrong.slice(0, 10)).toEqual([]);
  expect(missing.slice(0, 10)).toEqual([]);
}

describe('search terms of imported catalogues', () => {
  it('the demo catalogue’s word counts are those of its searchable products', async () => {
    await expectWordCountsExact();
  });

  it('an import adds its new words: one-edit typos and suggestions find them in both engines', async () => {
    // Asked before the import: the index engine keeps the (empty) typo neighbours of the catalogue version.
    for (const { engine } of engines) expect(await pageOne(engine, 'Qourkelhahn')).toEqual([]);
    expect(await term('quorkelhahn')).toBeUndefined();

    await runFile(
      '200001',
      'terms-1.xml',
      bmecat(
        'T_UPDATE_PRODUCTS',
        article('ST-1', 'Zwacker Quorkelhahn DN 15 verchromt') +
          article('ST-2', 'Zwacker Quorkelhahn DN 20 verchromt') +
          article('ST-3', 'Flimmbrunner-Set (Messing) für Quorkelhahn'),
      ),
    );
    expect(await term('quorkelhahn')).toEqual({ term: 'Quorkelhahn', kind: 1, doc_count: 3 });
    expect(await term('flimmbrunner-set')).toEqual({ term: 'Flimmbrunner-Set', kind: 1, doc_count: 1 });
    expect(await term('zwacker armaturen')).toEqual({ term: 'Zwacker Armaturen', kind: 2, doc_count: 3 });

    for (const { name, engine } of engines) {
      // Transposition, deletion, substitution.
      for (const typo of ['Qourkelhahn', 'Quorkelhhn', 'Quorkelhahm'])
        expect(await pageOne(engine, typo), `${name}: ${typo}`).toEqual(
          expect.arrayContaining(['200001~ST-1', '200001~ST-2', '200001~ST-3']),
        );
      expect(await suggested(engine, 'quorke'), name).toContain('Begriff:Quorkelhahn');
      expect(await suggested(engine, 'Flimmbr'), name).toContain('Begriff:Flimmbrunner-Set');
      expect(await suggested(engine, 'zwack'), name).toContain('Marke:Zwacker Armaturen');
    }
    await expectWordCountsExact();
  }, 60_000);

  it('the same file again changes no count; a renamed product brings its new word', async () => {
    const file = bmecat(
      'T_UPDATE_PRODUCTS',
      article('ST-1', 'Zwacker Quorkelhahn DN 15 verchromt', 'update') +
        article('ST-2', 'Zwacker Schnarzventil DN 20 verchromt', 'update'),
    );
    await runFile('200001', 'terms-2.xml', file);
    expect(await term('schnarzventil')).toEqual({ term: 'Schnarzventil', kind: 1, doc_count: 1 });
    // Unchanged and renamed products were searchable before: not counted again.
    expect((await term('quorkelhahn')).doc_count).toBe(3);
    expect((await term('zwacker armaturen')).doc_count).toBe(3);
    for (const { name, engine } of engines) {
      expect(await pageOne(engine, 'Schnarzvetnil'), name).toContain('200001~ST-2');
      expect(await suggested(engine, 'schnarz'), name).toContain('Begriff:Schnarzventil');
    }
  }, 60_000);

  it('a withdrawn product’s words are counted out; a word no product has any more leaves the list', async () => {
    await runFile('200001', 'terms-3.xml', bmecat('T_UPDATE_PRODUCTS', deletion('ST-3')));
    expect(await term('flimmbrunner-set')).toBeUndefined();
    expect((await term('zwacker armaturen')).doc_count).toBe(2);
    // The renamed product still counts under its old word (documented): 3 − ST-3.
    expect((await term('quorkelhahn')).doc_count).toBe(2);
    for (const { name, engine } of engines) {
      expect(await suggested(engine, 'Flimmbr'), name).toEqual([]);
      expect(await pageOne(engine, 'Flimbrunner'), name).toEqual([]);
    }
  }, 60_000);

  it('a file that breaks off: the products of its merged batches are published with their words', async () => {
    const broken = bmecat(
      'T_UPDATE_PRODUCTS',
      article('ST-5', 'Knusperrohr 22 mm') + article('ST-6', 'Knusperrohr 28 mm') + '<PRODUCT mode="new"><SUPPL',
    ).replace(/<\/T_UPDATE_PRODUCTS><\/BMECAT>$/, '');
    await runFile('200001', 'terms-broken.xml', broken, 'Failed', 2);
    expect(await term('knusperrohr')).toEqual({ term: 'Knusperrohr', kind: 1, doc_count: 2 });
    for (const { name, engine } of engines) {
      expect(await pageOne(engine, 'Knusprerohr'), name).toEqual(
        expect.arrayContaining(['200001~ST-5', '200001~ST-6']),
      );
      expect(await suggested(engine, 'knusp'), name).toContain('Begriff:Knusperrohr');
    }
  }, 60_000);

  it('a full catalogue that withdraws a supplier’s demo offers counts out the products that leave the search', async () => {
    const before = (await sql<{ n: number }>('SELECT count(*)::int AS n FROM product_search'))[0].n;
    await runFile('200002', 'terms-4.xml', bmecat('T_NEW_CATALOG', article('ST-9', 'Zwacker Plörrmischer')));
    const after = (await sql<{ n: number }>('SELECT count(*)::int AS n FROM product_search'))[0].n;
    expect(after, 'some demo products were only offered by 200002').toBeLessThan(before);
    expect(await term('plorrmischer')).toEqual({ term: 'Plörrmischer', kind: 1, doc_count: 1 });
    // Exact again except for the renamed product's old word (Quorkelhahn counts ST-2, now Schnarzventil).
    const exactBut = await sql<{ doc_count: number }>(
      `SELECT doc_count FROM search_terms WHERE folded = 'quorkelhahn'`,
    );
    expect(exactBut).toEqual([{ doc_count: 2 }]);
    await sql(`UPDATE search_terms SET doc_count = doc_count - 1 WHERE folded = 'quorkelhahn'`);
    await expectWordCountsExact();
  }, 60_000);

  it('two imports that add the same new word at the same time end with one row and both counts', async () => {
    const a = await t.pool.connect();
    const b = await t.pool.connect();
    try {
      await a.query('BEGIN');
      await b.query('BEGIN');
      await applyImportedTerms(a, [{ term: 'Zeitgleichhahn', folded: 'zeitgleichhahn', kind: 1, n: 2, fresh: 2 }]);
      // The second waits for the first's row (unique key on folded) and then adds its count to it.
      const second = applyImportedTerms(b, [
        { term: 'ZEITGLEICHHAHN', folded: 'zeitgleichhahn', kind: 1, n: 3, fresh: 3 },
      ]);
      await new Promise((r) => setTimeout(r, 200));
      await a.query('COMMIT');
      await second;
      await b.query('COMMIT');
    } finally {
      a.release();
      b.release();
    }
    expect(await sql(`SELECT term, doc_count FROM search_terms WHERE folded = 'zeitgleichhahn'`)).toEqual([
      { term: 'Zeitgleichhahn', doc_count: 5 },
    ]);
  });
});
