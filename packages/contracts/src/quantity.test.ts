import { describe, expect, it } from 'vitest';
import { MAX_QUANTITY, minQuantityError, parseQuantity } from './quantity.ts';
import { Quantity } from './schemas/carts.ts';

describe('one quantity rule (buyer-side.md §5)', () => {
  it('accepts whole numbers from 1 to 999,999', () => {
    expect(parseQuantity('12')).toBe(12);
    expect(parseQuantity(' 10 ')).toBe(10);
    expect(parseQuantity('999999')).toBe(MAX_QUANTITY);
    for (const bad of ['0', '-3', '2,5', '1.5', '', 'zehn', '1e3', '1000000'])
      expect(parseQuantity(bad), bad).toBeNull();
  });

  it('is the same rule as the API schema', () => {
    expect(Quantity.safeParse(MAX_QUANTITY).success).toBe(true);
    expect(Quantity.safeParse(MAX_QUANTITY + 1).success).toBe(false);
    expect(Quantity.safeParse(0).success).toBe(false);
    expect(Quantity.safeParse(2.5).success).toBe(false);
  });

  it('names the minimum order quantity in German digits', () => {
    expect(minQuantityError(3, 5)).toBe('Bitte beachten Sie die minimale Bestellmenge von 5');
    expect(minQuantityError(5, 5)).toBeNull();
    expect(minQuantityError(1, null)).toBeNull();
    expect(minQuantityError(1, 2.5)).toBe('Bitte beachten Sie die minimale Bestellmenge von 2,5');
    expect(minQuantityError(999, 1000)).toBe('Bitte beachten Sie die minimale Bestellmenge von 1.000');
  });
});
