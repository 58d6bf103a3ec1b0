import { describe, expect, it } from 'vitest';
import { deliveryCostFor } from './delivery-cost.ts';
import { lineTotal } from './offer-catalog.ts';

describe('delivery cost', () => {
  const nordbad = { deliveryCost: 9.9, freeDeliveryThreshold: 250 };
  it('charges below the threshold and tells what is missing', () => {
    expect(deliveryCostFor(249.99, nordbad)).toEqual({
      deliveryCost: 9.9,
      freeDeliveryThreshold: 250,
      missingForFreeDelivery: 0.01,
    });
  });
  it('is free exactly at the threshold and above', () => {
    expect(deliveryCostFor(250, nordbad).deliveryCost).toBe(0);
    expect(deliveryCostFor(1000, nordbad)).toEqual({
      deliveryCost: 0,
      freeDeliveryThreshold: 250,
      missingForFreeDelivery: 0,
    });
  });
  it('without threshold the cost always applies', () => {
    expect(deliveryCostFor(10_000, { deliveryCost: 5, freeDeliveryThreshold: 0 }).deliveryCost).toBe(5);
  });
});

describe('line total', () => {
  it('is price / basis × minimum quantity × quantity', () => {
    expect(lineTotal({ unitPrice: 125, priceBasis: 100, minOrderQuantity: 10 }, 3)).toBe(37.5);
    expect(lineTotal({ unitPrice: 19.99, priceBasis: 1, minOrderQuantity: 1 }, 3)).toBe(59.97);
    expect(lineTotal({ unitPrice: null, priceBasis: 1, minOrderQuantity: 1 }, 3)).toBeNull();
  });
});
