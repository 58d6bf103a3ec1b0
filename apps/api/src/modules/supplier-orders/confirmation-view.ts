import { round2, type ConfirmationLineValues, type ItemsConfirmation } from '@shk/contracts';
import { priceTotal } from '../catalogue/index.ts';

/** An order line row with the confirmation columns of migration 0030. */
export interface ConfirmableLineRow {
  line_no: number;
  article_number: string;
  name: string;
  quantity: string | number;
  unit_price: string | number | null;
  delivery_date: string | null;
  confirmation_kind: 'confirmed' | 'changed' | 'replaced' | 'removed' | 'added' | null;
  confirmed_quantity: string | number | null;
  confirmed_unit_price: string | number | null;
  confirmed_delivery_date: string | null;
  confirmed_article_number: string | null;
  confirmed_name: string | null;
}

const num = (v: string | number | null) => (v == null ? null : Number(v));

export function orderedValues(l: ConfirmableLineRow): ConfirmationLineValues {
  return {
    lineNo: l.line_no,
    articleNumber: l.article_number,
    name: l.name,
    quantity: Number(l.quantity),
    unitPrice: num(l.unit_price),
    deliveryDate: l.delivery_date,
  };
}

export function confirmedValues(l: ConfirmableLineRow): ConfirmationLineValues {
  return {
    lineNo: l.line_no,
    articleNumber: l.confirmed_article_number ?? l.article_number,
    name: l.confirmed_name ?? l.name,
    quantity: Number(l.confirmed_quantity ?? l.quantity),
    unitPrice: l.confirmed_unit_price == null ? num(l.unit_price) : Number(l.confirmed_unit_price),
    deliveryDate: l.confirmed_delivery_date ?? l.delivery_date,
  };
}

/** The spec's itemsConfirmation lists, derived from the stored per-line confirmation (null before one). */
export function itemsConfirmationOf(lines: ConfirmableLineRow[]): ItemsConfirmation | null {
  if (!lines.some((l) => l.confirmation_kind)) return null;
  const result: ItemsConfirmation = {
    added: [],
    orderedAndConfirmed: [],
    orderedAndChanged: [],
    orderedAndReplaced: [],
    removed: [],
  };
  for (const l of lines) {
    const pair = { ordered: orderedValues(l), confirmed: confirmedValues(l) };
    if (l.confirmation_kind === 'added') result.added.push(pair.confirmed);
    else if (l.confirmation_kind === 'removed') result.removed.push(pair.ordered);
    else if (l.confirmation_kind === 'changed') result.orderedAndChanged.push(pair);
    else if (l.confirmation_kind === 'replaced') result.orderedAndReplaced.push(pair);
    else if (l.confirmation_kind === 'confirmed') result.orderedAndConfirmed.push(pair);
  }
  return result;
}

export function lineConfirmationOf(l: ConfirmableLineRow) {
  if (!l.confirmation_kind) return null;
  const c = confirmedValues(l);
  return {
    kind: l.confirmation_kind,
    quantity: l.confirmation_kind === 'removed' ? 0 : c.quantity,
    unitPrice: c.unitPrice,
    deliveryDate: c.deliveryDate,
    articleNumber: l.confirmation_kind === 'replaced' ? c.articleNumber : null,
    name: l.confirmation_kind === 'replaced' ? c.name : null,
  };
}

/**
 * Net value of the confirmed lines with the spec's price total (price ÷ basis × minimum quantity × quantity, the
 * rule the ordered total was computed with), removed lines excluded. Lines without a price (price on request)
 * count 0, like in the ordered total. An unchanged confirmation therefore equals the ordered total.
 */
export function confirmedTotalOf(
  lines: (ConfirmableLineRow & { price_basis: string | number; min_quantity: string | number })[],
): number {
  let total = 0;
  for (const l of lines) {
    if (l.confirmation_kind === 'removed') continue;
    const c = confirmedValues(l);
    if (c.unitPrice == null) continue;
    total = round2(total + priceTotal(c.unitPrice, Number(l.price_basis), Number(l.min_quantity), c.quantity));
  }
  return total;
}
