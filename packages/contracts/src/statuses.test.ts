import { describe, expect, it } from 'vitest';
import { deriveCustomerOrderStatus } from './statuses.ts';

describe('customer order status from supplier orders', () => {
  it('is Created until every supplier order is sent', () => {
    expect(deriveCustomerOrderStatus([1, 1])).toBe(1);
    expect(deriveCustomerOrderStatus([2, 1])).toBe(1);
    expect(deriveCustomerOrderStatus([2, 3])).toBe(1);
  });
  it('awaits confirmation when all are sent', () => expect(deriveCustomerOrderStatus([2, 2])).toBe(2));
  it('is partially confirmed when some are confirmed', () => expect(deriveCustomerOrderStatus([4, 2])).toBe(3));
  it('is confirmed or confirmed with changes when all are settled', () => {
    expect(deriveCustomerOrderStatus([4, 4])).toBe(4);
    expect(deriveCustomerOrderStatus([4, 5])).toBe(5);
    expect(deriveCustomerOrderStatus([4, 6])).toBe(5);
  });
  it('is cancelled when all are cancelled', () => expect(deriveCustomerOrderStatus([6, 6])).toBe(6));
});
