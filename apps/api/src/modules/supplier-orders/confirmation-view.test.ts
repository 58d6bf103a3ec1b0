import { describe, expect, it } from 'vitest';
import { priceTotal } from '../catalogue/pricing/price-strategy.ts';
import { confirmedTotalOf, type ConfirmableLineRow } from './confirmation-view.ts';

const line = (
  over: Partial<ConfirmableLineRow> & { price_basis?: string | number; min_quantity?: string | number },
): ConfirmableLineRow & { price_basis: string | number; min_quantity: string | number } => ({
  line_no: 1,
  article_number: 'A-1',
  name: 'Artikel',
  quantity: '2.000',
  unit_price: '12.50',
  delivery_date: null,
  confirmation_kind: 'confirmed',
  confirmed_quantity: null,
  confirmed_unit_price: null,
  confirmed_delivery_date: null,
  confirmed_article_number: null,
  confirmed_name: null,
  price_basis: '1',
  min_quantity: '1',
  ...over,
});

describe('confirmedTotalOf (the spec price total: price ÷ basis × minimum quantity × quantity)', () => {
  it('an unchanged confirmation equals the ordered total, also with minimum quantity 5 and basis 100', () => {
    const lines = [
      line({ line_no: 1, quantity: '3.000', unit_price: '19.99', min_quantity: '5.000' }),
      line({ line_no: 2, quantity: '2.000', unit_price: '1234.56', price_basis: '100.000', min_quantity: '5.000' }),
    ];
    const ordered = priceTotal(19.99, 1, 5, 3) + priceTotal(1234.56, 100, 5, 2);
    expect(confirmedTotalOf(lines)).toBe(Math.round(ordered * 100) / 100);
    expect(confirmedTotalOf(lines)).toBe(423.31); // 299.85 + 123.46
  });

  it('uses the confirmed quantity and price, skips removed lines and lines without a price', () => {
    const lines = [
      line({ confirmation_kind: 'changed', confirmed_quantity: '4', confirmed_unit_price: '10', min_quantity: '5' }),
      line({ line_no: 2, confirmation_kind: 'removed', unit_price: '99' }),
      line({ line_no: 3, unit_price: null }),
      line({ line_no: 4, confirmation_kind: 'added', quantity: '1', unit_price: '10', confirmed_quantity: '1' }),
    ];
    expect(confirmedTotalOf(lines)).toBe(210); // 10 × 5 × 4 + 10
  });
});
