import {
  CommunicationProtocol,
  SupplierOrderStatus,
  supplierOrderMessages as M,
  type ConfirmationBody,
} from '@shk/contracts';
import { HttpProblem } from '../../http/problem.ts';
import { changeSupplierOrderStatus } from '../transmission/index.ts';
import { confirmedTotalOf } from './confirmation-view.ts';
import type { Queryable } from '../../db/queryable.ts';
import * as repo from './supplier-orders.repo.ts';

const bad = (title: string) => new HttpProblem(400, title);

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
        },
      };
    const quantity = c?.quantity ?? ordered.q;
    const unitPrice = c?.unitPrice ?? ordered.p;
    const deliveryDate = c?.deliveryDate ?? ordered.d;
    const differs = quantity !== ordered.q || unitPrice !== ordered.p || deliveryDate !== ordered.d;
    // An ORDRSP repeats the item number on changed lines; only a different article is a replacement.
    const replacement = c?.replacement && c.replacement.articleNumber !== l.article_number ? c.replacement : undefined;
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
    });
  await repo.setConfirmedTotal(client, order.id, confirmedTotalOf(await repo.linesOf(client, order.id)));
  const changed = await changeSupplierOrderStatus(client, order.id, statusId as SupplierOrderStatus, {
    from: [SupplierOrderStatus.Sent],
  });
  if (!changed) throw bad(M.confirmationNotAllowed);
}

export function confirmationMail(order: repo.LockedOrder, statusId: number, portalUrl: string) {
  const withChanges = statusId === SupplierOrderStatus.ConfirmedWithChanges;
  return {
    to: order.buyer_email,
    subject: `Bestellung ${order.supplier_order_number} ${withChanges ? 'mit Änderungen bestätigt' : 'bestätigt'}`,
    text: [
      'Guten Tag,',
      '',
      `${order.supplier_name} hat Ihre Bestellung ${order.supplier_order_number} (Kundenbestellung ${order.customer_order_number}) ${
        withChanges ? 'mit Änderungen bestätigt. Bitte prüfen Sie die geänderten Positionen' : 'bestätigt'
      }.`,
      '',
      `${portalUrl}/bestellungen/bestellung?id=${encodeURIComponent(order.customer_order_number)}&orderType=customer`,
      '',
      'Ihr SHK-Bestellportal',
    ].join('\n'),
  };
}
