import type { DeliveryAddress } from '../../api/carts';

/** The cart's chosen address, else the partner's registered (read-only) address, which orders use by default. */
export function effectiveAddress(
  addresses: readonly DeliveryAddress[] | undefined,
  addressId: number | null,
): DeliveryAddress | null {
  if (!addresses?.length) return null;
  return addresses.find((a) => a.id === addressId) ?? addresses.find((a) => a.isReadOnly) ?? null;
}
