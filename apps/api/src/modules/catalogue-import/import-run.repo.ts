/**
 * SQL of an import run (import-pipeline.ts): the import session and its per-supplier lock, the supplier's state after
 * the import, the secondary indexes a first large catalogue drops and rebuilds, group maps, references and the
 * catalogue version. The functions take the import session's client.
 */
import type pg from 'pg';

const lockKey = (supplier: string) => `catalogue-import:${supplier}`;

/** A dedicated connection of the import (its session holds the staging tables and the supplier's lock). */
export function openSession(pool: pg.Pool): Promise<pg.PoolClient> {
  return pool.connect();
}

/** One import per supplier at a time: a second one waits here (session-level advisory lock). */
export async function lockSupplier(c: pg.PoolClient, supplier: string) {
  await c.query('SELECT pg_advisory_lock(hashtext($1))', [lockKey(supplier)]);
}

/** The supplier's import lock without waiting (approval, undo): false while one of its imports runs. */
export async function tryLockSupplier(c: pg.PoolClient, supplier: string): Promise<boolean> {
  const { rows } = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [
    lockKey(supplier),
  ]);
  return rows[0].ok;
}

/** The supplier's import lock, trying for up to `waitMs` (a short hold, e.g. the consistency check, passes). */
export async function lockSupplierWithin(c: pg.PoolClient, supplier: string, waitMs: number): Promise<boolean> {
  const until = Date.now() + waitMs;
  for (;;) {
    if (await tryLockSupplier(c, supplier)) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function unlockSupplier(c: pg.PoolClient, supplier: string) {
  await c.query('SELECT pg_advisory_unlock(hashtext($1))', [lockKey(supplier)]);
}

/** The supplier is integrated by catalogue import; its last import is `id`. */
export async function markSupplierImported(c: pg.PoolClient, supplier: string, id: number) {
  await c.query(
    `UPDATE suppliers SET integration_status = 1, integration_provider = COALESCE(integration_provider, 'Katalogimport'),
            product_data_source = (SELECT CASE WHEN organisation_type BETWEEN 1 AND 4 THEN organisation_type ELSE 1 END
                                     FROM business_partners WHERE bp_number = $1),
            last_catalogue_import_id = $2, last_catalogue_import_at = now()
      WHERE bp_number = $1`,
    [supplier, id],
  );
}

export async function deleteSeen(c: pg.PoolClient, id: number) {
  await c.query('DELETE FROM catalogue_import_seen WHERE import_id = $1', [id]);
}

export async function deleteStagedSearch(c: pg.PoolClient, id: number) {
  await c.query('DELETE FROM catalogue_import_search WHERE import_id = $1', [id]);
}

/** Product numbers continue after the highest product id (a catalogue load may have written ids itself). */
export async function syncProductNoSequence(c: pg.PoolClient) {
  await c.query(`SELECT setval('catalogue_product_no_seq', GREATEST((SELECT COALESCE(max(id), 0) FROM products), 
                   (SELECT last_value FROM catalogue_product_no_seq)))`);
}

/** Staging tables live in this session's temp buffers (must be set before its first temp table). */
export async function setTempBuffers(c: pg.PoolClient) {
  await c.query(`SET temp_buffers = '128MB'`);
}

export async function supplierName(c: pg.PoolClient, supplier: string): Promise<string> {
  return (await c.query('SELECT name FROM business_partners WHERE bp_number = $1', [supplier])).rows[0].name;
}

/** The supplier has offers (a full catalogue can withdraw some). */
export async function supplierHasOffers(c: pg.PoolClient, supplier: string): Promise<boolean> {
  return (
    await c.query<{ e: boolean }>('SELECT EXISTS (SELECT 1 FROM product_offers WHERE supplier_bp_number = $1) AS e', [
      supplier,
    ])
  ).rows[0].e;
}

/** The supplier has future price blocks stored. */
export async function supplierHasFuturePrices(c: pg.PoolClient, supplier: string): Promise<boolean> {
  return (
    await c.query<{ e: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM catalogue_offer_prices f JOIN product_offers o USING (product_instance_id)
                       WHERE o.supplier_bp_number = $1) AS e`,
      [supplier],
    )
  ).rows[0].e;
}

/** Search rows added or removed: the planner's statistics of product_search and its prices are refreshed. */
export async function analyzeSearch(c: pg.PoolClient) {
  await c.query('ANALYZE product_search, product_search_prices');
}

/** The planner's estimate of the products table's rows. */
export async function estimatedProducts(c: pg.PoolClient): Promise<number> {
  const { rows: size } = await c.query<{ n: number }>(
    `SELECT GREATEST(reltuples, 0)::bigint AS n FROM pg_class WHERE oid = 'products'::regclass`,
  );
  return Number(size[0].n);
}

/**
 * Records the non-unique indexes of `tables` in catalogue_load_indexes (the loader's table) and drops them; returns
 * their definitions. Run in a transaction.
 */
export async function recordAndDropSecondaryIndexes(c: pg.PoolClient, tables: string[]): Promise<string[]> {
  await c.query('CREATE TABLE IF NOT EXISTS catalogue_load_indexes (indexdef text PRIMARY KEY)');
  const { rows } = await c.query<{ indexname: string; indexdef: string }>(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i JOIN pg_class x ON x.relname = i.indexname
       JOIN pg_index ix ON ix.indexrelid = x.oid
      WHERE i.schemaname = current_schema() AND i.tablename = ANY($1) AND NOT ix.indisunique`,
    [tables],
  );
  await c.query('INSERT INTO catalogue_load_indexes SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [
    rows.map((r) => r.indexdef),
  ]);
  for (const r of rows) await c.query(`DROP INDEX IF EXISTS "${r.indexname.replace(/"/g, '""')}"`);
  return rows.map((r) => r.indexdef);
}

/**
 * Records the foreign keys of `tables` (where they reference another table) in catalogue_import_constraints and drops
 * them: a bulk write then checks no referenced row per written row. Run in a transaction.
 */
export async function recordAndDropForeignKeys(c: pg.PoolClient, tables: string[]): Promise<number> {
  const { rows } = await c.query<{ name: string; table_name: string; definition: string }>(
    `SELECT k.conname AS name, t.relname AS table_name, pg_get_constraintdef(k.oid) AS definition
       FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE k.contype = 'f' AND n.nspname = current_schema() AND t.relname = ANY($1)
      ORDER BY t.relname, k.conname`,
    [tables],
  );
  for (const r of rows) {
    await c.query(
      'INSERT INTO catalogue_import_constraints (name, table_name, definition) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [r.name, r.table_name, r.definition],
    );
    await c.query(`ALTER TABLE ${ident(r.table_name)} DROP CONSTRAINT ${ident(r.name)}`);
  }
  return rows.length;
}

/**
 * Adds the foreign keys recorded as dropped again and validates them (one set-based check of every row; neither reads
 * nor writes of others wait for it), then forgets them. A row that violates one fails the import (and the next one):
 * the constraint stays recorded, added NOT VALID (new rows are checked), until the row is repaired.
 *
 * With a second session (`beside`), all keys are added first (NOT VALID: no scan) and then validated in two lanes at
 * once, a table's keys in one lane: a validation locks its own table only against other validations and schema
 * changes (SHARE UPDATE EXCLUSIVE) and the referenced table against nothing but exclusive locks, so the keys of
 * products and those of offers, search rows and prices are checked side by side (the second core is idle then).
 */
export async function restoreImportConstraints(c: pg.PoolClient, beside?: pg.PoolClient) {
  const { rows } = await c.query<{ name: string; table_name: string; definition: string; state: string | null }>(
    `SELECT x.name, x.table_name, x.definition,
            (SELECT CASE WHEN k.convalidated THEN 'valid' ELSE 'added' END FROM pg_constraint k
              WHERE k.conname = x.name AND k.conrelid = to_regclass(x.table_name)) AS state
       FROM catalogue_import_constraints x ORDER BY x.table_name, x.name`,
  );
  for (const r of rows)
    if (!r.state)
      await c.query(`ALTER TABLE ${ident(r.table_name)} ADD CONSTRAINT ${ident(r.name)} ${r.definition} NOT VALID`);
  const validate = async (s: pg.PoolClient, list: typeof rows) => {
    for (const r of list) {
      if (r.state !== 'valid') await s.query(`ALTER TABLE ${ident(r.table_name)} VALIDATE CONSTRAINT ${ident(r.name)}`);
      await s.query('DELETE FROM catalogue_import_constraints WHERE name = $1', [r.name]);
    }
  };
  if (!beside) return validate(c, rows);
  // Lanes by table, the larger groups first, each to the lane with fewer keys so far.
  const byTable = new Map<string, typeof rows>();
  for (const r of rows) byTable.set(r.table_name, [...(byTable.get(r.table_name) ?? []), r]);
  const lanes: (typeof rows)[] = [[], []];
  for (const group of [...byTable.values()].sort((x, y) => y.length - x.length))
    (lanes[0].length <= lanes[1].length ? lanes[0] : lanes[1]).push(...group);
  // Both lanes end before this returns (or throws), so neither session is still at work afterwards.
  const done = await Promise.allSettled([validate(c, lanes[0]), validate(beside, lanes[1])]);
  for (const d of done) if (d.status === 'rejected') throw d.reason;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Builds the indexes `definitions` (default: every one recorded as dropped) and forgets them. */
export async function restoreImportIndexes(c: pg.PoolClient, definitions?: string[]) {
  const { rows } = await c.query<{ exists: boolean }>(
    `SELECT to_regclass('catalogue_load_indexes') IS NOT NULL AS exists`,
  );
  if (!rows[0].exists) return;
  const pending =
    definitions ??
    (await c.query<{ indexdef: string }>('SELECT indexdef FROM catalogue_load_indexes')).rows.map((r) => r.indexdef);
  await c.query(`SET maintenance_work_mem = '256MB'`);
  for (const definition of pending)
    await c.query(definition.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS '));
  await c.query('RESET maintenance_work_mem');
  await c.query('DELETE FROM catalogue_load_indexes WHERE indexdef = ANY($1)', [pending]);
}

/** Moves the supplier's products of the articles `pids` to the leaves `leafNos`; returns the products moved. */
export async function moveProductsToLeaves(
  c: pg.PoolClient,
  supplier: string,
  pids: string[],
  leafNos: number[],
): Promise<number[]> {
  const { rows: moved } = await c.query<{ id: number }>(
    `UPDATE products p SET leaf_no = t.leaf_no FROM unnest($2::text[], $3::int[]) AS t(pid, leaf_no), product_offers o
      WHERE o.supplier_bp_number = $1 AND o.supplier_pid = t.pid AND p.id = o.product_no AND p.leaf_no <> t.leaf_no
      RETURNING p.id`,
    [supplier, pids, leafNos],
  );
  return moved.map((r) => r.id);
}

/** The search rows of the products `ids` follow their products' leaf. */
export async function updateSearchLeaves(c: pg.PoolClient, ids: number[]) {
  await c.query(
    'UPDATE product_search s SET leaf_no = p.leaf_no FROM products p WHERE p.id = s.id AND s.id = ANY($1)',
    [ids],
  );
}

/** Accessories and spare parts arrive as the supplier's article numbers ('@bp~pid'); the catalogue keeps product ids. */
export async function resolveReferences(c: pg.PoolClient) {
  const resolve = (column: string) => `
    UPDATE products p SET ${column} = ARRAY(
      SELECT COALESCE(pp.product_id, r.ref) FROM unnest(p.${column}) WITH ORDINALITY AS r(ref, k)
        LEFT JOIN product_offers o ON r.ref LIKE '@%' AND o.product_instance_id = substr(r.ref, 2)
        LEFT JOIN products pp ON pp.id = o.product_no
       WHERE r.ref NOT LIKE '@%' OR pp.id IS NOT NULL ORDER BY r.k)
    WHERE EXISTS (SELECT 1 FROM unnest(p.${column}) AS x(ref) WHERE x.ref LIKE '@%')`;
  await c.query(resolve('accessories'));
  await c.query(resolve('spare_parts'));
  await c.query(resolve('successors'));
}

/** Every API instance drops its search caches within 2 s of the version bump ("search reflects an import without a restart"). */
export async function bumpCatalogueVersion(c: pg.PoolClient, options: { recount?: boolean } = {}) {
  if (options.recount === false) {
    // A merged batch: offers and prices changed, the search rows are published when the import ends (and counted then).
    await c.query('UPDATE catalogue_state SET version = version + 1');
    return;
  }
  await c.query(
    `UPDATE catalogue_state SET version = version + 1, products = (SELECT count(*) FROM product_search), loaded_at = COALESCE(loaded_at, now())`,
  );
}
