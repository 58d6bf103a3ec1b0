import type pg from 'pg';
import { SupplierOrderStatus } from '@shk/contracts';
import type { AppDeps } from '../../http/types.ts';
import { inTransaction } from '../../db/pool.ts';
import type { OutgoingMail } from '../mail/mail.service.ts';
import { deriveCustomerOrderStatus } from './order-status.ts';

export const ORDER_TRANSMIT_QUEUE = 'order.transmit';

export interface SupplierOrderForTransmission {
  id: number; supplierOrderNumber: string; customerOrderNumber: string; supplierBpNumber: string; supplierName: string;
  buyerBpNumber: string; buyerName: string; supplierCustomerNumber: string | null; netValue: number; deliveryCost: number;
  outComProtocolId: number; outEmailAddress: string | null;
  lines: { lineNo: number; articleNumber: string; name: string; quantity: number; unitCode: string | null; unitPrice: number | null; priceBasis: number; quantityPrice: number | null; deliveryDate: string | null; projectCode: string | null; comment: string | null }[];
}

/**
 * How a supplier order reaches the supplier (extension seam, one per outbound protocol).
 * Returns normally when the order was handed over; throws to have the job retried.
 */
export interface OrderTransmitter {
  readonly protocolIds: readonly number[];
  transmit(order: SupplierOrderForTransmission, client: pg.PoolClient): Promise<{ externalOrderId?: string; /** outbox mails to dispatch after commit */ mailIds?: number[] }>;
}

const euro = (n: number | null) => (n == null ? 'Preis auf Anfrage' : n.toLocaleString('de-DE', { style: 'currency', currency: 'EUR' }));

export function orderMail(order: SupplierOrderForTransmission, to: string): OutgoingMail {
  return {
    to,
    subject: `Bestellung ${order.supplierOrderNumber} von ${order.buyerName} (Kundennr. ${order.supplierCustomerNumber ?? '–'})`,
    text: [
      `Bestellung ${order.supplierOrderNumber} über das SHK-Bestellportal (Kundenbestellung ${order.customerOrderNumber})`,
      `Kunde: ${order.buyerName}, Geschäftspartnernummer ${order.buyerBpNumber}, Kundennummer ${order.supplierCustomerNumber ?? '–'}`,
      '',
      ...order.lines.map((l) => `${l.lineNo}. ${l.articleNumber} ${l.name} – Menge ${l.quantity.toLocaleString('de-DE')} ${l.unitCode ?? ''} à ${euro(l.unitPrice)}${l.priceBasis !== 1 ? ` je ${l.priceBasis}` : ''} = ${euro(l.quantityPrice)}`
        + `${l.deliveryDate ? `, Lieferdatum ${l.deliveryDate}` : ''}${l.projectCode ? `, Projekt ${l.projectCode}` : ''}${l.comment ? `, Notiz: ${l.comment}` : ''}`),
      '',
      `Warenwert (netto): ${euro(order.netValue)}`,
      `Lieferkosten (netto): ${euro(order.deliveryCost)}`,
      '',
      'Die Bestellung wird erst mit Ihrer Auftragsbestätigung verbindlich. Bitte bestätigen Sie sie im SHK-Bestellportal.',
    ].join('\n'),
  };
}

/** Default transmitter: the order as e-mail to the supplier's outbound address (protocol Email). */
export function emailTransmitter(deps: Pick<AppDeps, 'mail'>): OrderTransmitter {
  return {
    protocolIds: [1],
    async transmit(order, client) {
      if (!order.outEmailAddress) throw new Error(`supplier ${order.supplierBpNumber} has no outbound e-mail address`);
      const ids: number[] = [];
      for (const to of order.outEmailAddress.split(';').map((a) => a.trim()).filter(Boolean)) ids.push(await deps.mail.enqueue(orderMail(order, to), client));
      return { mailIds: ids };
    },
  };
}

async function loadOrder(client: pg.PoolClient, id: number): Promise<SupplierOrderForTransmission | null> {
  const { rows } = await client.query(
    `SELECT so.*, co.customer_order_number, sb.name AS supplier_name, bb.name AS buyer_name, s.out_com_protocol_id, s.out_email_address
       FROM supplier_orders so JOIN customer_orders co ON co.id = so.customer_order_id
       JOIN business_partners sb ON sb.bp_number = so.supplier_bp_number JOIN business_partners bb ON bb.bp_number = so.buyer_bp_number
       JOIN suppliers s ON s.bp_number = so.supplier_bp_number
      WHERE so.id = $1 FOR UPDATE OF so`, [id]);
  const r = rows[0];
  if (!r) return null;
  const lines = await client.query('SELECT * FROM order_lines WHERE supplier_order_id = $1 ORDER BY line_no', [id]);
  return {
    id, supplierOrderNumber: r.supplier_order_number, customerOrderNumber: r.customer_order_number, supplierBpNumber: r.supplier_bp_number, supplierName: r.supplier_name,
    buyerBpNumber: r.buyer_bp_number, buyerName: r.buyer_name, supplierCustomerNumber: r.supplier_customer_number, netValue: Number(r.net_value), deliveryCost: Number(r.delivery_cost),
    outComProtocolId: r.out_com_protocol_id, outEmailAddress: r.out_email_address,
    lines: lines.rows.map((l) => ({ lineNo: l.line_no, articleNumber: l.article_number, name: l.name, quantity: Number(l.quantity), unitCode: l.unit_code, unitPrice: l.unit_price, priceBasis: Number(l.price_basis), quantityPrice: l.quantity_price, deliveryDate: l.delivery_date, projectCode: l.project_code, comment: l.comment })),
  };
}

export async function refreshCustomerOrderStatus(client: Pick<pg.PoolClient, 'query'>, customerOrderId: number) {
  const { rows } = await client.query<{ status_id: number }>('SELECT status_id FROM supplier_orders WHERE customer_order_id = $1', [customerOrderId]);
  await client.query('UPDATE customer_orders SET status_id = $2, modified_at = now() WHERE id = $1 AND status_id <> $2',
    [customerOrderId, deriveCustomerOrderStatus(rows.map((r) => r.status_id))]);
}

/** Registers the background job that hands supplier orders to their transmitter. */
export function registerOrderTransmission(deps: AppDeps, transmitters: OrderTransmitter[] = [emailTransmitter(deps)]) {
  deps.jobs.register<{ supplierOrderId: number }>(ORDER_TRANSMIT_QUEUE, async ({ supplierOrderId }) => {
    const mails: number[] = [];
    await inTransaction(deps.db, async (tx) => {
      const client = tx.$client as pg.PoolClient;
      const order = await loadOrder(client, supplierOrderId);
      if (!order) return;
      const status = (await client.query('SELECT status_id, customer_order_id FROM supplier_orders WHERE id = $1', [supplierOrderId])).rows[0];
      if (status.status_id !== SupplierOrderStatus.Created && status.status_id !== SupplierOrderStatus.SendingFailed) return;
      const transmitter = transmitters.find((t) => t.protocolIds.includes(order.outComProtocolId));
      let next: number = SupplierOrderStatus.Sent;
      let externalOrderId: string | null = null;
      if (!transmitter) next = SupplierOrderStatus.SendingFailed;
      else {
        try {
          const result = await transmitter.transmit(order, client);
          externalOrderId = result.externalOrderId ?? null;
          mails.push(...(result.mailIds ?? []));
        } catch (error) {
          console.warn(`order ${order.supplierOrderNumber} not transmitted: ${(error as Error).message}`);
          next = SupplierOrderStatus.SendingFailed;
        }
      }
      await client.query('UPDATE supplier_orders SET status_id = $2, external_order_id = COALESCE($3, external_order_id), modified_at = now() WHERE id = $1', [supplierOrderId, next, externalOrderId]);
      await refreshCustomerOrderStatus(client, Number(status.customer_order_id));
    });
    await deps.mail.dispatch(mails);
  });
}
