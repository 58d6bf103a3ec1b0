import type { DeliveryAddress } from '../../api/carts';
import { formatCountry } from '../../ui/format';

/** 'Sanitär Müller GmbH, Industriestraße 12, 50667 Köln' */
export const addressOneLine = (address: DeliveryAddress) =>
  [
    address.companyName,
    `${address.streetName} ${address.houseNumber}`.trim(),
    `${address.postalCode} ${address.city}`.trim(),
  ]
    .filter(Boolean)
    .join(', ');

/** The address as lines for a card ('Liefern an'). */
export function addressLines(address: DeliveryAddress): string[] {
  return [
    address.companyName,
    address.contactPerson ?? '',
    address.additionalInfo ?? '',
    `${address.streetName} ${address.houseNumber}`.trim(),
    `${address.postalCode} ${address.city}`.trim(),
    address.countryCode !== 'DE' ? formatCountry(address.countryCode) : '',
    address.phoneNumber ? `Tel. ${address.phoneNumber}` : '',
  ].filter(Boolean);
}

/** The cart's chosen address, else the partner's registered (read-only) address, which orders use by default. */
export function effectiveAddress(
  addresses: readonly DeliveryAddress[] | undefined,
  addressId: number | null,
): DeliveryAddress | null {
  if (!addresses?.length) return null;
  return addresses.find((a) => a.id === addressId) ?? addresses.find((a) => a.isReadOnly) ?? null;
}
