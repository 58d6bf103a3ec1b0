/**
 * SQL of the catalogue's reference data an import resolves against (reference-data.ts): the rows it caches per run and
 * the entries it creates for ids the catalogue does not know yet.
 */
import type pg from 'pg';
import type { Queryable } from '../../db/queryable.ts';

/** The reference rows of one import run, in the order `ReferenceData.load` reads them (one session, one after another). */
export async function loadReferenceRows(c: Queryable, supplier: string): Promise<pg.QueryResult[]> {
  const statements: [string, unknown[]][] = [
    ['SELECT manufacturer_id, name FROM manufacturers', []],
    ['SELECT brand_no, name FROM brands', []],
    ['SELECT class_no, class_id, description FROM etim_classes', []],
    ['SELECT class_no, slot, feature_no FROM etim_class_features', []],
    ['SELECT feature_no, feature_id, kind FROM etim_features', []],
    ['SELECT value_no, value_id, description FROM etim_values', []],
    ['SELECT node_no, element_id, name, type FROM product_tree', []],
    // the leaf that holds most products of a class (the generated catalogue: exactly one)
    [
      `SELECT DISTINCT ON (class_no) class_no, leaf_no FROM (
         SELECT class_no, leaf_no, count(*) AS n FROM products WHERE class_no IS NOT NULL GROUP BY 1, 2) x
       ORDER BY class_no, n DESC`,
      [],
    ],
    [
      `SELECT g.group_id, g.leaf_no FROM supplier_catalogue_groups g JOIN product_tree t ON t.node_no = g.leaf_no
        WHERE g.supplier_bp_number = $1`,
      [supplier],
    ],
    ['SELECT organisation_type FROM business_partners WHERE bp_number = $1', [supplier]],
  ];
  const results: pg.QueryResult[] = [];
  for (const [text, params] of statements) results.push(await c.query(text, params));
  return results;
}

/**
 * An insert that numbers its row max + 1 (the catalogue's numbers are dense and the seed loader sets them itself, so no
 * sequence). Two imports that take the same number at once: the second waits for the first's commit on the primary
 * key and fails; run again, it sees the first's row and takes the next. Runs outside a transaction (the import's
 * reference session is autocommit), so the failed attempt leaves nothing behind.
 */
async function insertNextNumbered<R extends pg.QueryResultRow>(
  c: Queryable,
  text: string,
  params: unknown[],
): Promise<pg.QueryResult<R>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await c.query<R>(text, params);
    } catch (error) {
      const e = error as { code?: string; constraint?: string };
      if (e.code !== '23505' || !e.constraint?.endsWith('_pkey') || attempt >= 10) throw error;
    }
  }
}

/** The supplier's catalogue number (catalogue_supplier_numbers), created on its first import. */
export async function ensureSupplierNo(c: Queryable, supplier: string): Promise<number> {
  await insertNextNumbered(
    c,
    `INSERT INTO catalogue_supplier_numbers (supplier_no, bp_number)
     SELECT COALESCE(max(supplier_no), 0) + 1, $1 FROM catalogue_supplier_numbers
     HAVING NOT COALESCE(bool_or(bp_number = $1), false)`,
    [supplier],
  );
  return (await c.query('SELECT supplier_no FROM catalogue_supplier_numbers WHERE bp_number = $1', [supplier])).rows[0]
    .supplier_no;
}

/** Names a class, feature or value an earlier import created with its code as name; returns the rows renamed. */
export async function renameByCode(c: Queryable, kind: 'class' | 'feature' | 'value', id: string, name: string) {
  const [table, key] =
    kind === 'class'
      ? ['etim_classes', 'class_id']
      : kind === 'feature'
        ? ['etim_features', 'feature_id']
        : ['etim_values', 'value_id'];
  return (
    (await c.query(`UPDATE ${table} SET description = $2 WHERE ${key} = $1 AND description = ${key}`, [id, name]))
      .rowCount ?? 0
  );
}

export async function upsertSupplierGroup(
  c: Queryable,
  supplier: string,
  id: string,
  name: string,
  parentId: string | null,
  leaf: number | null,
) {
  await c.query(
    `INSERT INTO supplier_catalogue_groups (supplier_bp_number, group_id, name, parent_id, leaf_no) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (supplier_bp_number, group_id) DO UPDATE SET name = EXCLUDED.name, parent_id = EXCLUDED.parent_id, leaf_no = EXCLUDED.leaf_no`,
    [supplier, id, name, parentId, leaf],
  );
}

export async function insertManufacturer(c: Queryable, id: string, name: string) {
  await c.query('INSERT INTO manufacturers (manufacturer_id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING', [id, name]);
}

export async function insertBrand(c: Queryable, name: string, manufacturerId: string): Promise<number> {
  const { rows } = await insertNextNumbered(
    c,
    `INSERT INTO brands (brand_no, name, manufacturer_id) SELECT COALESCE(max(brand_no), 0) + 1, $1, $2 FROM brands
     ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING brand_no`,
    [name, manufacturerId],
  );
  return rows[0].brand_no;
}

export async function insertEtimClass(
  c: Queryable,
  classId: string,
  description: string,
): Promise<{ class_no: number; description: string }> {
  const { rows } = await insertNextNumbered<{ class_no: number; description: string }>(
    c,
    `INSERT INTO etim_classes (class_no, class_id, description) SELECT COALESCE(max(class_no), 0) + 1, $1, $2 FROM etim_classes
     ON CONFLICT (class_id) DO UPDATE SET class_id = EXCLUDED.class_id RETURNING class_no, description`,
    [classId, description],
  );
  return rows[0];
}

export async function insertEtimFeature(
  c: Queryable,
  featureId: string,
  kind: 'N' | 'A',
  unit: string | null,
  description: string,
): Promise<{ feature_no: number; kind: 'N' | 'A' }> {
  const { rows } = await insertNextNumbered<{ feature_no: number; kind: 'N' | 'A' }>(
    c,
    `INSERT INTO etim_features (feature_no, feature_id, description, kind, unit_code)
     SELECT COALESCE(max(feature_no), 0) + 1, $1, $4, $2, $3 FROM etim_features
     ON CONFLICT (feature_id) DO UPDATE SET feature_id = EXCLUDED.feature_id RETURNING feature_no, kind`,
    [featureId, kind, unit, description],
  );
  return rows[0];
}

export async function insertClassFeature(c: Queryable, classNo: number, slot: number, featureNo: number) {
  await c.query(
    'INSERT INTO etim_class_features (class_no, slot, feature_no) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [classNo, slot, featureNo],
  );
}

export async function insertEtimValue(
  c: Queryable,
  valueId: string,
  text: string,
): Promise<{ value_no: number; description: string }> {
  const { rows } = await insertNextNumbered<{ value_no: number; description: string }>(
    c,
    `INSERT INTO etim_values (value_no, value_id, description) SELECT COALESCE(max(value_no), 0) + 1, $1, $2 FROM etim_values
     ON CONFLICT (value_id) DO UPDATE SET value_id = EXCLUDED.value_id RETURNING value_no, description`,
    [valueId, text],
  );
  return rows[0];
}

/** The tree leaf `elementId` ("Weitere Artikel") under the root, created once; returns its node number. */
export async function ensureFallbackLeaf(c: Queryable, elementId: string): Promise<number> {
  const { rows } = await insertNextNumbered(
    c,
    `INSERT INTO product_tree (node_no, element_id, parent_no, type, name, sort)
     SELECT COALESCE(max(node_no), 0) + 1, $1, (SELECT node_no FROM product_tree WHERE parent_no IS NULL ORDER BY node_no LIMIT 1),
            'leaf', 'Weitere Artikel', 999 FROM product_tree
     ON CONFLICT (element_id) DO UPDATE SET name = product_tree.name RETURNING node_no`,
    [elementId],
  );
  return rows[0].node_no as number;
}
