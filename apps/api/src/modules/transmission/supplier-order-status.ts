import { SupplierOrderStatus } from '@shk/contracts';
import { deriveCustomerOrderStatus } from '../orders/order-status.ts';
import type { Queryable } from '../../db/queryable.ts';

/**
 * THE status-update function for supplier orders (transmission and confirmation both call it, inside
 * their transaction): sets the status with its lifecycle timestamps and re-derives the customer order's
 * status from all its supplier orders (rule: orders/order-status.ts). Returns false when the order is not
 * in one of `from` (a concurrent change won), so callers can treat that as a conflict.
 */
export async function changeSupplierOrderStatus(
  client: Queryable,
  supplierOrderId: number,
  to: SupplierOrderStatus,
  options: { from?: readonly number[]; externalOrderId?: string | null } = {},
): Promise<boolean> {
  const { rows } = await client.query<{ customer_order_id: string }>(
    `UPDATE supplier_orders
        SET status_id = $2::smallint, status_changed_at = now(), modified_at = now(),
            sent_at = CASE WHEN $2::smallint = ${SupplierOrderStatus.Sent} THEN now() ELSE sent_at END,
            confirmed_at = CASE WHEN $2::smallint IN (${SupplierOrderStatus.Confirmed}, ${SupplierOrderStatus.ConfirmedWithChanges}) THEN now() ELSE confirmed_at END,
            external_order_id = COALESCE($4::text, external_order_id)
      WHERE id = $1 AND ($3::smallint[] IS NULL OR status_id = ANY($3::smallint[]))
      RETURNING customer_order_id`,
    [supplierOrderId, to, options.from ?? null, options.externalOrderId ?? null],
  );
  if (!rows[0]) return false;
  await refreshCustomerOrderStatus(client, Number(rows[0].customer_order_id));
  return true;
}

export async function refreshCustomerOrderStatus(client: Queryable, customerOrderId: number) {
  // Locks the customer order first so two supplier orders of it changing at once derive in turn.
  await client.query('SELECT id FROM customer_orders WHERE id = $1 FOR UPDATE', [customerOrderId]);
  const { rows } = await client.query<{ status_id: number }>(
    'SELECT status_id FROM supplier_orders WHERE customer_order_id = $1',
    [customerOrderId],
  );
  await client.query(
    'UPDATE customer_orders SET status_id = $2, modified_at = now() WHERE id = $1 AND status_id <> $2',
    [customerOrderId, deriveCustomerOrderStatus(rows.map((r) => r.status_id))],
  );
}
