/**
 * Quick order (Schnellerfassung): resolves article numbers / GTINs to offers the buyer may order,
 * previews every line (added, ambiguous, not found, not orderable, quantity adjusted) and, once
 * confirmed, adds all resolvable lines to the cart in one transaction.
 */
import {
  ProductOrderableStatus,
  QUICK_ORDER_MAX_LINES,
  cartMessages,
  quickOrderMessages,
  type QuickOrderLineResult,
  type QuickOrderResponse,
} from '@shk/contracts';
import type { Db } from '../../db/pool.ts';
import { inTransaction } from '../../db/pool.ts';
import { badRequest, notFound } from '../../http/problem.ts';
import { normaliseCode } from '../catalogue/index.ts';
import { addQuantities, findCart, matchArticleCodes } from './carts.repo.ts';
import type { OfferCatalog, OfferSnapshot } from './offer-catalog.ts';
import type { ParsedLine } from './quick-order.parse.ts';

export interface QuickOrderLine extends ParsedLine {
  productInstanceId?: string | null;
}

interface Match {
  code: string;
  productInstanceId: string;
  gtin: string | null;
  interval: number | null;
}

export class QuickOrderService {
  constructor(
    private readonly db: Db,
    private readonly offers: OfferCatalog,
  ) {}

  async run(bp: string, cartId: number, lines: QuickOrderLine[], confirm: boolean): Promise<QuickOrderResponse> {
    const cart = await findCart(this.db.$client, bp, cartId);
    if (!cart) throw notFound(cartMessages.cartNotFound);
    if (!lines.length) throw badRequest(quickOrderMessages.noLines);
    if (lines.length > QUICK_ORDER_MAX_LINES) throw badRequest(quickOrderMessages.tooManyLines(QUICK_ORDER_MAX_LINES));
    const results = await this.preview(bp, lines);
    if (!confirm) return { confirmed: false, addedCount: 0, lines: results };
    const addable = results.filter(
      (r) => (r.status === 'Added' || r.status === 'QuantityAdjusted') && r.productInstanceId,
    );
    await this.addAll(cart.id, addable);
    return { confirmed: true, addedCount: addable.length, lines: results };
  }

  private async preview(bp: string, lines: QuickOrderLine[]): Promise<QuickOrderLineResult[]> {
    const codes = [
      ...new Set(
        lines
          .filter((l) => !l.error)
          .map((l) => normaliseCode(l.articleNumber))
          .filter(Boolean),
      ),
    ];
    // One statement for all lines: supplier article number, GTIN, manufacturer and catalogue article number.
    const rows = await matchArticleCodes(this.db.$client, codes);
    const byCode = new Map<string, Match[]>();
    for (const r of rows) {
      const list = byCode.get(r.code) ?? [];
      list.push({
        code: r.code,
        productInstanceId: r.product_instance_id,
        gtin: r.gtin,
        interval: r.quantity_interval === null ? null : Number(r.quantity_interval),
      });
      byCode.set(r.code, list);
    }
    const snapshots = await this.offers.findOffers(bp, [...new Set(rows.map((r) => r.product_instance_id))]);
    return lines.map((l) => this.resolveLine(l, byCode.get(normaliseCode(l.articleNumber)) ?? [], snapshots));
  }

  private resolveLine(
    l: QuickOrderLine,
    matches: Match[],
    snapshots: Map<string, OfferSnapshot>,
  ): QuickOrderLineResult {
    const base = {
      line: l.line,
      input: l.input,
      articleNumber: l.articleNumber,
      requestedQuantity: l.quantity,
      quantity: null,
      productInstanceId: null,
    };
    if (l.error) return { ...base, status: 'Invalid', message: l.error, candidates: [] };
    let found = matches.filter((m) => snapshots.has(m.productInstanceId));
    if (l.supplier) found = found.filter((m) => snapshots.get(m.productInstanceId)!.supplierBpNumber === l.supplier);
    if (l.productInstanceId) found = found.filter((m) => m.productInstanceId === l.productInstanceId);
    const candidates = found.map((m) => candidate(snapshots.get(m.productInstanceId)!, m));
    if (!found.length) return { ...base, status: 'NotFound', message: null, candidates: [] };
    const orderable = found.filter(
      (m) => snapshots.get(m.productInstanceId)!.orderableStatus === ProductOrderableStatus.Orderable,
    );
    if (!orderable.length) {
      const status = snapshots.get(found[0].productInstanceId)!.orderableStatus;
      const noRelation =
        status === ProductOrderableStatus.RelationMissing || status === ProductOrderableStatus.RelationNotActive;
      return {
        ...base,
        status: 'NotOrderable',
        message: noRelation ? quickOrderMessages.noRelation : quickOrderMessages.notOrderable,
        candidates,
      };
    }
    if (orderable.length > 1) {
      return {
        ...base,
        status: 'Ambiguous',
        message: null,
        candidates: cheapestFirst(orderable.map((m) => candidate(snapshots.get(m.productInstanceId)!, m))),
      };
    }
    const match = orderable[0];
    const offer = snapshots.get(match.productInstanceId)!;
    const quantity = adjustQuantity(l.quantity!, offer.minOrderQuantity, match.interval);
    const adjusted = quantity !== l.quantity;
    return {
      ...base,
      quantity,
      productInstanceId: match.productInstanceId,
      status: adjusted ? 'QuantityAdjusted' : 'Added',
      message: adjusted ? quickOrderMessages.quantityAdjusted(quantity.toLocaleString('de-DE')) : null,
      candidates: [candidate(offer, match)],
    };
  }

  /** All lines in one transaction: an article already in the cart gets the quantity added. */
  private async addAll(cartId: number, lines: QuickOrderLineResult[]) {
    if (!lines.length) return;
    const quantities = new Map<string, number>();
    for (const l of lines)
      quantities.set(l.productInstanceId!, (quantities.get(l.productInstanceId!) ?? 0) + l.quantity!);
    const ids = [...quantities.keys()];
    const articleNumbers = new Map(lines.map((l) => [l.productInstanceId!, l.candidates[0]]));
    await inTransaction(this.db, async (tx) => {
      const c = tx.$client;
      await addQuantities(c, cartId, {
        productInstanceIds: ids,
        supplierBpNumbers: ids.map((id) => articleNumbers.get(id)!.supplierBusinessPartnerNo),
        articleNumbers: ids.map((id) => articleNumbers.get(id)!.articleNumber),
        quantities: ids.map((id) => quantities.get(id)!),
      });
    });
  }
}

/** Raised to the minimum order quantity, then to the next step of the order interval above it. */
export function adjustQuantity(quantity: number, min: number, interval: number | null): number {
  let q = Math.max(quantity, min);
  if (interval && interval > 0) q = min + Math.ceil(round3((q - min) / interval)) * interval;
  return round3(q);
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** Price of one unit (the price is per `priceBasis` units); price on request sorts last. */
const pricePerUnit = (c: { unitPrice: number | null; priceBasis: number }) =>
  c.unitPrice === null ? Number.POSITIVE_INFINITY : c.unitPrice / (c.priceBasis || 1);

/** The offers of an ambiguous line, the cheapest first, so the buyer compares them at a glance. */
function cheapestFirst<T extends { unitPrice: number | null; priceBasis: number; productInstanceId: string }>(
  candidates: T[],
): T[] {
  return [...candidates].sort(
    (a, b) => pricePerUnit(a) - pricePerUnit(b) || a.productInstanceId.localeCompare(b.productInstanceId),
  );
}

function candidate(o: OfferSnapshot, m: Match) {
  return {
    productInstanceId: o.productInstanceId,
    supplierBusinessPartnerNo: o.supplierBpNumber,
    supplierName: o.supplierName,
    articleNumber: o.articleNumber,
    gtin: m.gtin,
    productName: o.productName,
    unitPrice: o.unitPrice,
    priceBasis: o.priceBasis,
    unit: o.unit,
    minOrderQuantity: o.minOrderQuantity,
    quantityInterval: m.interval,
    orderableStatus: o.orderableStatus,
  };
}
