import { CustomerOrderStatus, SupplierOrderStatus } from '@shk/contracts';

/**
 * The customer order's status follows from its supplier orders: nothing confirmed yet and
 * something still unsent → Created; everything sent → AwaitingConfirmation; some confirmed →
 * PartiallyConfirmed; all settled → Confirmed / ConfirmedWithChanges; all cancelled → Cancelled.
 */
export function deriveCustomerOrderStatus(supplierStatuses: number[]): CustomerOrderStatus {
  const S = SupplierOrderStatus;
  if (!supplierStatuses.length) return CustomerOrderStatus.Created;
  const live = supplierStatuses.filter((s) => s !== S.Cancelled);
  if (!live.length) return CustomerOrderStatus.Cancelled;
  const confirmed = live.filter((s) => s === S.Confirmed || s === S.ConfirmedWithChanges);
  if (confirmed.length === live.length) {
    return confirmed.some((s) => s === S.ConfirmedWithChanges) || live.length < supplierStatuses.length
      ? CustomerOrderStatus.ConfirmedWithChanges
      : CustomerOrderStatus.Confirmed;
  }
  if (confirmed.length) return CustomerOrderStatus.PartiallyConfirmed;
  if (live.every((s) => s === S.Sent)) return CustomerOrderStatus.AwaitingConfirmation;
  return CustomerOrderStatus.Created;
}
