import { describe, expect, it } from 'vitest';
import { deliveryCostAmountText, deliveryCostText, orderDetailUrl } from './order-format';

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
});
