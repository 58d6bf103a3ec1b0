import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.ts';
import { listPriceStrategy, priceTotal, type PriceStrategy } from './price-strategy.ts';
import { offersOfProducts } from '../offers.ts';
import { CatalogueMetaCache } from '../catalogue-meta.ts';

const offer = {
  productInstanceId: '200001~A1',
  supplierBpNumber: '200001',
  netPrice: 12.5,
  priceBasis: 100,
  priceQuantityUnit: 'C62',
  grossListPrice: 20,
  priceOnDemand: false,
};

describe('listPriceStrategy', () => {
  it('returns the net list price with basis and unit', async () => {
    const prices = await listPriceStrategy.pricesFor([offer], { buyerBpNumber: '100001' });
    expect(prices.get('200001~A1')).toEqual({
      value: 12.5,
      basis: 100,
      quantityUnit: 'C62',
      priceOnDemand: false,
      grossListPrice: 20,
      hasConnectionError: false,
    });
  });

  it('price on demand has no value; a missing price is a connection error', async () => {
    const prices = await listPriceStrategy.pricesFor(
      [
        { ...offer, productInstanceId: 'a', priceOnDemand: true, netPrice: null },
        { ...offer, productInstanceId: 'b', netPrice: null },
      ],
      { buyerBpNumber: null },
    );
    expect(prices.get('a')).toMatchObject({ value: null, priceOnDemand: true, hasConnectionError: false });
    expect(prices.get('b')).toMatchObject({ value: null, priceOnDemand: false, hasConnectionError: true });
  });

  it('price total = price / basis × minimum quantity × quantity', () => {
    expect(priceTotal(12.5, 100, 1, 200)).toBe(25);
    expect(priceTotal(10, 1, 5, 2)).toBe(100);
  });
});

describe('a customer-specific strategy plugs into the offers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is used for every offer, per buyer', async () => {
    const tenPercentOff: PriceStrategy = {
      name: 'test-discount',
      async pricesFor(offers, context) {
        const list = await listPriceStrategy.pricesFor(offers, context);
        const factor = context.buyerBpNumber === '100001' ? 0.9 : 1;
        return new Map(
          [...list].map(([id, p]) => [
            id,
            { ...p, value: p.value === null ? null : Math.round(p.value * factor * 100) / 100 },
          ]),
        );
      },
    };
    const { rows } = await t.pool.query(
      `SELECT product_no, product_instance_id, net_price FROM product_offers WHERE net_price IS NOT NULL ORDER BY 1 LIMIT 1`,
    );
    const meta = await new CatalogueMetaCache(() => t.pool).get();
    const discounted = await offersOfProducts(t.pool, [rows[0].product_no], {
      userId: '00000000-0000-4000-8000-000000000001',
      bpNumber: '100001',
      meta,
      prices: tenPercentOff,
    });
    const list = await offersOfProducts(t.pool, [rows[0].product_no], {
      userId: '00000000-0000-4000-8000-000000000002',
      bpNumber: '100003',
      meta,
      prices: tenPercentOff,
    });
    const find = (views: any) =>
      views.get(rows[0].product_no).find((v: any) => v.row.product_instance_id === rows[0].product_instance_id);
    expect(find(discounted).price.value).toBe(Math.round(Number(rows[0].net_price) * 0.9 * 100) / 100);
    expect(find(list).price.value).toBe(Number(rows[0].net_price));
  });
});
