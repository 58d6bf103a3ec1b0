/**
 * SQL of the catalogue writer (catalogue-writer.ts): the session's staging tables and their COPY, and the set-based
 * merge of a staged batch into products, offers, future price blocks and the staged search vectors. The price lane
 * of a price update is in import-prices.repo.ts, the publication into product_search in search-publication.repo.ts,
 * the withdrawal of offers in withdrawals.repo.ts. The functions take the import session's client: the staging tables
 * are temporary tables of that session and each batch is one transaction of it (`inClientTransaction`, db/pool.ts).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { noteMediaRefs } from './media-downloads.repo.ts';

/** Staging tables of this session; ON COMMIT DELETE ROWS: every batch is one transaction and starts empty. */
export const STAGE = 'catalogue_import_stage';
export const PRICE_STAGE = 'catalogue_import_price_stage';
export const CHANGED = 'catalogue_import_changed';
/** The products the batch's upsert wrote: product id → product number (for the offers, without a lookup in products). */
const PRODUCT_NOS = 'catalogue_import_product_nos';
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
  CREATE TEMP TABLE IF NOT EXISTS ${CHANGED} (product_no integer, pos integer, cents integer) ON COMMIT DELETE ROWS;
  CREATE TEMP TABLE IF NOT EXISTS ${PRODUCT_NOS} (product_id text, id integer) ON COMMIT DELETE ROWS`;

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
  await c.query(`DROP TABLE IF EXISTS ${STAGE}, ${PRICE_STAGE}, ${CHANGED}, ${PRODUCT_NOS}`);
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

/** Lowest net price per unit in cents over the offers `o` of a product (null: none priced, or all on demand). */
export const LOWEST_UNIT_CENTS = `round(min(o.net_price / o.price_basis) FILTER (WHERE o.net_price IS NOT NULL AND NOT o.price_on_demand) * 100)::int`;
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

/**
 * Upserts the staged articles' products (`isUpdate`: T_UPDATE_PRODUCTS keeps references and media the file leaves out)
 * and keeps their numbers for the offers (PRODUCT_NOS): joined with the products table instead, the planner chose a
 * scan of all products per batch (a hash join: 50,000 staged rows against millions of products), so the import's
 * cost per product grew with the catalogue (2M: two scans of all products per batch, this one and the search vectors').
 */
export async function upsertProducts(c: pg.PoolClient, sharedProducts: boolean, isUpdate: boolean) {
  const perProduct = perProductOf(sharedProducts);
  await c.query(
    `WITH written AS (INSERT INTO products AS p (id, product_id, manufacturer_id, manufacturer_pid, manufacturer_pid_norm, gtin, brand_no, model_number,
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
           updated_at = now()
         RETURNING p.product_id, p.id)
     INSERT INTO ${PRODUCT_NOS} (product_id, id) SELECT product_id, id FROM written`,
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

/** Upserts the staged articles' offers (`newOnly`: the supplier has none yet, a plain insert), after upsertProducts. */
export async function upsertOffers(c: pg.PoolClient, supplier: string, productDataSource: number, newOnly = false) {
  await c.query(
    `INSERT INTO product_offers (product_instance_id, product_no, supplier_bp_number, supplier_pid, supplier_pid_norm, product_data_source,
           unit_code, net_price, price_basis, gross_list_price, price_on_demand, min_order_quantity, min_order_unit, time_to_delivery_days,
           quantity_interval, content_unit, price_valid_from, price_valid_to, price_scales, import_hash)
         SELECT t.iid, p.id, $1, t.pid, t.pid_norm, $2, t.unit, t.net, COALESCE(t.basis, 1), t.gross, t.net IS NULL AND t.has_price,
                COALESCE(t.min, 1), t.unit, t.days, t.step, t.content_unit, t.valid_from, t.valid_to, t.scales::jsonb, t.hash
           FROM ${STAGE} t JOIN ${PRODUCT_NOS} p ON p.product_id = t.product_id
         ${newOnly ? '' : OFFER_CONFLICT}`,
    [supplier, productDataSource],
  );
}

/**
 * Runs `work` in a savepoint: a unique violation in it (an insert without conflict check that meets a row there
 * already: an article number of the file that an earlier batch brought) rolls it back to the savepoint and returns
 * false; the caller writes the batch again with upserts.
 */
export async function inSavepoint(c: pg.PoolClient, work: () => Promise<void>): Promise<boolean> {
  await c.query('SAVEPOINT only_new');
  try {
    await work();
    await c.query('RELEASE SAVEPOINT only_new');
    return true;
  } catch (error) {
    if ((error as { code?: string }).code !== '23505') throw error;
    await c.query('ROLLBACK TO SAVEPOINT only_new');
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
 * The product number of the staged row `t`, looked up in products' unique index row by row: OFFSET 0 keeps the
 * planner from turning the lookups into a join, which it planned as a hash join over all products (a scan of every
 * product per batch: the cost per imported product grew with the catalogue).
 */
const PRODUCT_NO_OF_T = 'SELECT p.id FROM products p WHERE p.product_id = t.product_id OFFSET 0';

/**
 * The statement of stageSearchVectors (parameter $1: the import): brand, category and description texts repeat across
 * products, so each distinct one is parsed once per batch (MATERIALIZED: a plain subquery is pulled up into the join,
 * and its vector is then computed again for every product — three parses per product more, about half of the
 * statement's time); the name (weight A) is parsed per product.
 */
export function searchVectorsStatement(sharedProducts: boolean, upsert = true) {
  // Several supplier articles may name the same manufacturer article: the last one in the file wins, as for the product.
  const perProduct = sharedProducts
    ? `(SELECT DISTINCT ON (product_id) * FROM ${SEARCH_STAGE} ORDER BY product_id, pos DESC)`
    : SEARCH_STAGE;
  const distinctVectors = (doc: string, weight: string) =>
    `MATERIALIZED (SELECT x, setweight(to_tsvector('german_unaccent', x), '${weight}') AS v FROM (SELECT DISTINCT ${doc} AS x FROM t) d)`;
  return `WITH t AS (SELECT product_id, doc_a, doc_b, doc_c, doc_d FROM ${perProduct} x),
              b AS ${distinctVectors('doc_b', 'B')},
              c AS ${distinctVectors('doc_c', 'C')},
              d AS ${distinctVectors('doc_d', 'D')}
         INSERT INTO catalogue_import_search AS s (import_id, id, vec)
         SELECT $1, p.id, setweight(to_tsvector('german_unaccent', t.doc_a), 'A') || b.v || c.v || d.v
           FROM t CROSS JOIN LATERAL (${PRODUCT_NO_OF_T}) p
           JOIN b ON b.x = t.doc_b JOIN c ON c.x = t.doc_c JOIN d ON d.x = t.doc_d
         ${upsert ? 'ON CONFLICT (import_id, id) DO UPDATE SET vec = EXCLUDED.vec' : ''}`;
}

/**
 * Search vectors, set-based, in the second session from its stage of search texts (the batch's products are
 * committed; searchVectorsStatement). Articles the import session dropped as unchanged (`dropped`, their positions)
 * are left out. They are staged and published into product_search when the import ends (publishSearch).
 */
export async function stageSearchVectors(
  s: pg.PoolClient,
  sharedProducts: boolean,
  importId: number,
  dropped: number[],
) {
  if (dropped.length) await s.query(`DELETE FROM ${SEARCH_STAGE} WHERE pos = ANY($1::int[])`, [dropped]);
  // Mostly every product is staged once per import: a plain insert (the upsert's conflict check per row cost about a
  // tenth of the statement). A product staged again (by a later batch, or by the same batch of a run after a crash)
  // makes it fail: rolled back to the savepoint and upserted.
  const inserted = await inSavepoint(s, async () => {
    await s.query(searchVectorsStatement(sharedProducts, false), [importId]);
  });
  if (!inserted) await s.query(searchVectorsStatement(sharedProducts), [importId]);
}

/**
 * Replaces the future price blocks of the staged offers by the file's (a file that lists none for an
 * offer removes its former ones). The staged rows `t` name their offer `o` by `join` (parameter $1:
 * the supplier); `basis` is the staged price quantity.
 */
export async function replaceFuturePrices(
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
