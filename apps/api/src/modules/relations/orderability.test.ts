import { describe, expect, it } from 'vitest';
import { orderabilityOf } from './orderability.ts';

describe('orderabilityOf', () => {
  it('follows the spec rule', () => {
    expect(orderabilityOf(undefined)).toBe(3);
    expect(orderabilityOf({ relationStatusId: 2, isActive: true })).toBe(4);
    expect(orderabilityOf({ relationStatusId: 1, isActive: false })).toBe(4);
    expect(orderabilityOf({ relationStatusId: 1, isActive: true })).toBe(1);
  });
});
