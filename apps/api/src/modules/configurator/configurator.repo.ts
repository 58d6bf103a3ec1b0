import type { Db } from '../../db/pool.ts';

type Client = Db['$client'];

/** The supplier's name and, for a buyer partner, its relation to the supplier: the slide's reads in one statement. */
export async function slideFacts(
  db: Client,
  buyerBpNumber: string | null,
  supplierBpNumber: string,
): Promise<{ supplierName: string | null; relation: { relationStatusId: number; isActive: boolean } | null }> {
  const { rows } = await db.query<{
    name: string | null;
    relation_status_id: number | null;
    is_active: boolean | null;
  }>(
    `SELECT (SELECT name FROM business_partners WHERE bp_number = $2) AS name, r.relation_status_id, r.is_active
       FROM (SELECT 1) one
       LEFT JOIN supplier_customers r ON r.buyer_bp_number = $1 AND r.supplier_bp_number = $2`,
    [buyerBpNumber, supplierBpNumber],
  );
  const row = rows[0];
  return {
    supplierName: row?.name ?? null,
    relation:
      row?.relation_status_id != null ? { relationStatusId: row.relation_status_id, isActive: !!row.is_active } : null,
  };
}

/**
 * Everything the home slide reads, in one statement: the first value valid today of each setting (as
 * settings.repo's findFirstValuesValidToday reads it), the supplier's name and the buyer partner's relation to it,
 * joined on the supplier setting trimmed by Postgres (`supplier`; the caller compares it with its own trim).
 */
export async function slideRead(
  db: Client,
  keys: string[],
  supplierKey: string,
  buyerBpNumber: string | null,
): Promise<{
  values: Map<string, string | null>;
  supplier: string | null;
  supplierName: string | null;
  relation: { relationStatusId: number; isActive: boolean } | null;
}> {
  const { rows } = await db.query<{
    settings: Record<string, string | null> | null;
    supplier: string | null;
    name: string | null;
    relation_status_id: number | null;
    is_active: boolean | null;
  }>(
    `WITH v AS (
       SELECT p.key,
              (SELECT v.value FROM custom_parameter_values v
                WHERE v.key = p.key AND v.value IS NOT NULL
                  AND (v.valid_from IS NULL OR v.valid_from <= (now() AT TIME ZONE 'Europe/Berlin')::date)
                  AND (v.valid_to IS NULL OR v.valid_to >= (now() AT TIME ZONE 'Europe/Berlin')::date)
                ORDER BY v.id LIMIT 1) AS value
         FROM custom_parameters p WHERE p.key = ANY($1::text[])
     ), s AS (SELECT btrim((SELECT value FROM v WHERE key = $2)) AS supplier)
     SELECT (SELECT json_object_agg(key, value) FROM v) AS settings, s.supplier,
            (SELECT name FROM business_partners WHERE bp_number = s.supplier) AS name, r.relation_status_id, r.is_active
       FROM s LEFT JOIN supplier_customers r ON r.buyer_bp_number = $3 AND r.supplier_bp_number = s.supplier`,
    [keys, supplierKey, buyerBpNumber],
  );
  const row = rows[0];
  return {
    values: new Map(Object.entries(row?.settings ?? {})),
    supplier: row?.supplier ?? null,
    supplierName: row?.name ?? null,
    relation:
      row?.relation_status_id != null ? { relationStatusId: row.relation_status_id, isActive: !!row.is_active } : null,
  };
}
