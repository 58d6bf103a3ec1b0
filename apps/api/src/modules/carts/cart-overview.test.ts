import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { insertTestOffers, offers } from '../../../test/support/cart-fixtures.ts';

/**
 * The cart overview (`GET /v1/MultiCarts`) keeps each cart's totals (`cart_totals`, computed from a lean price lookup,
 * `findPricing`), the cart detail prices the full offers on every call: both must give the same item count and net
 * value for every cart – orderable lines of several suppliers, a unit the portal does not know, a supplier without
 * approved relation, a relation that ends, staggered price bases and minimum quantities – and after every kind of
 * change: lines added, changed and removed, prices and offers changed by a catalogue import, relations, units.
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
  // The tests change carts, offers and relations with SQL, not through the API: the API's read-model cache applies
  // those changes before the next answer.
  await t.app.readModels.synced();
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

  it('are kept per cart and read from there while nothing changed', async () => {
    const cartId = await cartWith('Gespeichert', [[offers.nordbad, 2]]);
    await compareOverviewWithDetails();
    const stored = await t.pool.query(
      'SELECT stamp, item_count, total_net_value::float8 AS total FROM cart_totals WHERE cart_id = $1',
      [cartId],
    );
    expect(stored.rows[0]).toMatchObject({ item_count: 1, total: 39.98 });
    expect(stored.rows[0].stamp).toEqual(expect.stringContaining('list-price'));
    // A stored value is what the overview answers while its stamp holds (proves the read comes from the table) …
    await t.pool.query('UPDATE cart_totals SET total_net_value = 1234.5 WHERE cart_id = $1', [cartId]);
    await t.app.readModels.synced();
    const list = await t.request('GET', '/v1/MultiCarts', { as: BUYER });
    expect(list.body.find((c: { id: number }) => c.id === cartId).totalNetValue).toBe(1234.5);
    // … and any change of the cart's lines makes it stale again.
    await t.pool.query('UPDATE cart_items SET quantity = 3 WHERE cart_id = $1', [cartId]);
    expect((await compareOverviewWithDetails()).get(cartId)).toEqual({ itemCount: 1, totalNetValue: 59.97 });
    await t.request('DELETE', `/v1/MultiCarts/${cartId}`, { as: BUYER });
  });

  it('follow lines added, changed and removed through the API', async () => {
    const cartId = await cartWith('Änderungen', [[offers.nordbad, 1]]);
    expect((await compareOverviewWithDetails()).get(cartId)).toEqual({ itemCount: 1, totalNetValue: 19.99 });

    const added = await t.request('POST', '/v1/CartItems', {
      as: BUYER,
      body: { cartId, productInstanceId: offers.aquatherm, quantity: 10 },
    });
    expect(added.status).toBe(201);
    // 125 € / 100 m × min 10 m × 10 = 125,00
    expect((await compareOverviewWithDetails()).get(cartId)).toEqual({ itemCount: 2, totalNetValue: 144.99 });

    const again = await t.request('POST', '/v1/CartItems', {
      as: BUYER,
      body: { cartId, productInstanceId: offers.nordbad, quantity: 2 },
    });
    expect(again.status).toBe(201);
    expect((await compareOverviewWithDetails()).get(cartId)).toEqual({ itemCount: 2, totalNetValue: 184.97 });

    const changed = await t.request('PUT', `/v1/CartItems/${added.body.cartItemId}/properties`, {
      as: BUYER,
      body: { quantity: 20 },
    });
    expect(changed.status).toBe(200);
    expect((await compareOverviewWithDetails()).get(cartId)).toEqual({ itemCount: 2, totalNetValue: 309.97 });

    expect((await t.request('DELETE', `/v1/CartItems/${added.body.cartItemId}`, { as: BUYER })).status).toBe(204);
    expect((await compareOverviewWithDetails()).get(cartId)).toEqual({ itemCount: 1, totalNetValue: 59.97 });

    expect((await t.request('PUT', `/v1/MultiCarts/${cartId}/items`, { as: BUYER, body: { items: [] } })).status).toBe(
      204,
    );
    expect((await compareOverviewWithDetails()).get(cartId)).toEqual({ itemCount: 0, totalNetValue: 0 });
    await t.request('DELETE', `/v1/MultiCarts/${cartId}`, { as: BUYER });
  });

  it('follow price and offer changes of a catalogue import (catalogue version)', async () => {
    const cartId = await cartWith('Preise', [
      [offers.nordbad, 1],
      [offers.nordbadExpensive, 1],
    ]);
    expect((await compareOverviewWithDetails()).get(cartId)).toEqual({ itemCount: 2, totalNetValue: 119.99 });
    // What an import commits: new prices, a withdrawn offer, then the catalogue version bump.
    const price = async (id: string, value: number, basis = 1) => {
      await t.pool.query('UPDATE product_offers SET net_price = $2, price_basis = $3 WHERE product_instance_id = $1', [
        id,
        value,
        basis,
      ]);
      await t.pool.query('UPDATE catalogue_state SET version = version + 1');
    };
    try {
      await price(offers.nordbad, 25);
      expect((await compareOverviewWithDetails()).get(cartId)).toEqual({ itemCount: 2, totalNetValue: 125 });
      await price(offers.nordbadExpensive, 150, 10);
      expect((await compareOverviewWithDetails()).get(cartId)).toEqual({ itemCount: 2, totalNetValue: 40 });
      await t.pool.query(
        'UPDATE product_offers SET net_price = NULL, price_on_demand = true WHERE product_instance_id = $1',
        [offers.nordbadExpensive],
      );
      await t.pool.query('UPDATE catalogue_state SET version = version + 1');
      await compareOverviewWithDetails();
    } finally {
      await t.pool.query('UPDATE product_offers SET price_on_demand = false WHERE product_instance_id = $1', [
        offers.nordbadExpensive,
      ]);
      await price(offers.nordbad, 19.99);
      await price(offers.nordbadExpensive, 100);
    }
    expect((await compareOverviewWithDetails()).get(cartId)).toEqual({ itemCount: 2, totalNetValue: 119.99 });
    await t.request('DELETE', `/v1/MultiCarts/${cartId}`, { as: BUYER });
  });

  it('follow relations that are added or removed and units the portal stops knowing', async () => {
    const cartId = await cartWith('Beziehungen', [
      [offers.nordbad, 1],
      [offers.aquatherm, 1],
    ]);
    expect((await compareOverviewWithDetails()).get(cartId)).toEqual({ itemCount: 2, totalNetValue: 32.49 });
    const relation = await t.pool.query(
      "DELETE FROM supplier_customers WHERE buyer_bp_number = '100001' AND supplier_bp_number = '200003' RETURNING *",
    );
    try {
      expect((await compareOverviewWithDetails()).get(cartId)).toEqual({ itemCount: 1, totalNetValue: 19.99 });
    } finally {
      const row = relation.rows[0];
      const columns = Object.keys(row);
      await t.pool.query(
        `INSERT INTO supplier_customers (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
        columns.map((c) => row[c]),
      );
    }
    expect((await compareOverviewWithDetails()).get(cartId)).toEqual({ itemCount: 2, totalNetValue: 32.49 });

    const unit = await t.pool.query("DELETE FROM units WHERE code = 'MTR' RETURNING *");
    try {
      expect((await compareOverviewWithDetails()).get(cartId)).toEqual({ itemCount: 1, totalNetValue: 19.99 });
    } finally {
      await t.pool.query('INSERT INTO units (code, short_description, sort) VALUES ($1, $2, $3)', [
        unit.rows[0].code,
        unit.rows[0].short_description,
        unit.rows[0].sort,
      ]);
    }
    expect((await compareOverviewWithDetails()).get(cartId)).toEqual({ itemCount: 2, totalNetValue: 32.49 });
    await t.request('DELETE', `/v1/MultiCarts/${cartId}`, { as: BUYER });
  });
});
