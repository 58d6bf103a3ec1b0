import type { Db } from '../../db/pool.ts';

type Client = Db['$client'];

/** Name of a business partner, null when unknown. */
export async function partnerName(db: Client, bpNumber: string): Promise<string | null> {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM business_partners WHERE bp_number = $1', [
    bpNumber,
  ]);
  return rows[0]?.name ?? null;
}

/** The relation between a buyer partner and a supplier, if any. */
export async function relationOf(
  db: Client,
  buyerBpNumber: string,
  supplierBpNumber: string,
): Promise<{ relationStatusId: number; isActive: boolean } | null> {
  const { rows } = await db.query<{ relation_status_id: number; is_active: boolean }>(
    'SELECT relation_status_id, is_active FROM supplier_customers WHERE buyer_bp_number = $1 AND supplier_bp_number = $2',
    [buyerBpNumber, supplierBpNumber],
  );
  return rows[0] ? { relationStatusId: rows[0].relation_status_id, isActive: rows[0].is_active } : null;
}
