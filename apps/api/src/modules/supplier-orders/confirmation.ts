import {
  CommunicationProtocol,
  SupplierOrderStatus,
  supplierConfirmationMail,
  supplierOrderMessages as M,
  type ConfirmationBody,
  type ConfirmationMailKind,
} from '@shk/contracts';
import type { AppDeps } from '../../http/types.ts';
import { wantsMail } from '../profile/index.ts';
import { HttpProblem } from '../../http/problem.ts';
import { changeSupplierOrderStatus } from '../transmission/index.ts';
import { priceTotal } from '../catalogue/index.ts';
import { confirmedTotalOf, confirmedValues, orderedValues } from './confirmation-view.ts';
import type { Queryable } from '../../db/queryable.ts';
import * as repo from './supplier-orders.repo.ts';

const bad = (title: string) => new HttpProblem(400, title);

/** The confirmed line value with the rule the ordered one was computed with; null without a price. */
const lineValue = (unitPrice: number | null, l: { price_basis: string; min_quantity: string }, quantity: number) =>
  unitPrice == null ? null : priceTotal(unitPrice, Number(l.price_basis), Number(l.min_quantity), quantity);

export type ConfirmationSource = 'portal' | 'ordrsp';

/**
 * Applies a supplier's confirmation to a locked order inside the caller's transaction: per-line
 * confirmed values, added lines, confirmed total, status (via the one status function, which also
 * re-derives the customer order). Throws a 400 problem before writing anything when a rule fails,
 * so nothing is ever half-applied.
 */
export async function applyConfirmation(
  client: Queryable,
  order: repo.LockedOrder,
  statusId: number,
  body: ConfirmationBody,
  source: ConfirmationSource,
) {
  if (statusId !== SupplierOrderStatus.Confirmed && statusId !== SupplierOrderStatus.ConfirmedWithChanges)
    throw bad(M.invalidConfirmationStatus);
  // Suppliers with an electronic inbound channel confirm by ORDRSP; only e-mail suppliers confirm in the portal.
  if (source === 'portal' && order.in_com_protocol_id !== CommunicationProtocol.Email)
    throw bad(M.confirmationNotAllowed);
  if (order.status_id !== SupplierOrderStatus.Sent) throw bad(M.confirmationNotAllowed);

  const lines = await repo.linesOf(client, order.id);
  const byNo = new Map(lines.map((l) => [l.line_no, l]));
  const changes = statusId === SupplierOrderStatus.Confirmed ? [] : body.lines;
  const added = statusId === SupplierOrderStatus.Confirmed ? [] : body.addedLines;
  for (const c of changes) if (!byNo.has(c.lineNo)) throw bad(M.unknownLine(c.lineNo));
  const changeOf = new Map(changes.map((c) => [c.lineNo, c]));
  const gtins = changes.some((c) => c.replacement?.gtin) ? await repo.lineGtins(client, order.id) : new Map();

  const writes = lines.map((l) => {
    const c = changeOf.get(l.line_no);
    const ordered = {
      q: Number(l.quantity),
      p: l.unit_price == null ? null : Number(l.unit_price),
      d: l.delivery_date,
    };
    if (c?.removed)
      return {
        l,
        w: {
          kind: 'removed' as const,
          quantity: 0,
          unitPrice: null,
          deliveryDate: null,
          articleNumber: null,
          name: null,
          quantityPrice: 0,
        },
      };
    const quantity = c?.quantity ?? ordered.q;
    const unitPrice = c?.unitPrice ?? ordered.p;
    const deliveryDate = c?.deliveryDate ?? ordered.d;
    const differs = quantity !== ordered.q || unitPrice !== ordered.p || deliveryDate !== ordered.d;
    // An ORDRSP repeats the item number (or, from EANCOM partners, only the GTIN) on changed lines;
    // only a different article is a replacement.
    const sameArticle =
      c?.replacement?.articleNumber === l.article_number ||
      (!!c?.replacement?.gtin && c.replacement.gtin === gtins.get(l.line_no));
    const replacement = c?.replacement && !sameArticle ? c.replacement : undefined;
    const kind = replacement ? ('replaced' as const) : differs ? ('changed' as const) : ('confirmed' as const);
    return {
      l,
      w: {
        kind,
        quantity: kind === 'confirmed' ? null : quantity,
        unitPrice: kind === 'confirmed' ? null : unitPrice,
        deliveryDate: kind === 'confirmed' ? null : deliveryDate,
        articleNumber: replacement?.articleNumber ?? null,
        name: replacement?.name ?? null,
        quantityPrice: lineValue(unitPrice, l, quantity),
      },
    };
  });
  if (
    statusId === SupplierOrderStatus.ConfirmedWithChanges &&
    !added.length &&
    writes.every((x) => x.w.kind === 'confirmed')
  )
    throw bad(M.confirmationWithoutChanges);

  for (const { l, w } of writes) await repo.writeLineConfirmation(client, Number(l.id), w);
  let next = Math.max(0, ...lines.map((l) => l.line_no));
  for (const a of added)
    await repo.insertAddedLine(client, order.id, ++next, {
      articleNumber: a.articleNumber,
      name: a.name,
      quantity: a.quantity,
      unitPrice: a.unitPrice ?? null,
      deliveryDate: a.deliveryDate ?? null,
      quantityPrice: a.unitPrice == null ? null : priceTotal(a.unitPrice, 1, 1, a.quantity),
    });
  await repo.setConfirmedTotal(client, order.id, confirmedTotalOf(await repo.linesOf(client, order.id)));
  const changed = await changeSupplierOrderStatus(client, order.id, statusId as SupplierOrderStatus, {
    from: [SupplierOrderStatus.Sent],
  });
  if (!changed) throw bad(M.confirmationNotAllowed);
}

/** Confirmed (nothing changed), changed, or rejected (every ordered line removed and nothing added). */
/** A rejection of the whole order as a confirmation: every ordered line removed, nothing added. */
export async function rejectionBody(client: Queryable, supplierOrderId: number): Promise<ConfirmationBody> {
  const lines = await repo.linesOf(client, supplierOrderId);
  return { lines: lines.map((l) => ({ lineNo: l.line_no, removed: true })), addedLines: [] };
}

export function confirmationMailKind(statusId: number, lines: repo.LineRow[]): ConfirmationMailKind {
  if (statusId === SupplierOrderStatus.Confirmed) return 'confirmed';
  const rejected = lines.every((l) => l.confirmation_kind === 'removed');
  return rejected ? 'rejected' : 'changed';
}

const settingOf: Record<ConfirmationMailKind, 'orderConfirmed' | 'orderChanged' | 'orderRejected'> = {
  confirmed: 'orderConfirmed',
  changed: 'orderChanged',
  rejected: 'orderRejected',
};

/**
 * Writes the buyer's mail about an applied confirmation to the outbox inside the confirmation's transaction: lines
 * with ordered and confirmed values and both totals. Null when the buyer turned this kind of mail off.
 */
export async function enqueueConfirmationMail(
  client: Queryable,
  deps: Pick<AppDeps, 'mail' | 'config'>,
  order: repo.LockedOrder,
  statusId: number,
): Promise<number | null> {
  const lines = await repo.linesOf(client, order.id);
  const kind = confirmationMailKind(statusId, lines);
  if (!(await wantsMail(client, order.buyer_user_id, settingOf[kind]))) return null;
  const totals = await repo.orderTotals(client, order.id);
  const text = supplierConfirmationMail({
    kind,
    supplierName: order.supplier_name,
    supplierOrderNumber: order.supplier_order_number,
    customerOrderNumber: order.customer_order_number,
    orderedTotal: totals.ordered,
    confirmedTotal: totals.confirmed,
    url: customerOrderUrl(deps.config.publicUrl, order.customer_order_number),
    lines: lines.map((l) => {
      const confirmed = confirmedValues(l);
      return {
        lineNo: l.line_no,
        kind: l.confirmation_kind ?? 'confirmed',
        unit: l.unit_code,
        ordered: l.confirmation_kind === 'added' ? null : orderedValues(l),
        confirmed:
          l.confirmation_kind === 'removed'
            ? null
            : {
                ...confirmed,
                lineTotal: l.confirmed_quantity_price == null ? null : Number(l.confirmed_quantity_price),
              },
      };
    }),
  });
  return deps.mail.enqueue({ to: order.buyer_email, ...text }, client);
}

export const customerOrderUrl = (publicUrl: string, customerOrderNumber: string) =>
  `${publicUrl}/bestellungen/bestellung?id=${encodeURIComponent(customerOrderNumber)}&orderType=customer`;
