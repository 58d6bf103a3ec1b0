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
import { normaliseCode } from '../catalogue/search/fold.ts';
import { findCart } from './carts.repo.ts';
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
    const { rows } = await this.db.$client.query<{
      code: string;
      product_instance_id: string;
      gtin: string | null;
      quantity_interval: string | null;
    }>(
      `WITH q(code) AS (SELECT unnest($1::text[])),
            hits(code, product_no, instance) AS (
              SELECT q.code, p.id, NULL::text FROM q JOIN products p ON p.gtin = q.code
              UNION SELECT q.code, p.id, NULL FROM q JOIN products p ON p.manufacturer_pid_norm = q.code
              UNION SELECT q.code, p.id, NULL FROM q JOIN products p ON p.article_number_catalogue_norm = q.code
              UNION SELECT q.code, o.product_no, o.product_instance_id FROM q JOIN product_offers o ON o.supplier_pid_norm = q.code)
       SELECT DISTINCT h.code, o.product_instance_id, p.gtin, o.quantity_interval
         FROM hits h JOIN products p ON p.id = h.product_no
         JOIN product_offers o ON o.product_no = h.product_no AND (h.instance IS NULL OR o.product_instance_id = h.instance)`,
      [codes],
    );
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
        candidates: orderable.map((m) => candidate(snapshots.get(m.productInstanceId)!, m)),
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
      await c.query('SELECT id FROM carts WHERE id = $1 FOR UPDATE', [cartId]);
      await c.query(
        `UPDATE cart_items i SET quantity = i.quantity + t.quantity, updated_at = now()
           FROM unnest($2::text[], $3::numeric[]) AS t(iid, quantity)
          WHERE i.cart_id = $1 AND i.product_instance_id = t.iid`,
        [cartId, ids, ids.map((id) => quantities.get(id))],
      );
      await c.query(
        `INSERT INTO cart_items (cart_id, product_instance_id, supplier_bp_number, article_number, quantity)
         SELECT $1, t.iid, t.supplier, t.article, t.quantity FROM unnest($2::text[], $3::text[], $4::text[], $5::numeric[]) AS t(iid, supplier, article, quantity)
          WHERE NOT EXISTS (SELECT 1 FROM cart_items i WHERE i.cart_id = $1 AND i.product_instance_id = t.iid)`,
        [
          cartId,
          ids,
          ids.map((id) => articleNumbers.get(id)!.supplierBusinessPartnerNo),
          ids.map((id) => articleNumbers.get(id)!.articleNumber),
          ids.map((id) => quantities.get(id)),
        ],
      );
      await c.query('UPDATE carts SET updated_at = now() WHERE id = $1', [cartId]);
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
