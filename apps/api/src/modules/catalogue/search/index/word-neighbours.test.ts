/**
 * The index engine's one-edit neighbours (fewer statements per search): a word's catalogue words one edit away
 * (search_terms) are read once per catalogue version, not on every search; a new catalogue version (the catalogue
 * load rewrites search_terms and raises it) reads them again, and the answers equal the SQL engine's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test/support/test-app.ts';
import { recordStatements } from '../../../../../test/support/statements.ts';
import { CatalogueMetaCache } from '../../catalogue-meta.ts';
import { listPriceStrategy } from '../../pricing/price-strategy.ts';
import { SearchEngine, type SearchCaller } from '../search-engine.ts';
import { IndexSearchEngine } from './index-engine.ts';
import { SearchIndex } from './search-index.ts';

let t: TestApp;
let sqlEngine: SearchEngine;
let indexEngine: IndexSearchEngine;
const caller: SearchCaller = { userId: 'neighbours-test', bpNumber: null, prices: listPriceStrategy };

beforeAll(async () => {
  t = await startTestApp();
  const pool = () => t.pool;
  // pollMs 0: every search reads the catalogue version, so a new version is seen at once.
  sqlEngine = new SearchEngine(pool, new CatalogueMetaCache(pool, { pollMs: 0 }), { cache: false });
  const index = await SearchIndex.build(t.pool);
  indexEngine = new IndexSearchEngine(pool, new CatalogueMetaCache(pool, { pollMs: 0 }), async () => index);
});
afterAll(async () => {
  await t?.close();
});

/**
 * The search's statements that read the one-edit neighbours (search_terms' deletion index): of whole words (reads)
 * and of the parts of hyphenated words (partReads, only for a word without matches and whole words one edit away).
 */
async function neighbourReads<T>(run: () => Promise<T>): Promise<{ result: T; reads: number; partReads: number }> {
  const recorder = recordStatements(t.pool);
  try {
    const result = await run();
    const deletes = recorder.texts.filter((s) => s.includes('search_term_deletes'));
    return {
      result,
      reads: deletes.filter((s) => !s.includes('part_deletes')).length,
      partReads: deletes.filter((s) => s.includes('part_deletes')).length,
    };
  } finally {
    recorder.stop();
  }
}

const search = (engine: SearchEngine, searchTerm: string) =>
  engine.search(caller, { page: 1, pageSize: 25, searchTerm, filter: [] } as never);

describe('one-edit neighbours of the index engine', () => {
  it('are read once per word and catalogue version; a new version reads them again', async () => {
    // Two words, one statement; the same words again (another order): none, and the SQL engine's answer.
    const first = await neighbourReads(() => search(indexEngine, 'Thermostatventil Rohr'));
    expect(first.reads).toBe(1);
    const again = await neighbourReads(() => search(indexEngine, 'Rohr Thermostatventil'));
    expect(again.reads).toBe(0);
    expect(again.result.hitCount).toBe((await search(sqlEngine, 'Rohr Thermostatventil')).hitCount);

    // A word no catalogue word is one edit away from; then the catalogue load adds one (and raises the version).
    const before = await neighbourReads(() => search(indexEngine, 'qqzzyx'));
    expect(before.reads).toBe(1);
    expect(before.partReads).toBe(1);
    await t.pool.query(`INSERT INTO search_terms (term, folded, kind, doc_count) VALUES ('qqzzyxa', 'qqzzyxa', 1, 1)`);
    const sameVersion = await neighbourReads(() => search(indexEngine, 'qqzzyx'));
    expect(sameVersion.reads).toBe(0);
    expect(sameVersion.partReads).toBe(0);
    await t.pool.query('UPDATE catalogue_state SET version = version + 1');
    const next = await neighbourReads(() => search(indexEngine, 'qqzzyx'));
    expect(next.reads).toBe(1);
    expect(next.partReads).toBe(0);
    expect(next.result.correctedTerms).toEqual([{ from: 'qqzzyx', to: ['qqzzyxa'] }]);
    expect(next.result.correctedTerms).toEqual((await search(sqlEngine, 'qqzzyx')).correctedTerms);

    // The catalogue's spelling of a correction is kept per version too: a new spelling shows with the next version.
    const spelled = await search(indexEngine, 'HA-Muffe');
    expect(spelled.correctedTerms).toEqual([{ from: 'HA-Muffe', to: ['HT-Muffe'] }]);
    try {
      await t.pool.query(`UPDATE search_terms SET term = 'HT-MUFFE' WHERE folded = 'ht-muffe'`);
      expect((await search(indexEngine, 'HA-Muffe')).correctedTerms).toEqual(spelled.correctedTerms);
      await t.pool.query('UPDATE catalogue_state SET version = version + 1');
      const respelled = await search(indexEngine, 'HA-Muffe');
      expect(respelled.correctedTerms).toEqual([{ from: 'HA-Muffe', to: ['HT-MUFFE'] }]);
      expect(respelled.correctedTerms).toEqual((await search(sqlEngine, 'HA-Muffe')).correctedTerms);
    } finally {
      await t.pool.query(`UPDATE search_terms SET term = 'HT-Muffe' WHERE folded = 'ht-muffe'`);
      await t.pool.query('UPDATE catalogue_state SET version = version + 1');
    }
  });

  it('the parts of hyphenated words one edit away are read once per word and version, as the SQL engine finds them', async () => {
    const first = await neighbourReads(() => search(indexEngine, 'Brennwert-Kombitehrme'));
    expect(first.partReads).toBe(1);
    expect(first.result.correctedTerms).toEqual([{ from: 'Brennwert-Kombitehrme', to: ['Brennwert-Kombitherme'] }]);
    const again = await neighbourReads(() => search(indexEngine, 'Kombitehrme Brennwert'));
    expect(again.partReads).toBe(0);
    expect(again.reads).toBe(0);
    const sql = await search(sqlEngine, 'Kombitehrme Brennwert');
    expect(again.result.correctedTerms).toEqual(sql.correctedTerms);
    expect(again.result.hits.map((h) => h.productId)).toEqual(sql.hits.map((h) => h.productId));
    expect(sql.hitCount).toBeGreaterThan(0);
  });

  it("a new word's normalisation, its neighbours and their normalisation come in one statement, answered as by SQL", async () => {
    // A process of its own: nothing normalised or looked up yet.
    const index = await SearchIndex.build(t.pool);
    const pool = () => t.pool;
    const fresh = new IndexSearchEngine(pool, new CatalogueMetaCache(pool, { pollMs: 0 }), async () => index);
    for (const term of ['Brennwert Kombitherme', 'Kugelhahn']) {
      const recorder = recordStatements(t.pool);
      let result;
      try {
        result = await search(fresh, term);
      } finally {
        recorder.stop();
      }
      // Every statement that asks Postgres for a normalisation or a neighbour: the one lookup.
      const lookups = recorder.texts.filter((s) => s.includes('to_tsquery') || s.includes('search_term_deletes'));
      expect(lookups).toHaveLength(1);
      expect(lookups[0]).toContain('search_term_deletes');
      const sql = await search(sqlEngine, term);
      expect(result.hitCount).toBeGreaterThan(0);
      expect(result.hitCount).toBe(sql.hitCount);
      expect(result.hits.map((h) => h.productId)).toEqual(sql.hits.map((h) => h.productId));
    }
    // A correction's catalogue spelling ('HT-Muffe') came with the neighbours: not read again.
    const recorder = recordStatements(t.pool);
    let corrected;
    try {
      corrected = await search(fresh, 'HA-Muffe');
    } finally {
      recorder.stop();
    }
    expect(recorder.texts.filter((s) => s.includes('SELECT folded, term FROM search_terms'))).toEqual([]);
    expect(corrected.correctedTerms).toEqual([{ from: 'HA-Muffe', to: ['HT-Muffe'] }]);
    const sql = await search(sqlEngine, 'HA-Muffe');
    expect(corrected.correctedTerms).toEqual(sql.correctedTerms);
    expect(corrected.hits.map((h) => h.productId)).toEqual(sql.hits.map((h) => h.productId));
  });

  it('a failed read is not kept', async () => {
    const query = t.pool.query.bind(t.pool) as (...args: unknown[]) => unknown;
    (t.pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const first = args[0];
      if (typeof first === 'string' && first.includes('search_term_deletes')) return Promise.reject(new Error('lost'));
      return query(...args);
    };
    try {
      await expect(search(indexEngine, 'Kugelhahnx')).rejects.toThrow('lost');
    } finally {
      (t.pool as unknown as { query: unknown }).query = query;
    }
    const retried = await neighbourReads(() => search(indexEngine, 'Kugelhahnx'));
    expect(retried.reads).toBe(1);
    expect(retried.result.correctedTerms).toEqual((await search(sqlEngine, 'Kugelhahnx')).correctedTerms);
  });
});
