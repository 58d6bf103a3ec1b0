import type { SupplierOrderStatus } from '@shk/contracts';
import type { Queryable } from '../../db/queryable.ts';
import * as repo from './transmission.repo.ts';

/**
 * THE status-update function for supplier orders (transmission and confirmation both call it, inside
 * their transaction): sets the status with its lifecycle timestamps and re-derives the customer order's
 * status from all its supplier orders (rule: deriveCustomerOrderStatus in @shk/contracts). Returns false when the order is not
 * in one of `from` (a concurrent change won), so callers can treat that as a conflict.
 */
export async function changeSupplierOrderStatus(
  client: Queryable,
  supplierOrderId: number,
  to: SupplierOrderStatus,
  options: { from?: readonly number[]; externalOrderId?: string | null } = {},
): Promise<boolean> {
  const customerOrderId = await repo.setSupplierOrderStatus(client, supplierOrderId, to, options);
  if (customerOrderId === null) return false;
  await refreshCustomerOrderStatus(client, customerOrderId);
  return true;
}

/**
 * Re-derives the customer order's status (the rule deriveCustomerOrderStatus of @shk/contracts, mirrored in SQL by
 * migration 0630). One statement: the customer order's row is locked only from here until the caller's COMMIT, so
 * the supplier orders of one order delivered at once do not queue on it across several round trips.
 */
export async function refreshCustomerOrderStatus(client: Queryable, customerOrderId: number) {
  await repo.refreshCustomerOrderStatus(client, customerOrderId);
}

/**
 * The batch form of changeSupplierOrderStatus(…, Sent, { from: [Created, SendingFailed] }) for the transmission
 * worker: several supplier orders set Sent in one statement and their customer orders re-derived in one more (in the
 * order of their ids). Returns the customer orders re-derived.
 */
export async function markSupplierOrdersSent(
  client: Queryable,
  orders: { supplierOrderId: number; externalOrderId: string | null }[],
): Promise<number[]> {
  const customerOrderIds = await repo.setSupplierOrdersSent(client, orders);
  await repo.refreshCustomerOrderStatuses(client, customerOrderIds);
  return customerOrderIds;
}
