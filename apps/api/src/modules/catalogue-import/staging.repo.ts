/**
 * SQL of the catalogue writer (catalogue-writer.ts) and of the import's last steps: the session's staging tables and
 * their COPY, the set-based merge of a staged batch into products, offers and future price blocks, the staged search
 * vectors and their publication into product_search (with the bulk index rebuild), and the withdrawal of offers. The
 * functions take the import session's client: the staging tables are temporary tables of that session and each batch
 * is one transaction of it (`inClientTransaction`, db/pool.ts).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { inClientTransaction } from '../../db/pool.ts';
import { from as copyFrom } from 'pg-copy-streams';
import { lowerTermsOfWithdrawn } from './search-terms.repo.ts';
import { FEED_REBUILD } from '../catalogue/index.ts';
import { noteMediaRefs } from './media-downloads.repo.ts';

/** Staging tables of this session; ON COMMIT DELETE ROWS: every batch is one transaction and starts empty. */
const STAGE = 'catalogue_import_stage';
const PRICE_STAGE = 'catalogue_import_price_stage';
const CHANGED = 'catalogue_import_changed';
const STAGE_TABLES = `
  CREATE TEMP TABLE IF NOT EXISTS ${STAGE} (
    pos integer, pid text, iid text, pid_norm text,
    product_id text, manufacturer_id text, manufacturer_pid text, mpid_norm text, gtin text, brand_no integer, model text,
    name text, descr text, ptype text, class_no integer, features text, leaf_no integer, acc text, spare text, media text,
    unit text, net numeric, basis numeric, gross numeric, has_price boolean, min numeric, days smallint, step numeric,
    content_unit text, valid_from date, valid_to date, scales text, hash text,
    succ text, future text, keep_price boolean
  ) ON COMMIT DELETE ROWS;
  CREATE TEMP TABLE IF NOT EXISTS ${PRICE_STAGE} (
    pos integer, pid text, net numeric, gross numeric, scales text, valid_from date, valid_to date, basis numeric,
    current boolean, future text, fchanged boolean
  ) ON COMMIT DELETE ROWS;
  CREATE TEMP TABLE IF NOT EXISTS ${CHANGED} (product_no integer, pos integer, cents integer) ON COMMIT DELETE ROWS`;

/**
 * The search texts of a batch (weights A–D) are staged apart, in the import's second session: it computes the batch's
 * search vectors once the batch has committed, while the import session merges the next batch (two cores at work).
 */
const SEARCH_STAGE = 'catalogue_import_search_stage';

/** Creates the second session's stage of search texts (idempotent). */
export async function prepareSearchStaging(s: pg.PoolClient) {
  await s.query(
    `CREATE TEMP TABLE IF NOT EXISTS ${SEARCH_STAGE} (pos integer, product_id text, doc_a text, doc_b text, doc_c text, doc_d text)
       ON COMMIT DELETE ROWS`,
  );
}

/** Drops it again before the connection goes back to the pool. */
export async function dropSearchStaging(s: pg.PoolClient) {
  await s.query(`DROP TABLE IF EXISTS ${SEARCH_STAGE}`);
}

/** COPYs a batch's search texts (pos, product id, texts A–D) into the second session's stage. */
export function copySearchStage(s: pg.PoolClient, chunks: Buffer[]) {
  return copyInto(s, SEARCH_STAGE, chunks);
}

/** Creates the session's staging tables (idempotent). */
export async function prepareStaging(c: pg.PoolClient) {
  await c.query(STAGE_TABLES);
}

/** Drops them again before the connection goes back to the pool. */
export async function dropStaging(c: pg.PoolClient) {
  await c.query(`DROP TABLE IF EXISTS ${STAGE}, ${PRICE_STAGE}, ${CHANGED}`);
}

/**
 * Sorts and hashes of 50,000 staged rows stay in memory (for the batch's transaction). Its commit does not wait for
 * the WAL flush (`synchronous_commit = off`, this transaction only): a database crash may lose the last batches
 * committed, never a part of one, and WAL order keeps every later synchronous commit (progress, status) behind
 * them — the import is then still InProgress and runs again from the start of its file (idempotent upserts).
 */
export async function setBatchWorkMem(c: pg.PoolClient) {
  await c.query(`SET LOCAL work_mem = '256MB'; SET LOCAL synchronous_commit = off`);
}

/** Records the batch's supplier article numbers as seen by a full catalogue. */
export async function recordSeen(c: pg.PoolClient, importId: number, pids: string[]) {
  await c.query(
    'INSERT INTO catalogue_import_seen (import_id, supplier_pid) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
    [importId, pids],
  );
}

async function copyInto(c: pg.PoolClient, table: string, chunks: Buffer[], columns = '') {
  await pipeline(Readable.from(chunks), c.query(copyFrom(`COPY ${table} ${columns} FROM STDIN`)));
}

/** COPYs a batch of staged articles (text lines in `chunks`) into the session's article stage. */
export function copyArticleStage(c: pg.PoolClient, chunks: Buffer[]) {
  return copyInto(c, STAGE, chunks);
}

/** COPYs a batch of staged price lines (T_UPDATE_PRICES) into the session's price stage. */
export function copyPriceStage(c: pg.PoolClient, chunks: Buffer[]) {
  return copyInto(
    c,
    PRICE_STAGE,
    chunks,
    '(pos, pid, net, gross, scales, valid_from, valid_to, basis, current, future)',
  );
}

/**
 * A staged price batch is small against the catalogue (50,000 lines against a million offers): its statements look
 * every line up by index (nested loops), never scan all offers or search rows and hash them. The planner cannot know
 * the staging table's size and, left to itself, hashed the whole offers and search tables in every batch (about 1.9 s
 * of 3.2 s per batch at 1,000,000 products). For the rest of the batch's transaction.
 */
export async function lookUpPricesByIndex(c: pg.PoolClient) {
  await c.query(`SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off`);
}

/**
 * Staged price lines whose article the supplier's catalogue does not have. Runs after the offers' update: lines that
 * changed an offer are known (no lookup); the others are looked up by index.
 */
export async function unknownPriceArticles(c: pg.PoolClient, supplier: string) {
  const { rows } = await c.query<{ pos: number; pid: string }>(
    `SELECT t.pos, t.pid FROM ${PRICE_STAGE} t
        WHERE t.pos NOT IN (SELECT x.pos FROM ${CHANGED} x)
          AND NOT EXISTS (SELECT 1 FROM product_offers o WHERE o.supplier_bp_number = $1 AND o.supplier_pid = t.pid)
        ORDER BY t.pos`,
    [supplier],
  );
  return rows;
}

/** Marks the staged price lines whose future blocks differ from the stored ones (compared as JSON, ascending by start). */
export async function markChangedFuturePrices(c: pg.PoolClient, supplier: string) {
  await c.query(
    `UPDATE ${PRICE_STAGE} t SET fchanged = true FROM product_offers o
            WHERE o.supplier_bp_number = $1 AND o.supplier_pid = t.pid
              AND COALESCE((SELECT jsonb_agg(jsonb_build_object('from', f.valid_from, 'to', f.valid_to, 'net', f.net_price,
                                                                'gross', f.gross_list_price, 'scales', f.price_scales) ORDER BY f.valid_from)
                              FROM catalogue_offer_prices f WHERE f.product_instance_id = o.product_instance_id), '[]'::jsonb)
                  IS DISTINCT FROM COALESCE(t.future::jsonb, '[]'::jsonb)`,
    [supplier],
  );
}

/** Lowest net price per unit in cents over the offers `o` of a product (null: none priced, or all on demand). */
const LOWEST_UNIT_CENTS = `round(min(o.net_price / o.price_basis) FILTER (WHERE o.net_price IS NOT NULL AND NOT o.price_on_demand) * 100)::int`;
/** Net price per unit in cents of an offer `o` (null: no price, or on demand) — the lowest price's measure. */
const UNIT_CENTS = `CASE WHEN o.net_price IS NOT NULL AND NOT o.price_on_demand THEN round(o.net_price / o.price_basis * 100)::int END AS cents`;

/** Today's price where the file has one (t.current); returns the offers changed (their products and lines go to the changed table). */
export async function updateOfferPrices(c: pg.PoolClient, supplier: string): Promise<number> {
  const { rowCount } = await c.query(
    `WITH changed AS (
         UPDATE product_offers o
            SET net_price = CASE WHEN t.current THEN t.net ELSE o.net_price END,
                gross_list_price = CASE WHEN t.current THEN COALESCE(t.gross, o.gross_list_price) ELSE o.gross_list_price END,
                price_scales = CASE WHEN t.current THEN t.scales::jsonb ELSE o.price_scales END,
                price_valid_from = CASE WHEN t.current THEN t.valid_from ELSE o.price_valid_from END,
                price_valid_to = CASE WHEN t.current THEN t.valid_to ELSE o.price_valid_to END,
                price_basis = CASE WHEN t.current THEN COALESCE(t.basis, o.price_basis) ELSE o.price_basis END,
                price_on_demand = CASE WHEN t.current THEN false ELSE o.price_on_demand END, import_hash = NULL
           FROM ${PRICE_STAGE} t
          WHERE o.supplier_bp_number = $1 AND o.supplier_pid = t.pid
            AND (t.fchanged OR t.current AND
                 (o.net_price, o.gross_list_price, o.price_scales, o.price_valid_from, o.price_valid_to, o.price_basis, o.price_on_demand)
                 IS DISTINCT FROM (t.net, COALESCE(t.gross, o.gross_list_price), t.scales::jsonb, t.valid_from, t.valid_to,
                                   COALESCE(t.basis, o.price_basis), false))
          RETURNING o.product_no, t.pos, ${UNIT_CENTS})
       INSERT INTO ${CHANGED} (product_no, pos, cents) SELECT product_no, pos, cents FROM changed`,
    [supplier],
  );
  return rowCount ?? 0;
}

/** Products whose offer prices changed in a batch, with the new unit price (cents) of one changed offer each. */
export interface ChangedPrices {
  productNos: number[];
  unitCents: (number | null)[];
}

/** The products whose offer prices changed in this batch. */
export async function changedPriceProducts(c: pg.PoolClient): Promise<ChangedPrices> {
  const { rows } = await c.query<{ product_no: number; cents: number | null }>(
    `SELECT product_no, min(cents) AS cents FROM ${CHANGED} GROUP BY product_no`,
  );
  return { productNos: rows.map((r) => r.product_no), unitCents: rows.map((r) => r.cents) };
}

/**
 * Lowest net price per unit (cents) and number of offers of the products `ids` (a subquery), from their offers: one
 * grouped pass.
 */
const lowestPrices = (ids: string) => `
  SELECT o.product_no AS id,
         ${LOWEST_UNIT_CENTS} AS price,
         count(*)::int AS offers
    FROM product_offers o WHERE o.product_no IN (${ids}) GROUP BY o.product_no`;

/**
 * The lowest price of the search rows of products whose offer prices changed (a batch of a price update, written by
 * the import's second session after the batch committed, or by the last batch's own) — in the narrow
 * product_search_prices (migration 0205), not in the wide search rows. A product with a single offer (offers = 1,
 * migration 0230; a price update adds or removes none) gets the changed offer's unit price as it is; the others
 * (offers 0: not known) are computed from all their offers, and their count of offers recorded. Looked up by index;
 * the caller wraps it in a transaction.
 */
export async function updateSearchPricesOf(c: pg.PoolClient, changed: ChangedPrices) {
  await lookUpPricesByIndex(c);
  // The subquery's condition on s.offers is a one-time filter: a single offer's row reads no offers. The others are
  // written even when their lowest price stays (a dearer offer changed): one row each, no second read of the offers.
  await c.query(
    `UPDATE product_search_prices s
        SET (price_cents, offers) = (
              SELECT CASE WHEN s.offers = 1 THEN v.cents
                          ELSE ${LOWEST_UNIT_CENTS} END,
                     CASE WHEN s.offers = 1 THEN 1 ELSE count(*)::int END
                FROM product_offers o WHERE o.product_no = s.id AND s.offers <> 1)
       FROM unnest($1::int[], $2::int[]) v(id, cents)
      WHERE s.id = v.id AND NOT (s.offers = 1 AND s.price_cents IS NOT DISTINCT FROM v.cents)`,
    [changed.productNos, changed.unitCents],
  );
}

/** From the batch's commit on, the supplier's search rows may lag its offer prices until the import ends. */
export async function markSearchPricesPending(c: pg.PoolClient, supplier: string) {
  await c.query('INSERT INTO catalogue_import_search_prices (supplier_bp_number) VALUES ($1) ON CONFLICT DO NOTHING', [
    supplier,
  ]);
}

export async function clearSearchPricesPending(c: pg.PoolClient, supplier: string) {
  await c.query('DELETE FROM catalogue_import_search_prices WHERE supplier_bp_number = $1', [supplier]);
}

/**
 * A price update of the supplier ended without its search rows' prices (crash, lost connection): the lowest prices
 * of all the supplier's products are recomputed, set-based, and the mark removed. Returns whether there was one.
 */
export async function repairSearchPrices(c: pg.PoolClient, supplier: string): Promise<boolean> {
  return inClientTransaction(c, async () => {
    const { rowCount } = await c.query('DELETE FROM catalogue_import_search_prices WHERE supplier_bp_number = $1', [
      supplier,
    ]);
    if (!rowCount) return false;
    await c.query(`SET LOCAL work_mem = '256MB'`);
    await c.query(
      `UPDATE product_search_prices s SET price_cents = x.price, offers = x.offers
         FROM (${lowestPrices('SELECT product_no FROM product_offers WHERE supplier_bp_number = $1')}) x
        WHERE s.id = x.id AND (s.price_cents, s.offers) IS DISTINCT FROM (x.price, x.offers)`,
      [supplier],
    );
    return true;
  });
}

/** Future price blocks of the staged price lines whose blocks changed. */
export function replacePriceStageFuturePrices(c: pg.PoolClient, supplier: string, anyFuture: boolean) {
  return replaceFuturePrices(
    c,
    PRICE_STAGE,
    'o.supplier_bp_number = $1 AND o.supplier_pid = t.pid AND t.fchanged',
    supplier,
    anyFuture,
  );
}

/** Future price blocks of the staged articles. */
export function replaceStagedFuturePrices(c: pg.PoolClient, supplier: string, anyFuture: boolean) {
  return replaceFuturePrices(
    c,
    STAGE,
    'o.product_instance_id = t.iid AND o.supplier_bp_number = $1',
    supplier,
    anyFuture,
  );
}

/**
 * Same hash, and the product has its search row (published or staged by this import): nothing to write, so
 * re-importing a file changes nothing. After a crash the staged search rows are gone; such products are written
 * again rather than left unsearchable. Returns the positions of the staged articles dropped.
 */
export async function dropUnchangedStaged(c: pg.PoolClient, importId: number): Promise<number[]> {
  const { rows } = await c.query<{ pos: number }>(
    `DELETE FROM ${STAGE} s USING product_offers o
          WHERE o.product_instance_id = s.iid AND o.import_hash = s.hash
            AND (EXISTS (SELECT 1 FROM product_search ps WHERE ps.id = o.product_no)
                 OR EXISTS (SELECT 1 FROM catalogue_import_search x WHERE x.import_id = $1 AND x.id = o.product_no))
      RETURNING s.pos`,
    [importId],
  );
  return rows.map((r) => r.pos);
}

/**
 * The products a batch wrote are noted for the media download queue, by the second session in the transaction of the
 * batch's search vectors (after stageSearchVectors: unchanged articles are out of the stage).
 */
export function noteStagedMedia(s: pg.PoolClient, importId: number) {
  return noteMediaRefs(s, SEARCH_STAGE, importId);
}

/** Staged articles left, and how many of them have an offer already. */
export async function countStaged(c: pg.PoolClient) {
  const { rows: counts } = await c.query<{ total: number; existing: number }>(
    `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE EXISTS (SELECT 1 FROM product_offers o WHERE o.product_instance_id = s.iid))::int AS existing
         FROM ${STAGE} s`,
  );
  return counts[0];
}

/** Articles with only future price blocks keep the offer's price of today. */
export async function keepTodaysPrices(c: pg.PoolClient) {
  await c.query(
    `UPDATE ${STAGE} t SET net = o.net_price, gross = o.gross_list_price, basis = o.price_basis, scales = o.price_scales::text,
                valid_from = o.price_valid_from, valid_to = o.price_valid_to, has_price = o.price_on_demand
           FROM product_offers o WHERE t.keep_price AND o.product_instance_id = t.iid`,
  );
}

/** The staged articles, one row per product. */
function perProductOf(sharedProducts: boolean) {
  // Several supplier articles may name the same manufacturer article: the last one in the file wins
  // (the sort is only paid for when the batch has such articles).
  return sharedProducts ? `(SELECT DISTINCT ON (product_id) * FROM ${STAGE} ORDER BY product_id, pos DESC)` : STAGE;
}

/** Upserts the staged articles' products (`isUpdate`: T_UPDATE_PRODUCTS keeps references and media the file leaves out). */
export async function upsertProducts(c: pg.PoolClient, sharedProducts: boolean, isUpdate: boolean) {
  const perProduct = perProductOf(sharedProducts);
  await c.query(
    `INSERT INTO products AS p (id, product_id, manufacturer_id, manufacturer_pid, manufacturer_pid_norm, gtin, brand_no, model_number,
           product_name, product_descr, product_type, class_no, feature_values, leaf_no, accessories, spare_parts, successors, media, updated_at)
         SELECT nextval('catalogue_product_no_seq'), t.product_id, t.manufacturer_id, t.manufacturer_pid, t.mpid_norm, t.gtin, t.brand_no,
           t.model, t.name, t.descr, t.ptype, t.class_no, COALESCE(string_to_array(t.features, ',', '')::real[], '{}'), t.leaf_no,
           COALESCE(string_to_array(t.acc, '|'), '{}'), COALESCE(string_to_array(t.spare, '|'), '{}'),
           COALESCE(string_to_array(t.succ, '|'), '{}'), t.media::jsonb, now()
         FROM ${perProduct} t
         ON CONFLICT (product_id) DO UPDATE SET gtin = COALESCE(EXCLUDED.gtin, p.gtin), brand_no = EXCLUDED.brand_no,
           model_number = COALESCE(EXCLUDED.model_number, p.model_number), product_name = EXCLUDED.product_name,
           product_descr = COALESCE(EXCLUDED.product_descr, p.product_descr), product_type = COALESCE(EXCLUDED.product_type, p.product_type),
           class_no = COALESCE(EXCLUDED.class_no, p.class_no),
           feature_values = CASE WHEN EXCLUDED.class_no IS NULL THEN p.feature_values ELSE EXCLUDED.feature_values END,
           leaf_no = EXCLUDED.leaf_no,
           accessories = CASE WHEN cardinality(EXCLUDED.accessories) > 0 OR NOT $1 THEN EXCLUDED.accessories ELSE p.accessories END,
           spare_parts = CASE WHEN cardinality(EXCLUDED.spare_parts) > 0 OR NOT $1 THEN EXCLUDED.spare_parts ELSE p.spare_parts END,
           successors = CASE WHEN cardinality(EXCLUDED.successors) > 0 OR NOT $1 THEN EXCLUDED.successors ELSE p.successors END,
           media = CASE WHEN jsonb_array_length(EXCLUDED.media) > 0 OR NOT $1 THEN EXCLUDED.media ELSE p.media END,
           updated_at = now()`,
    [isUpdate],
  );
}

/** What an upsert of a staged offer changes on the offer there already. */
const OFFER_CONFLICT = `ON CONFLICT (product_instance_id) DO UPDATE SET product_no = EXCLUDED.product_no, unit_code = EXCLUDED.unit_code,
           net_price = EXCLUDED.net_price,
           price_basis = EXCLUDED.price_basis, gross_list_price = EXCLUDED.gross_list_price, price_on_demand = EXCLUDED.price_on_demand,
           min_order_quantity = EXCLUDED.min_order_quantity, min_order_unit = EXCLUDED.min_order_unit,
           time_to_delivery_days = EXCLUDED.time_to_delivery_days, quantity_interval = EXCLUDED.quantity_interval,
           content_unit = EXCLUDED.content_unit, price_valid_from = EXCLUDED.price_valid_from, price_valid_to = EXCLUDED.price_valid_to,
           price_scales = EXCLUDED.price_scales, import_hash = EXCLUDED.import_hash`;

/** Upserts the staged articles' offers (`newOnly`: the supplier has none yet, a plain insert). */
export async function upsertOffers(c: pg.PoolClient, supplier: string, productDataSource: number, newOnly = false) {
  await c.query(
    `INSERT INTO product_offers (product_instance_id, product_no, supplier_bp_number, supplier_pid, supplier_pid_norm, product_data_source,
           unit_code, net_price, price_basis, gross_list_price, price_on_demand, min_order_quantity, min_order_unit, time_to_delivery_days,
           quantity_interval, content_unit, price_valid_from, price_valid_to, price_scales, import_hash)
         SELECT t.iid, p.id, $1, t.pid, t.pid_norm, $2, t.unit, t.net, COALESCE(t.basis, 1), t.gross, t.net IS NULL AND t.has_price,
                COALESCE(t.min, 1), t.unit, t.days, t.step, t.content_unit, t.valid_from, t.valid_to, t.scales::jsonb, t.hash
           FROM ${STAGE} t JOIN products p ON p.product_id = t.product_id
         ${newOnly ? '' : OFFER_CONFLICT}`,
    [supplier, productDataSource],
  );
}

/**
 * Inserts the staged offers of a supplier that had none when the import began, without the upsert's conflict check.
 * An article number of the file that an earlier batch brought already (a duplicate farther apart than a batch) makes
 * the insert fail: it is rolled back to a savepoint and false returned, the caller upserts then.
 */
export async function insertNewOffers(c: pg.PoolClient, supplier: string, productDataSource: number): Promise<boolean> {
  await c.query('SAVEPOINT new_offers');
  try {
    await upsertOffers(c, supplier, productDataSource, true);
    await c.query('RELEASE SAVEPOINT new_offers');
    return true;
  } catch (error) {
    if ((error as { code?: string }).code !== '23505') throw error;
    await c.query('ROLLBACK TO SAVEPOINT new_offers');
    return false;
  }
}

/** An offer that comes back after a withdrawal is live again. */
export async function reviveWithdrawnOffers(c: pg.PoolClient, supplier: string) {
  await c.query(
    `DELETE FROM catalogue_withdrawn_offers w USING ${STAGE} t
          WHERE w.supplier_bp_number = $1 AND w.product_instance_id = t.iid`,
    [supplier],
  );
}

/**
 * Search vectors, set-based, in the second session from its stage of search texts (the batch's products are
 * committed): brand, category and description texts repeat across products, so each distinct one is parsed once per
 * batch; the name (weight A) is parsed per product. Articles the import session dropped as unchanged (`dropped`,
 * their positions) are left out. They are staged and published into product_search when the import ends
 * (publishSearch).
 */
export async function stageSearchVectors(
  s: pg.PoolClient,
  sharedProducts: boolean,
  importId: number,
  dropped: number[],
) {
  if (dropped.length) await s.query(`DELETE FROM ${SEARCH_STAGE} WHERE pos = ANY($1::int[])`, [dropped]);
  // Several supplier articles may name the same manufacturer article: the last one in the file wins, as for the product.
  const perProduct = sharedProducts
    ? `(SELECT DISTINCT ON (product_id) * FROM ${SEARCH_STAGE} ORDER BY product_id, pos DESC)`
    : SEARCH_STAGE;
  await s.query(
    `WITH t AS (SELECT product_id, doc_a, doc_b, doc_c, doc_d FROM ${perProduct} x),
              b AS (SELECT x, setweight(to_tsvector('german_unaccent', x), 'B') AS v FROM (SELECT DISTINCT doc_b AS x FROM t) d),
              c AS (SELECT x, setweight(to_tsvector('german_unaccent', x), 'C') AS v FROM (SELECT DISTINCT doc_c AS x FROM t) d),
              d AS (SELECT x, setweight(to_tsvector('german_unaccent', x), 'D') AS v FROM (SELECT DISTINCT doc_d AS x FROM t) d)
         INSERT INTO catalogue_import_search AS s (import_id, id, vec)
         SELECT $1, p.id, setweight(to_tsvector('german_unaccent', t.doc_a), 'A') || b.v || c.v || d.v
           FROM t JOIN products p ON p.product_id = t.product_id
           JOIN b ON b.x = t.doc_b JOIN c ON c.x = t.doc_c JOIN d ON d.x = t.doc_d
         ON CONFLICT (import_id, id) DO UPDATE SET vec = EXCLUDED.vec`,
    [importId],
  );
}

/**
 * Replaces the future price blocks of the staged offers by the file's (a file that lists none for an
 * offer removes its former ones). The staged rows `t` name their offer `o` by `join` (parameter $1:
 * the supplier); `basis` is the staged price quantity.
 */
async function replaceFuturePrices(
  c: pg.PoolClient,
  stage: string,
  join: string,
  supplier: string,
  anyFuture: boolean,
) {
  await c.query(
    `DELETE FROM catalogue_offer_prices f USING ${stage} t, product_offers o
      WHERE ${join} AND f.product_instance_id = o.product_instance_id`,
    [supplier],
  );
  if (!anyFuture) return;
  await c.query(
    `INSERT INTO catalogue_offer_prices (product_instance_id, valid_from, valid_to, net_price, gross_list_price, price_scales, price_basis)
     SELECT DISTINCT ON (o.product_instance_id, (x->>'from')::date)
            o.product_instance_id, (x->>'from')::date, (x->>'to')::date, (x->>'net')::numeric, (x->>'gross')::numeric,
            NULLIF(x->'scales', 'null'::jsonb), COALESCE(t.basis, o.price_basis)
       FROM ${stage} t JOIN product_offers o ON ${join}, jsonb_array_elements(t.future::jsonb) x
      WHERE t.future IS NOT NULL
      ORDER BY o.product_instance_id, (x->>'from')::date`,
    [supplier],
  );
}

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
      await c.query(
        `INSERT INTO product_search (id, rank, name_rank, vec, brand_no, class_no, leaf_no, promo, supplier_nos,
                                   ${features.map((k) => `f${k}`).join(', ')})
       SELECT x.id, x.id, r.rn, v.vec, p.brand_no, p.class_no, p.leaf_no, p.is_promotion, x.nos,
              ${features.map((k) => `p.feature_values[${k}]`).join(', ')}
         FROM catalogue_import_publish x JOIN catalogue_import_search v ON v.import_id = ${id} AND v.id = x.id
         JOIN products p ON p.id = x.id JOIN catalogue_import_ranks r ON r.id = x.id
        WHERE NOT EXISTS (SELECT 1 FROM product_search s WHERE s.id = x.id)
        ORDER BY p.leaf_no, x.id`,
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

/** An offer of the supplier ($1) that full catalogue $2 did not contain. */
const NOT_SEEN =
  'NOT EXISTS (SELECT 1 FROM catalogue_import_seen s WHERE s.import_id = $2 AND s.supplier_pid = o.supplier_pid)';

/** Offers of the supplier now, and how many of them full catalogue `importId` would withdraw. */
export async function countWithdrawals(c: pg.PoolClient, supplier: string, importId: number) {
  const { rows } = await c.query<{ assortment: number; withdraw: number }>(
    `SELECT count(*)::int AS assortment, count(*) FILTER (WHERE ${NOT_SEEN})::int AS withdraw
       FROM product_offers o WHERE o.supplier_bp_number = $1`,
    [supplier, importId],
  );
  return rows[0];
}

/** A full catalogue waiting for approval: the offers it would withdraw are listed (logged), none withdrawn. */
export async function recordPendingWithdrawals(c: pg.PoolClient, supplier: string, importId: number) {
  await c.query(
    `INSERT INTO catalogue_import_pending_withdrawals (import_id, supplier_pid)
     SELECT $2, o.supplier_pid FROM product_offers o WHERE o.supplier_bp_number = $1 AND ${NOT_SEEN}
     ON CONFLICT DO NOTHING`,
    [supplier, importId],
  );
}

/**
 * Undo: the staged articles' offers and future price blocks as they are before the batch writes them (no offer: the
 * import creates it), and their products with their search rows. The first record of an import wins (its state
 * before).
 */
export async function snapshotStaged(c: pg.PoolClient, importId: number) {
  await c.query(
    `INSERT INTO catalogue_import_undo_offers (import_id, product_instance_id, offer, future_prices)
       SELECT $1, t.iid, to_jsonb(o),
              (SELECT jsonb_agg(to_jsonb(f)) FROM catalogue_offer_prices f WHERE f.product_instance_id = o.product_instance_id)
         FROM ${STAGE} t LEFT JOIN product_offers o ON o.product_instance_id = t.iid
       ON CONFLICT DO NOTHING`,
    [importId],
  );
  await c.query(
    `INSERT INTO catalogue_import_undo_products (import_id, id, product, search)
     SELECT $1, p.id, to_jsonb(p), to_jsonb(ps) FROM products p LEFT JOIN product_search ps ON ps.id = p.id
      WHERE p.product_id IN (SELECT product_id FROM ${STAGE})
     ON CONFLICT DO NOTHING`,
    [importId],
  );
}

/**
 * Offers `o` of the supplier ($1) to withdraw for import $2: those a full catalogue did not contain, those a full
 * catalogue waiting for approval listed, those the import created (undo), or all (undo of a supplier's first
 * catalogue).
 */
const WITHDRAWAL_SETS = {
  'not-seen': NOT_SEEN,
  pending:
    'EXISTS (SELECT 1 FROM catalogue_import_pending_withdrawals w WHERE w.import_id = $2 AND w.supplier_pid = o.supplier_pid)',
  created: `EXISTS (SELECT 1 FROM catalogue_import_undo_offers u
                     WHERE u.import_id = $2 AND u.product_instance_id = o.product_instance_id AND u.offer IS NULL)`,
  all: 'true',
};
export type WithdrawalSet = keyof typeof WITHDRAWAL_SETS;

/**
 * Withdraws offers: moved to catalogue_withdrawn_offers (not deleted for good) so past orders and
 * favourites still resolve their article data and a later import can bring them back.
 */
export async function withdrawOffers(
  c: pg.PoolClient,
  supplier: string,
  importId: number,
  pids: string[] | WithdrawalSet,
): Promise<number> {
  const condition = Array.isArray(pids) ? 'o.supplier_pid = ANY($3)' : WITHDRAWAL_SETS[pids];
  // Undo: the products of the offers withdrawn, with their search rows, as they are before (a product whose last offer
  // goes loses its search row).
  await c.query(
    `INSERT INTO catalogue_import_undo_products (import_id, id, product, search)
     SELECT $2, p.id, to_jsonb(p), to_jsonb(ps) FROM product_offers o JOIN products p ON p.id = o.product_no
       LEFT JOIN product_search ps ON ps.id = p.id
      WHERE o.supplier_bp_number = $1 AND ${condition}
     ON CONFLICT DO NOTHING`,
    Array.isArray(pids) ? [supplier, importId, pids] : [supplier, importId],
  );
  const { rows } = await c.query<{ product_no: number }>(
    `WITH gone AS (DELETE FROM product_offers o WHERE o.supplier_bp_number = $1 AND ${condition} RETURNING o.*)
     INSERT INTO catalogue_withdrawn_offers (product_instance_id, supplier_bp_number, product_no, offer, import_id)
     SELECT product_instance_id, supplier_bp_number, product_no, to_jsonb(gone), $2 FROM gone
     ON CONFLICT (product_instance_id) DO UPDATE SET offer = EXCLUDED.offer, import_id = EXCLUDED.import_id, withdrawn_at = now()
     RETURNING product_no`,
    Array.isArray(pids) ? [supplier, importId, pids] : [supplier, importId],
  );
  if (pids === 'pending')
    await c.query('DELETE FROM catalogue_import_pending_withdrawals WHERE import_id = $1', [importId]);
  const products = [...new Set(rows.map((r) => r.product_no))];
  await lowerTermsOfWithdrawn(c, products);
  await refreshSearchOffers(c, products);
  return rows.length;
}
