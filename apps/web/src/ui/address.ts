import { formatCountry } from './format';

/**
 * An address as the API returns it: a cart's delivery address (spec §3: companyName, streetName, …) or an order's
 * address (checkout stores it as name, street, …). Both field names are read here, so the lines are written once.
 */
export interface AddressParts {
  name?: string | null;
  companyName?: string | null;
  contactPerson?: string | null;
  additionalInfo?: string | null;
  street?: string | null;
  streetName?: string | null;
  houseNumber?: string | null;
  postalCode?: string | null;
  city?: string | null;
  countryCode?: string | null;
  country?: string | null;
  phoneNumber?: string | null;
}

const join = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join(' ');

/** 'Industriestraße 12' */
const streetLine = (a: AddressParts) => join(a.streetName ?? a.street, a.houseNumber);

/** '50667 Köln' */
export const cityLine = (a: AddressParts) => join(a.postalCode, a.city);

/** The address as lines for a card: name, contact, addition, street, city, the country outside Germany, phone. */
export function addressLines(address: AddressParts | null | undefined): string[] {
  if (!address) return [];
  const country = address.countryCode ?? address.country;
  return [
    address.companyName ?? address.name,
    address.contactPerson,
    address.additionalInfo,
    streetLine(address),
    cityLine(address),
    country && country !== 'DE' ? formatCountry(country) : '',
    address.phoneNumber ? `Tel. ${address.phoneNumber}` : '',
  ].filter((line): line is string => Boolean(line));
}

/** 'Sanitär Müller GmbH, Industriestraße 12, 50667 Köln' (name, street and city only: a select's option). */
export const addressOneLine = (address: AddressParts) =>
  [address.companyName ?? address.name, streetLine(address), cityLine(address)].filter(Boolean).join(', ');
