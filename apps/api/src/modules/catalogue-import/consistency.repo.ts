/**
 * SQL of the consistency check (consistency.ts): do a supplier's offers, the search rows and the supplier facet
 * (the search rows' supplier numbers) agree, and the documents of products to be made searchable again.
 */
import type pg from 'pg';
import type { Queryable } from '../../db/queryable.ts';

/** The supplier's number in the search rows' supplier arrays (null: never imported, nothing to check). */
export async function supplierNoOf(c: Queryable, supplier: string): Promise<number | null> {
  const { rows } = await c.query<{ supplier_no: number }>(
    'SELECT supplier_no FROM catalogue_supplier_numbers WHERE bp_number = $1',
    [supplier],
  );
  return rows[0]?.supplier_no ?? null;
}

/**
 * Products with an offer of the supplier whose search row is missing (`missing`) or does not name the supplier
 * (the facet does not count them), and search rows that name the supplier without an offer of it (the facet counts
 * them): one pass over the supplier's offers and one over the search rows of its number (GIN index).
 */
export async function disagreements(
  c: Queryable,
  supplier: string,
  supplierNo: number,
): Promise<{ missing: number[]; stale: number[] }> {
  const { rows } = await c.query<{ id: number; missing: boolean }>(
    `SELECT o.product_no AS id, s.id IS NULL AS missing
       FROM (SELECT DISTINCT product_no FROM product_offers WHERE supplier_bp_number = $1) o
       LEFT JOIN product_search s ON s.id = o.product_no
      WHERE s.id IS NULL OR NOT s.supplier_nos @> ARRAY[$2::int]
     UNION ALL
     SELECT s.id, false FROM product_search s
      WHERE s.supplier_nos @> ARRAY[$2::int]
        AND NOT EXISTS (SELECT 1 FROM product_offers o WHERE o.product_no = s.id AND o.supplier_bp_number = $1)`,
    [supplier, supplierNo],
  );
  return {
    missing: rows.filter((r) => r.missing).map((r) => r.id),
    stale: rows.filter((r) => !r.missing).map((r) => r.id),
  };
}

/** How long a clean check counts when the catalogue has not changed since (a fix by hand raises no version). */
const UNCHANGED_RECHECK = '24 hours';

/** The supplier was checked at the current catalogue version within UNCHANGED_RECHECK (by any process). */
const CHECKED_SINCE_LAST_CHANGE = `EXISTS (SELECT 1 FROM catalogue_consistency_checks k
          WHERE k.bp_number = n.bp_number AND k.catalogue_version = (SELECT version FROM catalogue_state)
            AND k.checked_at > now() - interval '${UNCHANGED_RECHECK}')`;

/**
 * Suppliers with offers or a supplier number, no import pending or running (those are checked when it ends), and
 * not checked since the catalogue last changed.
 */
export async function suppliersToCheck(c: Queryable): Promise<string[]> {
  const { rows } = await c.query<{ bp_number: string }>(
    `SELECT n.bp_number FROM catalogue_supplier_numbers n
      WHERE NOT EXISTS (SELECT 1 FROM catalogue_imports i
                         WHERE i.supplier_bp_number = n.bp_number AND i.status IN ('Pending', 'InProgress'))
        AND NOT ${CHECKED_SINCE_LAST_CHANGE}
      ORDER BY n.bp_number`,
  );
  return rows.map((r) => r.bp_number);
}

/** Whether another process checked the supplier since the catalogue last changed (asked under the supplier's lock). */
export async function checkedSinceLastChange(c: Queryable, supplier: string): Promise<boolean> {
  const { rows } = await c.query<{ done: boolean }>(
    `SELECT ${CHECKED_SINCE_LAST_CHANGE} AS done FROM (SELECT $1::text AS bp_number) n`,
    [supplier],
  );
  return rows[0].done;
}

/** Records a finished check (after its repairs, which raise the version) with the catalogue version it leaves. */
export async function recordChecked(c: Queryable, supplier: string): Promise<void> {
  await c.query(
    `INSERT INTO catalogue_consistency_checks (bp_number, catalogue_version, checked_at)
     SELECT $1, version, now() FROM catalogue_state
     ON CONFLICT (bp_number) DO UPDATE SET catalogue_version = EXCLUDED.catalogue_version, checked_at = now()`,
    [supplier],
  );
}

export interface ProductDocumentRow {
  id: number;
  product_id: string;
  product_name: string;
  model_number: string | null;
  brand: string;
  series: string | null;
  class_name: string | null;
  leaf_name: string | null;
  product_type: string | null;
  product_descr: string | null;
  values: string[];
}

/** What the search document of each product is built from (as the import builds it; keywords are not stored). */
export async function productDocumentRows(c: Queryable, ids: number[]): Promise<ProductDocumentRow[]> {
  const { rows } = await c.query<ProductDocumentRow>(
    `SELECT p.id, p.product_id, p.product_name, p.model_number, b.name AS brand, p.series, k.description AS class_name,
            t.name AS leaf_name, p.product_type, p.product_descr,
            ARRAY(SELECT v.description FROM etim_class_features cf
                    JOIN etim_features f ON f.feature_no = cf.feature_no AND f.kind = 'A'
                    JOIN etim_values v ON v.value_no = p.feature_values[cf.slot]::int
                   WHERE cf.class_no = p.class_no ORDER BY cf.slot) AS values
       FROM products p JOIN brands b ON b.brand_no = p.brand_no
       LEFT JOIN etim_classes k ON k.class_no = p.class_no
       LEFT JOIN product_tree t ON t.node_no = p.leaf_no
      WHERE p.id = ANY($1::int[])`,
    [ids],
  );
  return rows;
}

/** Search vectors staged under `stageId` by an earlier check that did not finish. */
export async function clearStagedRepair(c: pg.PoolClient, stageId: number) {
  await c.query('DELETE FROM catalogue_import_search WHERE import_id = $1', [stageId]);
}

/** The check's stage id in catalogue_import_search: negative (import ids are positive), unique per live session. */
export async function repairStageId(c: pg.PoolClient): Promise<number> {
  const { rows } = await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return -rows[0].pid;
}
