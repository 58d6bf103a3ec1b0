/**
 * Freshness of the in-process index: changes to product_search (words, price, supplier,
 * removal) reach two followers (two API processes) through the change feed, with facet counts equal
 * to the SQL engine's; a whole-catalogue mark makes them build anew; a new process (restart) builds the same index.
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
import { IndexSearchEngine } from './index-engine.ts';
import { SearchIndexHolder } from './index-holder.ts';
import { FEED_REBUILD } from './feed.ts';
import type { SearchIndex } from './search-index.ts';
import { warmUpIndex, warmUpRequests, WARM_UP_PAGES_READ, WARM_UP_SEARCHES } from './warm-up.ts';

let t: TestApp;
let sqlEngine: SearchEngine;
const holders: SearchIndexHolder[] = [];
const engines: IndexSearchEngine[] = [];
const caller: SearchCaller = { userId: 'feed-test', bpNumber: null, prices: listPriceStrategy };

beforeAll(async () => {
  t = await startTestApp();
  const pool = () => t.pool;
  sqlEngine = new SearchEngine(pool, new CatalogueMetaCache(pool), { cache: false });
  for (let k = 0; k < 2; k++) {
    const holder = new SearchIndexHolder(pool);
    holders.push(holder);
    engines.push(new IndexSearchEngine(pool, new CatalogueMetaCache(pool), () => holder.latest()));
    await holder.get();
  }
});
afterAll(async () => {
  for (const h of holders) await h.close();
  await t?.close();
});

const sql = async <T = any>(text: string, params: unknown[] = []) => (await t.pool.query(text, params)).rows as T[];
const view = (r: Awaited<ReturnType<SearchEngine['search']>>) => ({
  hitCount: r.hitCount,
  ids: r.hits.map((h) => h.productId),
  filterOption: r.filterOption,
});

/** Polls both followers (LISTEN/NOTIFY and the 1 s poll) until they answer as the SQL engine. */
async function expectFollowersEqualSql(body: SearchRequest, until: (hitCount: number) => boolean) {
  const expected = view(await sqlEngine.search(caller, body));
  expect(until(expected.hitCount), 'the change is visible in SQL').toBe(true);
  for (const engine of engines) {
    let actual = view(await engine.search(caller, body));
    for (let attempt = 0; attempt < 100 && JSON.stringify(actual) !== JSON.stringify(expected); attempt++) {
      await new Promise((r) => setTimeout(r, 100));
      actual = view(await engine.search(caller, body));
    }
    expect(actual).toEqual(expected);
  }
}

/**
 * Adds a word to a product's search row without the feed trigger and writes the feed row `feedProductId` instead (a
 * product, or FEED_REBUILD), in one transaction.
 */
async function addWordWithFeedRow(productId: number, word: string, feedProductId: number) {
  const c = await t.pool.connect();
  try {
    await c.query('BEGIN');
    await c.query('ALTER TABLE product_search DISABLE TRIGGER product_search_changes_update');
    await c.query(`UPDATE product_search SET vec = vec || to_tsvector('german_unaccent', $2) WHERE id = $1`, [
      productId,
      word,
    ]);
    await c.query('ALTER TABLE product_search ENABLE TRIGGER product_search_changes_update');
    await c.query('INSERT INTO search_changes (product_id) VALUES ($1)', [feedProductId]);
    await c.query(`SELECT pg_notify('search_changes', '')`);
    await c.query('COMMIT');
  } catch (error) {
    await c.query('ROLLBACK');
    throw error;
  } finally {
    c.release();
  }
}

const search = (searchTerm: string, filter: unknown[] = []) =>
  ({ page: 1, pageSize: 25, searchTerm, filter }) as unknown as SearchRequest;

describe('change feed', () => {
  it('a new word, a price, a supplier and a removal reach both processes with exact facet counts', async () => {
    const [p] = await sql<{ id: number; product_id: string }>(
      `SELECT s.id, p.product_id FROM product_search s JOIN products p USING (id) ORDER BY s.id LIMIT 1 OFFSET 100`,
    );
    // A word no product had.
    await sql(
      `UPDATE product_search SET vec = vec || to_tsvector('german_unaccent', 'quarzsandfilter') WHERE id = $1`,
      [p.id],
    );
    await expectFollowersEqualSql(search('Quarzsandfilter'), (n) => n === 1);
    // A second lexeme of the same prefix on another product: the word's union of postings is made and kept
    // (word-bitmaps.ts); the removal below must drop it, or the removed product would still be found.
    const [p2] = await sql<{ id: number }>(`SELECT id FROM product_search ORDER BY id LIMIT 1 OFFSET 101`);
    await sql(
      `UPDATE product_search SET vec = vec || to_tsvector('german_unaccent', 'Quarzsandfilteranlage') WHERE id = $1`,
      [p2.id],
    );
    await expectFollowersEqualSql(search('Quarzsandfilter'), (n) => n === 2);
    await expectFollowersEqualSql(search('Quarzsandfilter'), (n) => n === 2);

    // A price far above every other: the price facet's range and a price filter (the price table's own feed trigger).
    await sql('UPDATE product_search_prices SET price_cents = 987654321 WHERE id = $1', [p.id]);
    const priceFilter = [
      {
        columnName: 'mhk_handelsdaten_preis',
        filterType: 'Regler',
        sliderValues: { minValue: 9000000, maxValue: null },
      },
    ];
    await expectFollowersEqualSql(search('', priceFilter), (n) => n === 1);
    await expectFollowersEqualSql(search(''), () => true);

    // The product loses its suppliers (an offer withdrawn): the supplier facet counts change.
    const [{ n: before }] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM product_search WHERE supplier_nos && (SELECT supplier_nos FROM product_search WHERE id = $1)`,
      [p.id],
    );
    await sql(`UPDATE product_search SET supplier_nos = '{}' WHERE id = $1`, [p.id]);
    await expectFollowersEqualSql(search(''), () => before > 0);

    // Several statements in one transaction, committed together.
    await sql(
      `WITH x AS (SELECT id FROM product_search ORDER BY id LIMIT 40)
       UPDATE product_search s SET promo = NOT s.promo FROM x WHERE s.id = x.id`,
    );
    await expectFollowersEqualSql(
      search('', [
        { columnName: 'TREE_ELEMENT_ID_SHKMARKET', filterType: 'Baum', filterValue: [{ value: 'SHKMARKET_10' }] },
      ]),
      () => true,
    );

    // Removed from the search (its last offer gone).
    await sql('DELETE FROM product_search WHERE id = $1', [p.id]);
    await expectFollowersEqualSql(search('Quarzsandfilter'), (n) => n === 1);
  }, 120_000);

  it('a whole-catalogue mark (a first large catalogue publishes) makes both processes build anew', async () => {
    const [p] = await sql<{ id: number }>('SELECT id FROM product_search ORDER BY id LIMIT 1 OFFSET 200');
    // As such a publish writes: the rows without a feed row each, one mark for all of them instead.
    await addWordWithFeedRow(p.id, 'zeolithfilter', FEED_REBUILD);
    await expectFollowersEqualSql(search('Zeolithfilter'), (n) => n === 1);
  }, 120_000);

  it('a statement records its products in one feed row; a row of one product (before migration 0225) is read too', async () => {
    const ids = (await sql<{ id: number }>('SELECT id FROM product_search ORDER BY id LIMIT 30 OFFSET 300')).map(
      (r) => r.id,
    );
    const c = await t.pool.connect();
    try {
      await c.query('BEGIN');
      const [{ xid }] = (await c.query('SELECT pg_current_xact_id()::text AS xid')).rows;
      await c.query('UPDATE product_search_prices SET price_cents = 876543210 WHERE id = ANY($1)', [ids]);
      await c.query('COMMIT');
      const rows = await sql<{ ids: number[] }>(
        'SELECT product_ids AS ids FROM search_changes WHERE xid = $1::xid8 AND product_id IS NULL',
        [xid],
      );
      expect(rows.map((r) => [...r.ids].sort((a, b) => a - b))).toEqual([ids]);
    } finally {
      c.release();
    }
    const priceFilter = [
      {
        columnName: 'mhk_handelsdaten_preis',
        filterType: 'Regler',
        sliderValues: { minValue: 8000000, maxValue: null },
      },
    ];
    await expectFollowersEqualSql(search('', priceFilter), (n) => n === 30);

    // A row as the feed held them before: one product, no array.
    await addWordWithFeedRow(ids[0], 'anthrazitfilter', ids[0]);
    await expectFollowersEqualSql(search('Anthrazitfilter'), (n) => n === 1);
  }, 120_000);

  it('a process that starts later (restart) builds the same index and answers the same', async () => {
    const holder = new SearchIndexHolder(() => t.pool);
    const fresh = new IndexSearchEngine(
      () => t.pool,
      new CatalogueMetaCache(() => t.pool),
      () => holder.get(),
    );
    try {
      await holders[0].catchUp();
      for (const term of ['Ventil', 'Thermostatventil Eckform', 'kupfer', 'Hydroline', 'DN 15', '']) {
        const body = search(term);
        expect(view(await fresh.search(caller, body))).toEqual(view(await engines[0].search(caller, body)));
      }
    } finally {
      await holder.close();
    }
  }, 60_000);

  it('a restart loads the snapshot, catches up with changes made while it was down and answers as SQL', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-search-index-'));
    const start = () => {
      const holder = new SearchIndexHolder(() => t.pool, { snapshotDir: dir });
      // The statements the engine sends (the SQL engine's facet counts must not be among them while a snapshot loads).
      const statements: string[] = [];
      const pool = new Proxy(t.pool, {
        get(target, prop) {
          if (prop === 'query')
            return (text: string | { text: string }, ...rest: unknown[]) => {
              statements.push(typeof text === 'string' ? text : text.text);
              return (target.query as (...a: unknown[]) => unknown)(text, ...rest);
            };
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      const engine = new IndexSearchEngine(
        () => pool,
        new CatalogueMetaCache(() => t.pool),
        () => holder.get(),
        { ready: () => holder.ready, loaded: (ms) => holder.whenLoaded(ms) },
      );
      return { holder, engine, statements };
    };
    const first = start();
    const building = first.holder.get();
    // While it builds, searches are answered through SQL (they do not wait for it); with the index there, from it.
    expect(await first.holder.whenLoaded(5_000)).toBe(false);
    await building;
    expect(await first.holder.whenLoaded(0)).toBe(true);
    expect(first.holder.origin?.kind).toBe('build');
    await first.holder.close(); // saves the snapshot
    expect(fs.existsSync(path.join(dir, 'snapshot.bin'))).toBe(true);

    // Changed while no process runs.
    const [p] = await sql<{ id: number }>('SELECT id FROM product_search ORDER BY id LIMIT 1 OFFSET 300');
    await sql(
      `UPDATE product_search SET vec = vec || to_tsvector('german_unaccent', 'kieselgurfilter') WHERE id = $1`,
      [p.id],
    );

    const file = path.join(dir, 'snapshot.bin');
    const saved = fs.statSync(file).mtimeMs;
    const second = start();
    try {
      // The first search after the start begins the snapshot load and waits for it (seconds) instead of being
      // answered through SQL, whose facet counts read every match.
      const firstSearch = await second.engine.search(caller, search(''));
      expect(second.holder.origin?.kind).toBe('snapshot');
      expect(second.statements.filter((s) => s.includes('GROUPING SETS'))).toEqual([]);
      expect(firstSearch.hitCount).toBe((await sqlEngine.search(caller, search(''))).hitCount);
      await second.holder.catchUp();
      for (const term of ['Kieselgurfilter', 'Ventil', 'Thermostatventil Eckform', 'Hydroline', 'DN 15', '']) {
        const body = search(term);
        expect(view(await second.engine.search(caller, body)), term).toEqual(
          view(await sqlEngine.search(caller, body)),
        );
      }
      expect((await second.engine.search(caller, search('Kieselgurfilter'))).hitCount).toBe(1);

      // Neither catching up after the start nor transactions that change no product (they move the feed position)
      // rewrite the snapshot right away: serialising the index blocks the event loop for about a second at 1M
      // products, in the restarted process's first minute.
      await sql('SELECT pg_current_xact_id()');
      await sql('SELECT pg_current_xact_id()');
      await second.holder.catchUp();
      expect(fs.statSync(file).mtimeMs).toBe(saved);
    } finally {
      await second.holder.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a restart warms the loaded index up before it answers: the first search waits for it, nothing of it is kept, only its first pages read their products', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-search-index-'));
    const built = new SearchIndexHolder(() => t.pool, { snapshotDir: dir });
    await built.get();
    await built.close(); // saves the snapshot
    // The statements of the warm-up and of the searches, in order.
    const statements: string[] = [];
    const pool = new Proxy(t.pool, {
      get(target, prop) {
        if (prop === 'query')
          return (text: string | { name?: string; text: string }, ...rest: unknown[]) => {
            statements.push(typeof text === 'string' ? text : `${text.name ?? ''} ${text.text}`);
            return (target.query as (...a: unknown[]) => unknown)(text, ...rest);
          };
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const meta = new CatalogueMetaCache(() => t.pool);
    const events: string[] = [];
    let keptAfterWarmUp = -1;
    let warmUpStatements: string[] = [];
    const holder = new SearchIndexHolder(() => t.pool, {
      snapshotDir: dir,
      warmUp: async (index) => {
        events.push('warm-up');
        // The test catalogue is below the size that is warmed up by default; no time limit on a busy machine.
        const searches = await warmUpIndex(
          index,
          { pool: () => pool, meta, prices: listPriceStrategy },
          { minProducts: 0, maxMs: 60_000 },
        );
        keptAfterWarmUp = index.wordBitmaps.size + index.wordBitmaps.made;
        warmUpStatements = [...statements];
        events.push('warmed up');
        return searches;
      },
    });
    const engine = new IndexSearchEngine(
      () => pool,
      meta,
      () => holder.latest(),
      {
        ready: () => holder.ready,
        loaded: (ms) => holder.whenLoaded(ms),
      },
    );
    try {
      const body = search('Thermostatventil');
      const answer = await engine.search(caller, body);
      events.push('answered');
      expect(holder.origin?.kind).toBe('snapshot');
      expect(events).toEqual(['warm-up', 'warmed up', 'answered']);
      expect(holder.warmUp?.searches).toBe(WARM_UP_SEARCHES);
      // The word unions it merged were dropped: the first searches merge their own.
      expect(keptAfterWarmUp).toBe(0);
      // Only its first pages read their products (the hydration without the hits' store, search-hit-rows: nothing
      // kept), and the first search was answered from the index, not through SQL.
      const hydration = (list: string[]) => list.filter((s) => s.startsWith('search-hit-'));
      const read = hydration(warmUpStatements);
      expect(read.length).toBeGreaterThan(WARM_UP_PAGES_READ / 2);
      expect(read.length).toBeLessThanOrEqual(WARM_UP_PAGES_READ);
      expect(read.every((s) => s.startsWith('search-hit-rows'))).toBe(true);
      expect(hydration(statements.slice(warmUpStatements.length))).toHaveLength(1);
      expect(statements.filter((s) => s.includes('GROUPING SETS'))).toEqual([]);
      expect(view(answer)).toEqual(view(await sqlEngine.search(caller, body)));
      // Its requests are of every kind: words, parts, several words, typos, filters, both sorts, deep pages.
      const requests = warmUpRequests((await holder.get()) as SearchIndex, await meta.get(), 16);
      expect(requests.filter((r) => r.filter?.length)).toHaveLength(4);
      expect(new Set(requests.map((r) => r.sortColumn ?? 'relevanz'))).toEqual(
        new Set(['relevanz', 'artikelbeschreibung', 'mhk_handelsdaten_preis']),
      );
    } finally {
      await holder.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a snapshot that cannot be loaded is not waited for: searches go to SQL while the index is built', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-search-index-'));
    fs.writeFileSync(path.join(dir, 'snapshot.bin'), 'kein Snapshot');
    const holder = new SearchIndexHolder(() => t.pool, { snapshotDir: dir });
    try {
      const building = holder.get();
      expect(await holder.whenLoaded(20_000)).toBe(false);
      await building;
      expect(holder.origin?.kind).toBe('build');
      expect(await holder.whenLoaded(0)).toBe(true);
    } finally {
      await holder.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
