/**
 * A checkout must not wait for a second pool connection while its transaction holds one: with as many concurrent
 * checkouts as the pool has connections they all waited for each other until the pool's timeout (bench:load,
 * 2026-11-26: 30 s, then 503). With a pool of one connection a checkout shows it alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@shk/contracts';
import { createDb, createPool } from '../../db/pool.ts';
import type { AppDeps } from '../../http/types.ts';
import type { Caller } from '../../http/auth.ts';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { insertTestOffers, offers } from '../../../test/support/cart-fixtures.ts';
import { catalogueOfferCatalog } from '../carts/catalogue-offers.ts';
import { CartsService } from '../carts/carts.service.ts';
import { priceStrategyOf } from '../catalogue/pricing/price-strategy.ts';
import { CheckoutService } from './checkout.service.ts';

const BUYER = 'einkauf@example.com';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await insertTestOffers(t.pool);
});
afterAll(async () => {
  await t?.close();
});

describe('checkout and the connection pool', () => {
  it('completes on a pool of one connection (no second connection while the transaction holds the first)', async () => {
    const cart = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Ein Anschluss' } });
    expect(cart.status).toBe(201);
    const added = await t.request('POST', '/v1/CartItems', {
      as: BUYER,
      body: { cartId: cart.body.id, productInstanceId: offers.nordbad, quantity: 2 },
    });
    expect(added.status).toBeLessThan(300);
    const profile = await t.request('GET', '/v1/UserProfile', { as: BUYER });

    const pool = createPool(t.databaseUrl, 1, { connectionTimeoutMillis: 3_000 });
    try {
      const db = createDb(pool);
      const deps: AppDeps = { config: t.config, db, pool, jobs: t.jobs, mail: t.mail, prices: undefined };
      const catalog = catalogueOfferCatalog(db, priceStrategyOf(deps));
      const service = new CheckoutService(deps, catalog, new CartsService(db, catalog));
      const caller: Caller = {
        userId: profile.body.id,
        email: BUYER,
        firstName: profile.body.firstName,
        lastName: profile.body.lastName,
        role: Role.Buyer,
        bpNumber: profile.body.currentBpNumber,
        partners: profile.body.availableBusinessPartners.map((p: { number: string }) => p.number),
        idsContextId: null,
      };
      const order = await service.checkout(caller, caller.bpNumber!, cart.body.id);
      expect(order.customerOrderNumber).toBeTruthy();
      const { rows } = await t.pool.query('SELECT total_net FROM customer_orders WHERE customer_order_number = $1', [
        order.customerOrderNumber,
      ]);
      expect(Number(rows[0].total_net)).toBeCloseTo(39.98, 2);
    } finally {
      await pool.end();
    }
  });
});
