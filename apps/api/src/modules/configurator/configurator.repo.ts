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
