import { describe, expect, it } from 'vitest';
import { generateProduct } from './generate.ts';
import { isValidGtin13, gtinCheckDigit } from './random.ts';
import { reference } from './reference.ts';
import { brands } from './brands.ts';

describe('catalogue generator', () => {
  it('is deterministic and independent of the catalogue size (except accessories)', () => {
    const a = generateProduct(42, 2_500);
    const b = generateProduct(42, 2_500);
    const c = generateProduct(42, 1_000_000);
    expect(b).toEqual(a);
    expect({ ...c, accessories: [], spareParts: [] }).toEqual({ ...a, accessories: [], spareParts: [] });
  });

  it('writes valid GTIN-13 and unique ids', () => {
    expect(gtinCheckDigit('400638133393')).toBe(1);
    const products = Array.from({ length: 3_000 }, (_, i) => generateProduct(i, 3_000));
    for (const p of products) if (p.gtin) expect(isValidGtin13(p.gtin), p.gtin).toBe(true);
    expect(new Set(products.map((p) => p.productId)).size).toBe(products.length);
    const instances = products.flatMap((p) => p.offers.map((o) => o.productInstanceId));
    expect(new Set(instances).size).toBe(instances.length);
    expect(
      products.every((p) => p.offers.length >= 1 && !p.productId.slice(p.productId.indexOf('~') + 1).includes('~')),
    ).toBe(true);
    expect(products.filter((p) => p.offers.length > 1).length).toBeGreaterThan(products.length / 3);
  });

  it('covers a realistic SHK assortment', () => {
    const ref = reference();
    expect(brands.length).toBeGreaterThanOrEqual(38);
    expect(ref.leaves.length).toBeGreaterThan(40);
    for (const leaf of ref.leaves) {
      expect(leaf.slots.length).toBeGreaterThanOrEqual(3);
      expect(leaf.slots.length).toBeLessThanOrEqual(8);
    }
    const names = Array.from({ length: 2_000 }, (_, i) => generateProduct(i, 2_000).productName).join('\n');
    for (const word of [
      'Thermostatventil',
      'Heizkörperverschraubung',
      'Pressfitting',
      'Kugelhahn',
      'Kupferrohr',
      'Waschtisch',
    ])
      expect(names).toContain(word);
  });
});
