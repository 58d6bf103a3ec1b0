import { describe, expect, it } from 'vitest';
import { pickCurrentCart } from './current-cart';

const carts = [
  { id: 1, isDefault: false },
  { id: 2, isDefault: true },
  { id: 3, isDefault: false },
];

describe('current cart', () => {
  it('is the remembered cart, else the default cart', () => {
    expect(pickCurrentCart(carts, false, '3')?.id).toBe(3);
    expect(pickCurrentCart(carts, false, null)?.id).toBe(2);
    // A remembered cart that was deleted falls back to the default.
    expect(pickCurrentCart(carts, false, '99')?.id).toBe(2);
  });

  it('is always the default cart in IDS context', () => {
    expect(pickCurrentCart(carts, true, '3')?.id).toBe(2);
  });

  it('is the only cart or nothing', () => {
    expect(pickCurrentCart([{ id: 7, isDefault: false }], false, null)?.id).toBe(7);
    expect(pickCurrentCart([], false, '1')).toBeNull();
  });
});
