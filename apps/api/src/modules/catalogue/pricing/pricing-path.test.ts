import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProductOrderableStatus } from '@shk/contracts';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.ts';
import { listPriceStrategy, priceTotal, type PriceStrategy } from './price-strategy.ts';

const BUYER = 'einkauf@example.com';

/** Customer-specific conditions: partner 100001 gets 13 % off and a price basis of 10 units. */
const conditions: PriceStrategy = {
  name: 'test-conditions',
  async pricesFor(offers, context) {
    const list = await listPriceStrategy.pricesFor(offers, context);
    if (context.buyerBpNumber !== '100001') return list;
    return new Map(
      [...list].map(([id, p]) => [
        id,
        { ...p, value: p.value === null ? null : Math.round(p.value * 10 * 0.87 * 100) / 100, basis: p.basis * 10 },
      ]),
    );
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ prices: conditions });
});
afterAll(async () => {
  await t?.close();
});

describe('one pricing path under a non-default PriceStrategy', () => {
  it('shows the search price on the product page, in the cart and in the order', async () => {
    const search = await t.request('POST', '/v1/Product/Search', {
      as: BUYER,
      body: { searchTerm: 'Heizkörper', page: 1, pageSize: 50 },
    });
    expect(search.status).toBe(200);
    const hit = search.body.hits.find(
      (h: any) => h.productOrderableStatus === ProductOrderableStatus.Orderable && h.price.value !== null,
    );
    expect(hit, 'an orderable hit with a price').toBeDefined();
    const productInstanceId: string = hit.rows.PRODUCTINSTANCE_ID;
    const offer = (
      await t.pool.query('SELECT net_price, price_basis FROM product_offers WHERE product_instance_id = $1', [
        productInstanceId,
      ])
    ).rows[0];
    // The strategy is really in force: not the list price.
    expect(hit.price.value).toBe(Math.round(Number(offer.net_price) * 10 * 0.87 * 100) / 100);
    expect(hit.price.basis).toBe(Number(offer.price_basis) * 10);

    const product = await t.request('GET', `/v1/Product?productInstanceId=${encodeURIComponent(productInstanceId)}`, {
      as: BUYER,
    });
    expect(product.status).toBe(200);
    expect(product.body.pricesPackage.netPrice).toMatchObject({ value: hit.price.value, basis: hit.price.basis });

    const cart = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Preisweg' } });
    const quantity = 3;
    const added = await t.request('POST', '/v1/CartItems', {
      as: BUYER,
      body: { cartId: cart.body.id, productInstanceId, quantity },
    });
    expect(added.status).toBe(201);
    const view = (await t.request('GET', `/v1/MultiCarts/${cart.body.id}`, { as: BUYER })).body;
    const expectedTotal = priceTotal(hit.price.value, hit.price.basis, hit.minOrderQuantity, quantity);
    expect(view.items[0]).toMatchObject({ unitPrice: hit.price.value, priceBasis: hit.price.basis });
    expect(view.items[0].netValue).toBe(expectedTotal);

    const order = await t.request('POST', `/v1/MultiCarts/${cart.body.id}/checkout`, { as: BUYER });
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    const details = (
      await t.request('GET', `/v1/CustomerOrders/${order.body.customerOrderNumber}/Details`, { as: BUYER })
    ).body;
    const line = details.supplierOrdersDetails[0].lines[0];
    expect(line).toMatchObject({ unitPrice: hit.price.value, quantityPrice: expectedTotal });
  });
});
