import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { insertTestOffers, offers } from '../../../test/support/cart-fixtures.ts';

/**
 * The cart overview (`GET /v1/MultiCarts`) computes its totals from a lean price lookup (`findPricing`), the cart
 * detail from the full offers: both must give the same item count and net value for every cart – orderable lines
 * of several suppliers, a unit the portal does not know, a supplier without approved relation, a relation that
 * ends, staggered price bases and minimum quantities.
 */
let t: TestApp;
const BUYER = 'einkauf@example.com';

beforeAll(async () => {
  t = await startTestApp();
  await insertTestOffers(t.pool);
});
afterAll(async () => {
  await t?.close();
});

const supplierOf = (id: string) => id.split('~')[0];

/** A cart of 100001 filled in SQL (the API only adds orderable offers; carts keep items that stop being orderable). */
async function cartWith(name: string, lines: [string, number][]) {
  const res = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name } });
  expect(res.status).toBe(201);
  const cartId = res.body.id as number;
  for (const [offer, quantity] of lines) {
    await t.pool.query(
      `INSERT INTO cart_items (cart_id, product_instance_id, supplier_bp_number, article_number, quantity)
       VALUES ($1, $2, $3, $4, $5)`,
      [cartId, offer, supplierOf(offer), offer.split('~')[1], quantity],
    );
  }
  return cartId;
}

async function compareOverviewWithDetails() {
  const list = await t.request('GET', '/v1/MultiCarts', { as: BUYER });
  expect(list.status).toBe(200);
  const overview = list.body as { id: number; itemCount: number; totalNetValue: number }[];
  const totals = new Map<number, { itemCount: number; totalNetValue: number }>();
  for (const cart of overview) {
    const detail = (await t.request('GET', `/v1/MultiCarts/${cart.id}`, { as: BUYER })).body;
    const itemCount = detail.supplierGroups.reduce((n: number, g: { itemCount: number }) => n + g.itemCount, 0);
    expect({ id: cart.id, itemCount: cart.itemCount, totalNetValue: cart.totalNetValue }).toEqual({
      id: cart.id,
      itemCount,
      totalNetValue: detail.totalNetValue,
    });
    totals.set(cart.id, { itemCount: cart.itemCount, totalNetValue: cart.totalNetValue });
  }
  return totals;
}

describe('cart overview totals', () => {
  it('equal the cart detail for every cart, orderable or not', async () => {
    const mixed = await cartWith('Gemischt', [
      [offers.nordbad, 3], // 3 × 19,99 = 59,97
      [offers.nordbadExpensive, 2], // 200,00
      [offers.aquatherm, 2], // 125 € / 100 m × min 10 m × 2 = 25,00
      [offers.nordbadBadUnit, 4], // unit XYZ: not orderable, not counted
      [offers.waermekontor, 5], // relation awaiting confirmation: not counted
    ]);
    const onlyUnavailable = await cartWith('Nicht bestellbar', [
      [offers.waermekontor, 1],
      [offers.nordbadBadUnit, 1],
    ]);
    const empty = await cartWith('Leer', []);
    const fractions = await cartWith('Krumme Mengen', [
      [offers.nordbad, 7], // 139,93
      [offers.aquatherm, 3], // 37,50
    ]);

    const totals = await compareOverviewWithDetails();
    expect(totals.get(mixed)).toEqual({ itemCount: 3, totalNetValue: 284.97 });
    expect(totals.get(onlyUnavailable)).toEqual({ itemCount: 0, totalNetValue: 0 });
    expect(totals.get(empty)).toEqual({ itemCount: 0, totalNetValue: 0 });
    expect(totals.get(fractions)).toEqual({ itemCount: 2, totalNetValue: 177.43 });
  });

  it('follow relation changes at once (no stale totals)', async () => {
    await t.pool.query(
      "UPDATE supplier_customers SET is_active = false WHERE buyer_bp_number = '100001' AND supplier_bp_number = '200001'",
    );
    try {
      const totals = await compareOverviewWithDetails();
      const mixed = [...totals.values()];
      // Only AquaTherm lines are left orderable: 25,00 in 'Gemischt', 37,50 in 'Krumme Mengen'.
      expect(mixed.map((c) => c.totalNetValue).sort((a, b) => a - b)).toEqual([0, 0, 25, 37.5]);
    } finally {
      await t.pool.query(
        "UPDATE supplier_customers SET is_active = true WHERE buyer_bp_number = '100001' AND supplier_bp_number = '200001'",
      );
    }
    await compareOverviewWithDetails();
  });
});
