/**
 * The checkout's transaction on a pool of its own (bench:load):
 * - it must not wait for a second pool connection while it holds one: with as many concurrent checkouts as the pool
 *   has connections they all waited for each other until the pool's timeout (bench:load, 2026-11-26: 30 s, then
 *   503). With a pool of one connection a checkout shows it alone;
 * - every statement is a round trip while the transaction holds its connection and the cart's lock. A cart whose
 *   lines have no project and no delivery address of their own reads neither projects nor addresses (carts.test.ts
 *   covers the lines that have them); the ordering partner and its customer numbers at the suppliers are read in one
 *   statement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { Role } from '@shk/contracts';
import { createDb, createPool } from '../../db/pool.ts';
import type { AppDeps } from '../../http/types.ts';
import type { Caller } from '../../http/auth.ts';
import { eventually, startTestApp, type TestApp } from '../../../test/support/test-app.ts';
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

/** A new cart of the buyer with two of one offer; the cart's id and the buyer as the auth hook would find them. */
async function cartWithOneLine(name: string): Promise<{ cartId: number; caller: Caller }> {
  const cart = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name } });
  expect(cart.status).toBe(201);
  const added = await t.request('POST', '/v1/CartItems', {
    as: BUYER,
    body: { cartId: cart.body.id, productInstanceId: offers.nordbad, quantity: 2 },
  });
  expect(added.status).toBeLessThan(300);
  const profile = await t.request('GET', '/v1/UserProfile', { as: BUYER });
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
  return { cartId: cart.body.id, caller };
}

/** The checkout service wired as the app wires it, but on the given pool. */
function checkoutServiceOn(pool: pg.Pool): CheckoutService {
  const db = createDb(pool);
  const deps: AppDeps = {
    config: t.config,
    db,
    pool,
    jobs: t.jobs,
    mail: t.mail,
    lifecycle: t.lifecycle,
    prices: undefined,
  };
  const catalog = catalogueOfferCatalog(db, priceStrategyOf(deps));
  return new CheckoutService(deps, catalog, new CartsService(db, catalog));
}

describe('checkout and the connection pool', () => {
  it('completes on a pool of one connection (no second connection while the transaction holds the first)', async () => {
    const { cartId, caller } = await cartWithOneLine('Ein Anschluss');
    const pool = createPool(t.databaseUrl, 1, { connectionTimeoutMillis: 3_000 });
    try {
      const order = await checkoutServiceOn(pool).checkout(caller, caller.bpNumber!, cartId);
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

describe('checkout statements', () => {
  it('a cart without projects and delivery addresses reads neither; partner and customer numbers in one statement', async () => {
    const { cartId, caller } = await cartWithOneLine('Ohne Projekt');

    // A pool of its own whose connections record their statements.
    const statements: string[] = [];
    const pool = createPool(t.databaseUrl, 2);
    pool.on('connect', (client: pg.PoolClient) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const first = args[0];
        statements.push(typeof first === 'string' ? first : String((first as { text?: string })?.text ?? first));
        return query(...args);
      };
    });
    try {
      const order = await checkoutServiceOn(pool).checkout(caller, caller.bpNumber!, cartId);
      expect(order.customerOrderNumber).toBeTruthy();
      expect(statements.some((s) => /INSERT INTO supplier_orders/.test(s))).toBe(true);
      expect(statements.filter((s) => /FROM (projects|delivery_addresses)\b/.test(s))).toEqual([]);
      // Partner and customer numbers in one statement.
      const partnerReads = statements.filter(
        (s) =>
          // the offers' snapshot names the supplier's name (not the ordering partner)
          !/FROM product_offers\b/.test(s) &&
          /FROM business_partners\b|^\s*SELECT\b[\s\S]*\bsupplier_customer_number\b[\s\S]*FROM supplier_customers\b/.test(
            s,
          ),
      );
      expect(partnerReads).toHaveLength(1);
    } finally {
      await pool.end();
    }
    const snapshot = await t.pool.query(
      `SELECT s.supplier_bp_number, s.supplier_customer_number, c.customer_address->>'name' AS name,
              (SELECT coalesce(official_company_name, name) FROM business_partners WHERE bp_number = c.bp_number) AS partner
         FROM supplier_orders s JOIN customer_orders c ON c.id = s.customer_order_id WHERE c.cart_id = $1`,
      [cartId],
    );
    expect(snapshot.rows).toHaveLength(1);
    const [so] = snapshot.rows;
    expect(so.name).toBe(so.partner);
    const customerNumber = await t.pool.query(
      'SELECT supplier_customer_number FROM supplier_customers WHERE buyer_bp_number = $1 AND supplier_bp_number = $2',
      [caller.bpNumber, so.supplier_bp_number],
    );
    expect(so.supplier_customer_number).toBe(customerNumber.rows[0]?.supplier_customer_number ?? null);
    expect(so.supplier_customer_number).toBeTruthy();
    const { rows } = await t.pool.query(
      `SELECT l.project_code, l.delivery_address FROM order_lines l
         JOIN supplier_orders s ON s.id = l.supplier_order_id JOIN customer_orders c ON c.id = s.customer_order_id
        WHERE c.cart_id = $1`,
      [cartId],
    );
    expect(rows).toEqual([{ project_code: null, delivery_address: null }]);
  });
});

describe('the checkout transaction’s round trips', () => {
  it('reads the partner with the suppliers’ delivery settings, writes customer and supplier orders, empties the cart with its reset: one statement each', async () => {
    const { cartId, caller } = await cartWithOneLine('Wenige Rundreisen');
    // The supplier charges delivery below a threshold the cart does not reach: the order's delivery cost comes from
    // the settings read with the partner.
    const { rows: line } = await t.pool.query<{ supplier_bp_number: string }>(
      `SELECT o.supplier_bp_number FROM cart_items i JOIN product_offers o ON o.product_instance_id = i.product_instance_id
        WHERE i.cart_id = $1`,
      [cartId],
    );
    const supplier = line[0].supplier_bp_number;
    await t.pool.query(
      'UPDATE suppliers SET delivery_cost = 7.45, free_delivery_threshold = 500 WHERE bp_number = $1',
      [supplier],
    );
    const inTransaction: string[] = [];
    let open = false;
    const pool = createPool(t.databaseUrl, 2);
    pool.on('connect', (client: pg.PoolClient) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const first = args[0];
        const text = typeof first === 'string' ? first : String((first as { text?: string })?.text ?? first);
        if (/^BEGIN/.test(text)) open = true;
        if (open) inTransaction.push(text.replace(/\s+/g, ' ').trim());
        if (/^(COMMIT|ROLLBACK)/.test(text)) open = false;
        return query(...args);
      };
    });
    try {
      const order = await checkoutServiceOn(pool).checkout(caller, caller.bpNumber!, cartId);
      const { rows } = await t.pool.query(
        `SELECT c.delivery_cost_total::float AS total, s.delivery_cost::float AS supplier_cost, c.total_net::float AS net
           FROM customer_orders c JOIN supplier_orders s ON s.customer_order_id = c.id WHERE c.customer_order_number = $1`,
        [order.customerOrderNumber],
      );
      expect(rows).toEqual([{ total: 7.45, supplier_cost: 7.45, net: 39.98 }]);
      const { rows: cart } = await t.pool.query(
        'SELECT last_order_number, (SELECT count(*)::int FROM cart_items WHERE cart_id = $1) AS items FROM carts WHERE id = $1',
        [cartId],
      );
      expect(cart).toEqual([{ last_order_number: order.customerOrderNumber, items: 0 }]);
    } finally {
      await pool.end();
      // The partner's carts are limited: this one goes again.
      expect((await t.request('DELETE', `/v1/MultiCarts/${cartId}`, { as: BUYER })).status).toBeLessThan(300);
      await t.pool.query('UPDATE suppliers SET delivery_cost = 0, free_delivery_threshold = 0 WHERE bp_number = $1', [
        supplier,
      ]);
    }
    // No statement of its own for the suppliers' settings or for emptying the cart.
    expect(inTransaction.filter((s) => /^SELECT s\.bp_number, b\.name, s\.delivery_cost/.test(s))).toEqual([]);
    expect(inTransaction.filter((s) => /^DELETE FROM cart_items/.test(s))).toEqual([]);
    expect(inTransaction.filter((s) => /DELETE FROM cart_items/.test(s))).toHaveLength(1);
    // The customer order with its supplier orders in one statement.
    expect(inTransaction.filter((s) => /INSERT INTO (customer|supplier)_orders/.test(s))).toHaveLength(1);
    expect(
      inTransaction.filter((s) => /INSERT INTO customer_orders[\s\S]*INSERT INTO supplier_orders/.test(s)),
    ).toHaveLength(1);
    // The supplier orders' transmission requests (outbox) in the same statement; one row per supplier order.
    expect(inTransaction.filter((s) => /INSERT INTO supplier_order_transmissions/.test(s))).toHaveLength(1);
    expect(inTransaction.filter((s) => /^INSERT INTO supplier_order_transmissions/.test(s))).toEqual([]);
    const { rows: outbox } = await t.pool.query(
      `SELECT t.idempotency_key = 'shk-' || s.supplier_order_number AS keyed FROM supplier_order_transmissions t
         JOIN supplier_orders s ON s.id = t.supplier_order_id JOIN customer_orders c ON c.id = s.customer_order_id
        WHERE c.cart_id = $1`,
      [cartId],
    );
    expect(outbox).toEqual([{ keyed: true }]);
    // BEGIN, cart lock, its items, partner (with customer numbers and settings), customer and supplier orders with their
    // transmission requests, lines, cart reset, the mail and its job, COMMIT.
    expect(inTransaction).toHaveLength(10);
  });
});

describe('checkout statements prepared once per connection', () => {
  it('after a few checkouts on one connection the offers, lines and supplier outbox rows run a prepared plan', async () => {
    // Unnamed, every statement was parsed and planned on every checkout (bench:checkout with track_planning: 6 ms of
    // planning beside 7 ms of execution). Postgres plans a prepared statement for its values five times, then reuses
    // a generic plan when that is no costlier.
    const pool = createPool(t.databaseUrl, 1);
    try {
      const service = checkoutServiceOn(pool);
      for (let i = 0; i < 7; i++) {
        const { cartId, caller } = await cartWithOneLine(`Vorbereitet ${i}`);
        const order = await service.checkout(caller, caller.bpNumber!, cartId);
        expect(order.customerOrderNumber).toBeTruthy();
      }
      const { rows } = await pool.query<{ name: string; generic_plans: string; custom_plans: string }>(
        'SELECT name, generic_plans, custom_plans FROM pg_prepared_statements',
      );
      const byName = new Map(rows.map((r) => [r.name, r]));
      const prepared = [
        'offer-snapshot-rows',
        'offer-ids-of-cart',
        'relation-states',
        'checkout-partner',
        'checkout-orders',
        'checkout-order-lines',
        'reset-cart-after-checkout',
      ];
      for (const name of prepared) {
        const counts = byName.get(name);
        expect(counts, name).toBeDefined();
        // prepared once: every call counted on this connection's one statement
        expect(Number(counts!.generic_plans) + Number(counts!.custom_plans), name).toBeGreaterThanOrEqual(7);
      }
      // The plan of a statement whose best plan does not depend on its values is reused (the offers' and settings'
      // plans depend on the cart's size: a one-line cart keeps planning them for its values, cheap key lookups).
      for (const name of ['offer-ids-of-cart', 'checkout-order-lines', 'reset-cart-after-checkout']) {
        expect(Number(byName.get(name)!.generic_plans), name).toBeGreaterThan(0);
      }
    } finally {
      await pool.end();
    }
  });
});

describe('the buyer’s order mail', () => {
  it('is written with its delivery job in the checkout’s transaction and delivered once', async () => {
    const { cartId } = await cartWithOneLine('Mail in der Transaktion');
    const placed = await t.request('POST', `/v1/MultiCarts/${cartId}/checkout`, { as: BUYER });
    expect(placed.status).toBe(200);
    const number: string = placed.body.customerOrderNumber;
    const { rows: mails } = await t.pool.query<{ id: string; created_at: Date; dispatched_at: Date | null }>(
      'SELECT id, created_at, dispatched_at FROM mail_outbox WHERE to_address = $1 AND body_text LIKE $2',
      [BUYER, `%${number}%`],
    );
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    // now() is the transaction's start: the job and the mail share it only when written in the same transaction (a
    // dispatch after the commit wrote the job, and marked the mail dispatched, in transactions of their own).
    const { rows: jobs } = await t.pool.query<{ created_on: Date }>(
      `SELECT created_on FROM pgboss.job WHERE name = 'mail.send' AND data->>'id' = $1`,
      [mail.id],
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0].created_on.getTime()).toBe(mail.created_at.getTime());
    expect(mail.dispatched_at?.getTime()).toBe(mail.created_at.getTime());
    const sent = await eventually(async () => {
      const { rows } = await t.pool.query('SELECT status, attempts FROM mail_outbox WHERE id = $1', [mail.id]);
      return rows[0].status === 'sent' ? rows[0] : null;
    });
    expect(sent.attempts).toBe(1);
  });
});
