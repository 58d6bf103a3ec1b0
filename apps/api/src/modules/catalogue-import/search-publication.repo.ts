/**
 * SQL of the search publication at an import's end: the staged search rows go into product_search (with a bulk
 * index rebuild for a first large catalogue), and the search rows' supplier numbers and lowest prices follow the
 * products' current offers.
 */
import type pg from 'pg';
import { FEED_REBUILD } from '../catalogue/index.ts';
import { LOWEST_UNIT_CENTS } from './staging.repo.ts';

/**
 * Supplier numbers, lowest net price per unit (cents) and number of offers of the products `ids` (a subquery), from
 * their offers: one grouped pass.
 */
const offerAggregate = (ids: string) => `
  SELECT o.product_no AS id, array_agg(DISTINCT n.supplier_no ORDER BY n.supplier_no) AS nos,
         ${LOWEST_UNIT_CENTS} AS price,
         count(*)::int AS offers
    FROM product_offers o JOIN catalogue_supplier_numbers n ON n.bp_number = o.supplier_bp_number
   WHERE o.product_no IN (${ids}) GROUP BY o.product_no`;

/** Supplier numbers and lowest price of the search rows, from the products' current offers. */
export async function refreshSearchOffers(c: pg.PoolClient, productNos: number[]) {
  if (!productNos.length) return;
  await c.query(
    `WITH x AS MATERIALIZED (${offerAggregate('SELECT unnest($1::int[])')}),
          nos AS (UPDATE product_search s SET supplier_nos = x.nos FROM x WHERE s.id = x.id AND s.supplier_nos IS DISTINCT FROM x.nos)
     UPDATE product_search_prices s SET price_cents = x.price, offers = x.offers
       FROM x WHERE s.id = x.id AND (s.price_cents, s.offers) IS DISTINCT FROM (x.price, x.offers)`,
    [productNos],
  );
  // A product without any offer left is not found by the search any more (the product row stays). Its price row goes
  // first, in its own statement: a first large catalogue drops the prices' foreign key (and its cascade) meanwhile.
  for (const table of ['product_search_prices', 'product_search'])
    await c.query(
      `DELETE FROM ${table} s WHERE s.id = ANY($1) AND NOT EXISTS (SELECT 1 FROM product_offers o WHERE o.product_no = s.id)`,
      [productNos],
    );
}

/**
 * Publishes the search rows an import staged, set-based, in the import's last transaction: rows of
 * products already searchable are updated, new ones inserted ordered by category (one category's
 * words on neighbouring pages) with their place in German name order; other rows get a new place
 * only where it moved. Supplier numbers and lowest price come from the offers as they are now; a
 * product without offers (withdrawn meanwhile) gets no search row. Returns the rows published.
 */
export async function publishSearch(
  c: pg.PoolClient,
  importId: number,
  /** Times a part of the publication (the import logs where its time goes). */
  time: <T>(label: string, work: () => Promise<T>) => Promise<T> = (_label, work) => work(),
): Promise<number> {
  const id = Number(importId);
  // A first catalogue publishes a million rows: its aggregates, joins and sorts in memory where they fit (with the
  // default 4 MB each of them spilled to disk), and the planner given the stage's statistics (filled during the import;
  // planned without them, the offers of 1,000,000 staged products were looked up one by one: 2.9 s against 0.3 s for
  // one pass over the offers).
  await c.query(`SET LOCAL work_mem = '256MB'`);
  const { rows: staged } = await c.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM catalogue_import_search WHERE import_id = $1 LIMIT ${BULK_PUBLISH}) x`,
    [id],
  );
  if (staged[0].n >= BULK_PUBLISH) await c.query('ANALYZE catalogue_import_search');
  // Supplier numbers and lowest price per staged product; the vectors stay in the stage (not copied once more).
  await time('publish: offers', () =>
    c.query(
      `CREATE TEMP TABLE catalogue_import_publish ON COMMIT DROP AS
     ${offerAggregate(`SELECT id FROM catalogue_import_search WHERE import_id = ${id}`)}`,
    ),
  );
  const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM catalogue_import_publish');
  if (rows[0].n) {
    // Except for the sort by name: compared by the ICU collation, a million names sorted in small runs and merged
    // (the default work_mem) took half the time of one sort in memory (3.8 s against 7.6 s, EXPLAIN ANALYZE at
    // 1,000,000 products).
    await c.query('SET LOCAL work_mem TO DEFAULT');
    await time('publish: name order', () =>
      c.query(
        `CREATE TEMP TABLE catalogue_import_ranks ON COMMIT DROP AS
       SELECT p.id, row_number() OVER (ORDER BY p.product_name COLLATE catalogue_de, p.id)::int AS rn
         FROM products p WHERE p.id IN (SELECT id FROM product_search UNION SELECT id FROM catalogue_import_publish)`,
      ),
    );
    await c.query(`SET LOCAL work_mem = '256MB'`);
    // Rows searchable before the publish that it does not write may move in the name order (updated below); into an
    // empty search index every row is inserted with its place already (a first catalogue: a pass over all rows less).
    const { rows: before } = await c.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM product_search) AS any');
    const features = [1, 2, 3, 4, 5, 6, 7, 8];
    const rebuild = await dropSearchIndexesForBulkInsert(c, rows[0].n);
    // Such a publish (indexes dropped: the table is locked until the commit anyway) tells the index engine's followers
    // to build anew with one feed row instead of a row per inserted product (2.7 s of trigger for 1,000,000 rows).
    if (rebuild.length) await c.query('ALTER TABLE product_search DISABLE TRIGGER product_search_changes_insert');
    await time('publish: rows', async () => {
      await c.query(
        `UPDATE product_search s SET vec = v.vec, brand_no = p.brand_no, class_no = p.class_no, leaf_no = p.leaf_no,
              promo = p.is_promotion, supplier_nos = x.nos, name_rank = r.rn,
              ${features.map((k) => `f${k} = p.feature_values[${k}]`).join(', ')}
         FROM catalogue_import_publish x JOIN catalogue_import_search v ON v.import_id = ${id} AND v.id = x.id
         JOIN products p ON p.id = x.id JOIN catalogue_import_ranks r ON r.id = x.id
        WHERE s.id = x.id`,
      );
      // New rows in category order, sorted without their vectors: each row's vector is looked up in the stage's key
      // afterwards, in that order (OFFSET 0 keeps the lookup a nested loop). Joined before the sort, the vectors went
      // through it (about 450 MB per million rows: an external sort on disk, about a third of the insert's time).
      await c.query(
        `INSERT INTO product_search (id, rank, name_rank, vec, brand_no, class_no, leaf_no, promo, supplier_nos,
                                   ${features.map((k) => `f${k}`).join(', ')})
       SELECT o.id, o.id, o.rn, v.vec, o.brand_no, o.class_no, o.leaf_no, o.is_promotion, o.nos,
              ${features.map((k) => `o.f${k}`).join(', ')}
         FROM (SELECT x.id, r.rn, p.brand_no, p.class_no, p.leaf_no, p.is_promotion, x.nos,
                      ${features.map((k) => `p.feature_values[${k}] AS f${k}`).join(', ')}
                 FROM catalogue_import_publish x JOIN products p ON p.id = x.id JOIN catalogue_import_ranks r ON r.id = x.id
                WHERE NOT EXISTS (SELECT 1 FROM product_search s WHERE s.id = x.id)
                ORDER BY p.leaf_no, x.id) o
        CROSS JOIN LATERAL (SELECT v.vec FROM catalogue_import_search v WHERE v.import_id = ${id} AND v.id = o.id OFFSET 0) v`,
      );
    });
    if (rebuild.length) {
      await c.query('ALTER TABLE product_search ENABLE TRIGGER product_search_changes_insert');
      await c.query(`INSERT INTO search_changes (product_id) VALUES (${FEED_REBUILD})`);
      await c.query(`SELECT pg_notify('search_changes', '')`);
    }
    // The lowest prices (the narrow table of migration 0205): changed ones of rows that were searchable, then one
    // row for each new search row (every published product has its search row now).
    await time('publish: prices', async () => {
      await c.query(
        `UPDATE product_search_prices s SET price_cents = x.price, offers = x.offers FROM catalogue_import_publish x
          WHERE s.id = x.id AND (s.price_cents, s.offers) IS DISTINCT FROM (x.price, x.offers)`,
      );
      await c.query(
        `INSERT INTO product_search_prices (id, price_cents, offers)
         SELECT x.id, x.price, x.offers FROM catalogue_import_publish x
          WHERE NOT EXISTS (SELECT 1 FROM product_search_prices s WHERE s.id = x.id)
          ORDER BY x.id`,
      );
    });
    if (rebuild.length)
      await time('publish: indexes', async () => {
        await c.query(`SET LOCAL maintenance_work_mem = '256MB'`);
        for (const definition of rebuild) await c.query(definition);
      });
    if (before[0].any)
      await time('publish: name ranks', () =>
        c.query(
          `UPDATE product_search s SET name_rank = r.rn FROM catalogue_import_ranks r
        WHERE s.id = r.id AND s.name_rank IS DISTINCT FROM r.rn`,
        ),
      );
  }
  await c.query('DELETE FROM catalogue_import_search WHERE import_id = $1', [id]);
  return rows[0].n;
}

/** Rows at least this many, and at least as many as the search index holds: rebuild instead of insert. */
const BULK_PUBLISH = 50_000;

/**
 * A publish that at least doubles the search index (a first large catalogue) builds the secondary
 * indexes of product_search afresh after the insert, as the catalogue loader does: sorting once
 * is far cheaper than inserting row by row, above all into the GIN index of the words. The drop and
 * the rebuild are in the import's last transaction (a failure rolls both back); searches wait for
 * that transaction meanwhile. Returns the definitions to run after the insert.
 */
async function dropSearchIndexesForBulkInsert(c: pg.PoolClient, rows: number): Promise<string[]> {
  if (rows < BULK_PUBLISH) return [];
  const { rows: size } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM product_search');
  if (size[0].n > rows) return [];
  const { rows: indexes } = await c.query<{ indexname: string; indexdef: string }>(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i
      WHERE i.schemaname = current_schema() AND i.tablename = 'product_search'
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)`,
  );
  for (const i of indexes) await c.query(`DROP INDEX "${i.indexname.replace(/"/g, '""')}"`);
  return indexes.map((i) => i.indexdef);
}
