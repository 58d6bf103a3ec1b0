/**
 * The index engine answers exactly as the SQL engine: on a seeded random sample of
 * 1,000 searches over the test catalogue – terms from the catalogue's own words (whole words, part
 * words, prefixes, several words, typos, dimension tokens, article numbers, GTINs) combined with
 * filters taken from the result's own facets (brand, class, tree, supplier, price, ETIM features),
 * sorted and paged – hit counts, the hits of the page in order, every facet count and the
 * corrections must be equal. The show-more lists (FilterOptions) too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchRequest } from '@shk/contracts';
import { startTestApp, type TestApp } from '../../../../../test/support/test-app.ts';
import { CatalogueMetaCache } from '../../catalogue-meta.ts';
import { listPriceStrategy } from '../../pricing/price-strategy.ts';
import { SearchEngine, type SearchCaller } from '../search-engine.ts';
import { applyEdit, EDIT_KINDS, seededRandom } from '../typo-sample.ts';
import { facetSetOf, IndexSearchEngine } from './index-engine.ts';
import { RoaringBitmap32, SearchIndex } from './search-index.ts';
import { featureStatsOf } from './feature-stats.ts';
import { parseTsquery } from './tsquery.ts';

let t: TestApp;
let sqlEngine: SearchEngine;
let indexEngine: IndexSearchEngine;
let index: SearchIndex;
const caller: SearchCaller = { userId: 'equality-test', bpNumber: null, prices: listPriceStrategy };

beforeAll(async () => {
  t = await startTestApp();
  const pool = () => t.pool;
  sqlEngine = new SearchEngine(pool, new CatalogueMetaCache(pool), { cache: false });
  index = await SearchIndex.build(t.pool, { batch: 700 });
  indexEngine = new IndexSearchEngine(pool, new CatalogueMetaCache(pool), async () => index);
});
afterAll(async () => {
  await t?.close();
});

const sql = async <T = any>(text: string, params: unknown[] = []) => (await t.pool.query(text, params)).rows as T[];

describe('tsquery text', () => {
  it('parses what Postgres prints, with precedence, prefixes and weights', () => {
    expect(parseTsquery("'a':*A & ( 'b' | 'c':BC ) & !'d'")).toEqual({
      op: 'and',
      left: {
        op: 'and',
        left: { op: 'lexeme', lexeme: 'a', prefix: true, weights: 'A' },
        right: {
          op: 'or',
          left: { op: 'lexeme', lexeme: 'b', prefix: false, weights: '' },
          right: { op: 'lexeme', lexeme: 'c', prefix: false, weights: 'BC' },
        },
      },
      right: { op: 'not', arg: { op: 'lexeme', lexeme: 'd', prefix: false, weights: '' } },
    });
    expect(parseTsquery("'dn' <-> '15'")?.op).toBe('phrase');
    expect(parseTsquery('')).toBeNull();
  });
});

describe('the index holds product_search', () => {
  it('every product, and each lexeme with the products Postgres finds for it', async () => {
    const [{ n }] = await sql<{ n: number }>('SELECT count(*)::int AS n FROM product_search');
    expect(index.size).toBe(n);
    const sample = await sql<{ word: string; weight: string; ids: number[] }>(
      `SELECT w.word, w.weight, ARRAY(SELECT id FROM product_search s
                                       WHERE s.vec @@ to_tsquery('simple', quote_literal(w.word) || ':' || w.weight)
                                       ORDER BY id) AS ids
         FROM (SELECT DISTINCT u.lexeme AS word, x.weight
                 FROM (SELECT vec FROM product_search ORDER BY id LIMIT 200) s, unnest(s.vec) u, unnest(u.weights) x(weight)
                ORDER BY 1, 2 LIMIT 400) w`,
    );
    for (const { word, weight, ids } of sample)
      expect(Array.from(index.lexemeBitmap(word, false, weight).toUint32Array()), `${word}:${weight}`).toEqual(ids);
  });
});

/** Seeded searches built from the catalogue; filters are picked from a first answer's facets. */
async function sampleRequests(count: number, seed: number): Promise<SearchRequest[]> {
  const random = seededRandom(seed);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
  const products = await sql<{ name: string; gtin: string | null; mpid: string; brand: string; series: string | null }>(
    `SELECT p.product_name AS name, p.gtin, p.manufacturer_pid AS mpid, b.name AS brand, p.series
       FROM products p JOIN brands b USING (brand_no) ORDER BY p.id`,
  );
  const offers = await sql<{ pid: string }>(
    'SELECT supplier_pid AS pid FROM product_offers ORDER BY product_instance_id LIMIT 500',
  );
  const words = (await sql<{ term: string }>(`SELECT term FROM search_terms WHERE doc_count > 0 ORDER BY folded`)).map(
    (r) => r.term,
  );
  const dims = ['DN 15', 'DN20', '1/2"', '3/4"', '15x1', '22 x 1', 'Ø 20 mm', '1 1/4"', 'DN 125'];
  const term = (): string => {
    const p = pick(products);
    const nameWords = p.name.split(' ').filter((w) => w.length > 1);
    switch (Math.floor(random() * 12)) {
      case 0:
        return pick(words);
      case 1:
        return pick(nameWords);
      case 2:
        return pick(nameWords).slice(0, 3 + Math.floor(random() * 4)); // prefix while typing
      case 3:
        return nameWords.slice(0, 2 + Math.floor(random() * 2)).join(' ');
      case 4:
        return `${p.brand} ${pick(nameWords)}`;
      case 5: {
        const w = pick(nameWords.filter((x) => x.length >= 4).concat([p.series ?? 'Pura']));
        return applyEdit(w, pick(EDIT_KINDS), random);
      }
      case 6:
        return `${pick(nameWords)} ${pick(dims)}`;
      case 7:
        return pick(dims);
      case 8:
        return random() < 0.5 ? p.mpid : (p.gtin ?? p.mpid);
      case 9:
        return random() < 0.5 ? pick(offers).pid : `${p.mpid} ${pick(nameWords)}`;
      case 10:
        return '';
      default:
        return `${applyEdit(pick(words), pick(EDIT_KINDS), random)} ${pick(nameWords)}`;
    }
  };
  const requests: SearchRequest[] = [];
  while (requests.length < count) {
    const base: SearchRequest = { page: 1, pageSize: 25, searchTerm: term(), filter: [] } as SearchRequest;
    requests.push(base);
    // Filters from the answer's facets: one to three dimensions, one or two values each.
    const first = await sqlEngine.search(caller, base);
    const options = first.filterOption.filter((o) => o.filterValue.length || o.sliderValues);
    const filter: NonNullable<SearchRequest['filter']> = [];
    for (let k = 1 + Math.floor(random() * 3); k > 0 && options.length; k--) {
      const o = options.splice(Math.floor(random() * options.length), 1)[0];
      if (o.filterType === 'Regler') {
        const { minValue, maxValue } = o.sliderValues!;
        if (minValue === null || maxValue === null) continue;
        const a = minValue + (maxValue - minValue) * random() * 0.5;
        const b = random() < 0.3 ? null : maxValue - (maxValue - minValue) * random() * 0.3;
        filter.push({
          columnName: o.columnName,
          filterType: 'Regler',
          sliderValues: {
            minValue: Math.round(a * 100) / 100,
            maxValue: b === null ? null : Math.round(b * 100) / 100,
          },
        } as never);
      } else {
        const values = o.filterValue.map((v) => v.value);
        const chosen = [pick(values), ...(random() < 0.3 ? [pick(values)] : [])];
        filter.push({
          columnName: o.columnName,
          filterType: o.filterType,
          filterValue: chosen.map((value) => ({ value })),
        } as never);
      }
    }
    const sorts = [
      {},
      { sortColumn: 'artikelbeschreibung', sortOrder: 'asc' },
      { sortColumn: 'artikelbeschreibung', sortOrder: 'desc' },
      { sortColumn: 'relevanz', sortOrder: 'asc' },
    ];
    const page = random() < 0.2 ? 2 + Math.floor(random() * 5) : 1;
    requests.push({ ...base, filter, page, pageSize: pick([10, 25, 25, 50]), ...pick(sorts) } as SearchRequest);
  }
  return requests.slice(0, count);
}

const comparable = (r: Awaited<ReturnType<SearchEngine['search']>>) => ({
  hitCount: r.hitCount,
  ids: r.hits.map((h) => h.productId),
  pageCount: r.pageCount,
  filterOption: r.filterOption,
  correctedTerms: r.correctedTerms,
});

describe('index engine = SQL engine', () => {
  it('on 1,000 seeded random searches: counts, page hits in order, every facet', async () => {
    const requests = await sampleRequests(1_000, 13);
    let differing = 0;
    const first: string[] = [];
    let withHits = 0;
    let filtered = 0;
    for (const body of requests) {
      const [expected, actual] = [await sqlEngine.search(caller, body), await indexEngine.search(caller, body)];
      if (expected.hitCount) withHits++;
      if (body.filter?.length) filtered++;
      try {
        expect(comparable(actual)).toEqual(comparable(expected));
      } catch (e) {
        differing++;
        if (first.length < 3) first.push(`${JSON.stringify(body)}\n${String(e).slice(0, 1500)}`);
      }
    }
    expect(first.join('\n\n'), `${differing} of ${requests.length} differ`).toBe('');
    // The sample is not trivial: most searches find something, many are filtered.
    expect(withHits).toBeGreaterThan(600);
    expect(filtered).toBeGreaterThan(300);
  }, 600_000);

  it('the show-more lists of FilterOptions', async () => {
    const random = seededRandom(7);
    const requests = (await sampleRequests(120, 21)).filter((r) => r.filter?.length);
    for (const body of requests) {
      const base = await sqlEngine.search(caller, body);
      for (const option of base.filterOption.slice(0, 2)) {
        const request = {
          filterName: option.columnName,
          searchTerm: body.searchTerm,
          useNumberSearch: random() < 0.1,
          filters: body.filter,
        };
        expect(await indexEngine.filterOptions(caller, request as never)).toEqual(
          await sqlEngine.filterOptions(caller, request as never),
        );
      }
    }
  }, 300_000);
});

describe('a restarted process', () => {
  it('answers exactly like the process that built the index: the index of its snapshot on 300 seeded searches, whole answers', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'search-index-')), 'snapshot.bin');
    try {
      index.writeSnapshot(file, {});
      const restored = SearchIndex.readSnapshot(file)!.index;
      const pool = () => t.pool;
      const restarted = new IndexSearchEngine(pool, new CatalogueMetaCache(pool), async () => restored);
      for (const body of await sampleRequests(300, 17))
        expect(await restarted.search(caller, body), JSON.stringify(body)).toEqual(
          await indexEngine.search(caller, body),
        );
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  }, 300_000);
});

describe('the ways of counting agree on the real index', () => {
  /** Results of every size: each lexeme's products, random parts of them, the whole catalogue and nothing. */
  function results() {
    const random = seededRandom(11);
    const out = [index.all.clone(), new RoaringBitmap32()];
    for (const lexeme of [...index.lexemes.keys()].filter((_, k) => k % 7 === 0)) {
      const all = index.lexemeBitmap(lexeme, false, '');
      out.push(all, new RoaringBitmap32([...all].filter(() => random() < 0.3)));
    }
    return out;
  }

  it('facet counts by the result ids and by value-bitmap intersections are the same', () => {
    const dimensions = [undefined, 'brand', 'class', 'supplier', 'price', 'tree'] as const;
    for (const result of results())
      for (const only of dimensions)
        expect(facetSetOf(index, result, only, 'bitmaps'), `${result.size} ids, ${only}`).toEqual(
          facetSetOf(index, result, only, 'ids'),
        );
  });

  it('feature statistics over the ids and from the whole class less the missing products are the same', async () => {
    const meta = await new CatalogueMetaCache(() => t.pool).get();
    const classes = [...index.classes.keys()].filter((no) => meta.classes.get(no)?.slots.length);
    expect(classes.length).toBeGreaterThan(3);
    let partial = 0;
    for (const result of results())
      for (const classNo of classes) {
        const members = index.classes.get(classNo)!;
        const byIds = featureStatsOf(index, meta, classNo, result, 'ids');
        for (const way of ['complement', 'bitmaps'] as const)
          expect(
            featureStatsOf(index, meta, classNo, result, way),
            `${result.size} ids, class ${classNo}, ${way}`,
          ).toEqual(byIds);
        const part = result.andCardinality(members);
        if (part > 0 && part < members.size) partial++;
      }
    // Most of the comparisons are of a part of a class (the complement is neither empty nor the whole class).
    expect(partial).toBeGreaterThan(50);
  });
});

describe('before the index is there', () => {
  it('answers through SQL instead of waiting for the build, and starts the build', async () => {
    let asked = 0;
    const never = new Promise<SearchIndex>(() => {}); // a build that does not finish during the test
    const pool = () => t.pool;
    const engine = new IndexSearchEngine(
      pool,
      new CatalogueMetaCache(pool),
      () => {
        asked++;
        return never;
      },
      { ready: () => false },
    );
    for (const body of await sampleRequests(20, 5)) {
      expect(comparable(await engine.search(caller, body))).toEqual(comparable(await sqlEngine.search(caller, body)));
    }
    expect((await engine.catalogueCounts()).set).toEqual((await sqlEngine.catalogueCounts()).set);
    expect(asked).toBeGreaterThan(0);
  }, 60_000);
});
