import { ProductOrderableStatus, RelationStatus } from '@shk/contracts';
import type { Db } from '../../db/pool.ts';
import { findRelationStates } from './relations.repo.ts';

/**
 * The one orderability rule (search hits, product detail and carts all use it):
 * no relation → RelationMissing; relation not approved or not active → RelationNotActive;
 * approved and active → Orderable. Unit problems (UnitNotSupported) are decided by the caller
 * that knows the offer's unit, on top of this.
 */
export function orderabilityOf(
  relation: { relationStatusId: number; isActive: boolean } | undefined,
): ProductOrderableStatus {
  if (!relation) return ProductOrderableStatus.RelationMissing;
  if (relation.relationStatusId !== RelationStatus.Approved || !relation.isActive)
    return ProductOrderableStatus.RelationNotActive;
  return ProductOrderableStatus.Orderable;
}

/** Orderability per supplier for one buyer partner (null partner: nothing is orderable). */
export async function orderabilityBySupplier(
  db: Pick<Db, '$client'> | { $client: { query: Db['$client']['query'] } },
  buyerBpNumber: string | null,
  supplierBpNumbers: string[],
): Promise<Map<string, ProductOrderableStatus>> {
  const result = new Map<string, ProductOrderableStatus>();
  if (!supplierBpNumbers.length) return result;
  const relations = new Map<string, { relationStatusId: number; isActive: boolean }>();
  if (buyerBpNumber) {
    const rows = await findRelationStates(db.$client, buyerBpNumber, supplierBpNumbers);
    for (const r of rows)
      relations.set(r.supplier_bp_number, { relationStatusId: r.relation_status_id, isActive: r.is_active });
  }
  for (const s of supplierBpNumbers) result.set(s, orderabilityOf(relations.get(s)));
  return result;
}
