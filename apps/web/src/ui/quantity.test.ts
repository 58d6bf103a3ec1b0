import { describe, expect, it } from 'vitest';
import { minQuantityError, parseQuantity } from './quantity';

describe('quantity input (spec §5)', () => {
  it('accepts whole numbers greater than 0 only', () => {
    expect(parseQuantity('12')).toBe(12);
    expect(parseQuantity(' 10 ')).toBe(10);
    for (const bad of ['0', '-3', '2,5', '1.5', '', 'zehn', '1e3']) expect(parseQuantity(bad)).toBeNull();
  });

  it('names the minimum order quantity', () => {
    expect(minQuantityError(3, 5)).toBe('Bitte beachten Sie die minimale Bestellmenge von 5');
    expect(minQuantityError(5, 5)).toBeNull();
    expect(minQuantityError(1, null)).toBeNull();
  });
});
