import { describe, expect, it } from 'vitest';
import { deliveryCostAmountText, deliveryCostText, orderAddressLines, orderDetailUrl } from './order-format';

describe('order presentation', () => {
  it("shows delivery cost as 'zzgl.' amount and 0 as '0,00 € Lieferkosten'", () => {
    expect(deliveryCostText(9.9).replace(/\s/g, ' ')).toBe('zzgl. 9,90 € Lieferkosten');
    expect(deliveryCostText(0)).toBe('0,00 € Lieferkosten');
    // Next to the 'Lieferkosten' label the word is not repeated.
    expect(deliveryCostAmountText(9.9).replace(/\s/g, ' ')).toBe('zzgl. 9,90 €');
    expect(deliveryCostAmountText(0).replace(/\s/g, ' ')).toBe('0,00 €');
  });

  it('links the order detail with danke=true after ordering', () => {
    expect(orderDetailUrl('KB-2026-100001', 'customer', true)).toBe(
      '/bestellungen/bestellung?id=KB-2026-100001&orderType=customer&danke=true',
    );
    expect(orderDetailUrl('LB-500001', 'supplier')).toBe('/bestellungen/bestellung?id=LB-500001&orderType=supplier');
  });

  it('writes an order address as lines, the country only outside Germany', () => {
    expect(
      orderAddressLines({
        name: 'Baustelle',
        street: 'Ring',
        houseNumber: '5',
        postalCode: '50667',
        city: 'Köln',
        countryCode: 'DE',
      }),
    ).toEqual(['Baustelle', 'Ring 5', '50667 Köln']);
    expect(
      orderAddressLines({
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
