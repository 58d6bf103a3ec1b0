import { describe, expect, it } from 'vitest';
import { addressLines, addressOneLine } from './address';

const cartAddress = {
  companyName: 'Sanitär Müller GmbH',
  contactPerson: 'Frau Kern',
  additionalInfo: null,
  streetName: 'Industriestraße',
  houseNumber: '12',
  postalCode: '50667',
  city: 'Köln',
  countryCode: 'DE',
  phoneNumber: '0221 123',
};
/** The same address as checkout stores it on the order (renamed fields). */
const orderAddress = {
  name: 'Sanitär Müller GmbH',
  contactPerson: 'Frau Kern',
  street: 'Industriestraße',
  houseNumber: '12',
  postalCode: '50667',
  city: 'Köln',
  countryCode: 'DE',
  phoneNumber: '0221 123',
};

describe('address lines (one formatter for cart and order addresses)', () => {
  it('writes a cart address and the same address on an order identically', () => {
    const lines = ['Sanitär Müller GmbH', 'Frau Kern', 'Industriestraße 12', '50667 Köln', 'Tel. 0221 123'];
    expect(addressLines(cartAddress)).toEqual(lines);
    expect(addressLines(orderAddress)).toEqual(lines);
    expect(addressOneLine(cartAddress)).toBe('Sanitär Müller GmbH, Industriestraße 12, 50667 Köln');
    expect(addressOneLine(orderAddress)).toBe(addressOneLine(cartAddress));
  });

  it('names the country only outside Germany (countryCode, or an order’s country)', () => {
    expect(addressLines({ ...orderAddress, phoneNumber: null, countryCode: 'AT', city: 'Wien' })).toContain(
      'Österreich',
    );
    expect(addressLines({ name: 'Filiale', country: 'AT' })).toEqual(['Filiale', 'Österreich']);
    expect(addressLines(null)).toEqual([]);
  });

  it('writes an order address as lines, the country only outside Germany', () => {
    expect(
      addressLines({
        name: 'Baustelle',
        street: 'Ring',
        houseNumber: '5',
        postalCode: '50667',
        city: 'Köln',
        countryCode: 'DE',
      }),
    ).toEqual(['Baustelle', 'Ring 5', '50667 Köln']);
    expect(
      addressLines({
        name: 'Filiale',
        street: 'Gasse',
        houseNumber: '1',
        postalCode: '1010',
        city: 'Wien',
        countryCode: 'AT',
      }),
    ).toEqual(['Filiale', 'Gasse 1', '1010 Wien', 'Österreich']);
  });
});
