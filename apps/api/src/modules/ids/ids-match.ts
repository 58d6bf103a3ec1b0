import { IdsMatchResult, ProductOrderableStatus, type IdsCartItem } from '@shk/contracts';
import { type OfferSnapshot, CartsService } from '../carts/index.ts';
import type { IdsItemRow } from './ids.repo.ts';

type Result = (typeof IdsMatchResult)[keyof typeof IdsMatchResult];

export function quantityFits(quantity: number | null, minOrderQuantity: number): boolean {
  if (quantity == null || !(quantity > 0)) return false;
  try {
    CartsService.checkQuantity(quantity, minOrderQuantity);
    return true;
  } catch {
    return false;
  }
}

const orderable = (o: OfferSnapshot | undefined) => o?.orderableStatus === ProductOrderableStatus.Orderable;

/**
 * The spec's five states, computed from the stored match and today's offers and relations (a relation
 * approved meanwhile changes the state without re-import):
 *   matched offer orderable, quantity fits → Matched; quantity does not fit → QuantityNotMatched;
 *   no chosen offer, orderable offers exist → SupplierNotMatched;
 *   offers exist only at suppliers without an active relation → SupplierRelationshipNotMatched;
 *   nothing found (or unreadable) → NotMatched.
 */
export function matchResultOf(row: IdsItemRow, offers: Map<string, OfferSnapshot>): Result | null {
  if (row.is_deleted) return null;
  if (row.matched_product_instance_id) {
    const offer = offers.get(row.matched_product_instance_id);
    if (!offer) return IdsMatchResult.NotMatched;
    if (!orderable(offer)) return IdsMatchResult.SupplierRelationshipNotMatched;
    return quantityFits(row.matched_quantity == null ? null : Number(row.matched_quantity), offer.minOrderQuantity)
      ? IdsMatchResult.Matched
      : IdsMatchResult.QuantityNotMatched;
  }
  const candidates = row.candidate_instance_ids.map((id) => offers.get(id)).filter(Boolean) as OfferSnapshot[];
  if (!candidates.length) return IdsMatchResult.NotMatched;
  if (candidates.some(orderable)) return IdsMatchResult.SupplierNotMatched;
  return IdsMatchResult.SupplierRelationshipNotMatched;
}

/** The one orderable offer of a position, chosen without asking; null when there is none or a choice. */
export function autoMatch(candidates: string[], offers: Map<string, OfferSnapshot>): OfferSnapshot | null {
  const usable = candidates.map((id) => offers.get(id)).filter(orderable) as OfferSnapshot[];
  return usable.length === 1 ? usable[0] : null;
}

export function itemView(row: IdsItemRow, offers: Map<string, OfferSnapshot>): IdsCartItem {
  const relations = row.candidate_instance_ids
    .map((id) => offers.get(id))
    .filter((o): o is OfferSnapshot => Boolean(o))
    .map((o) => ({
      supplierBpNumber: o.supplierBpNumber,
      supplierName: o.supplierName,
      productInstanceId: o.productInstanceId,
      articleNumber: o.articleNumber,
      minOrderQuantity: o.minOrderQuantity,
      orderable: orderable(o),
    }));
  return {
    id: Number(row.id),
    positionNo: row.position_no,
    isDeleted: row.is_deleted,
    matchResult: matchResultOf(row, offers),
    matchedProductInstanceId: row.matched_product_instance_id,
    matchedSupplierBpNumber: row.matched_supplier_bp_number,
    matchedArticleNumber: row.matched_article_number,
    matchedQuantity: row.matched_quantity == null ? null : Number(row.matched_quantity),
    shortName: row.short_name,
    articleNumber: row.article_number,
    gtin: row.gtin,
    manufacturerId: row.manufacturer_id,
    manufacturerPid: row.manufacturer_pid,
    quantity: row.quantity == null ? null : Number(row.quantity),
    unit: row.unit,
    rawText: row.raw_text,
    supplierRelations: relations,
  };
}
