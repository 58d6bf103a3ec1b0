/**
 * The customer order's status follows its supplier orders (refresh_customer_order_status, migration 0630): the SQL
 * rule is the contracts' rule on every combination, two supplier orders of one order changing in concurrent
 * transactions leave the right status, and supplier orders of one checkout delivered at once all end Sent with the
 * customer order awaiting confirmation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomerOrderStatus, SupplierOrderStatus, deriveCustomerOrderStatus } from '@shk/contracts';
import { eventually, startTestApp, type TestApp } from '../support/test-app.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/transmission-peers.ts';
import { changeSupplierOrderStatus } from '../../src/modules/transmission/index.ts';
import { configureEmailSuppliers, placeOrder, waitForStatus } from './order-fixtures.ts';

let t: TestApp;
let smtp: SmtpPeer;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await startTestApp({ env: { SMTP_URL: smtp.url, TRANSMISSION_ALLOWED_HOSTS: '127.0.0.1' } });
  await insertTestOffers(t.pool);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** Every multiset of supplier order statuses with up to four members. */
function statusCombinations(): number[][] {
  const all: number[][] = [[]];
  const grow = (prefix: number[], from: number) => {
    if (prefix.length === 4) return;
    for (let s = from; s <= 6; s++) {
      const next = [...prefix, s];
      all.push(next);
      grow(next, s);
    }
  };
  grow([], 1);
  return all;
}

const customerStatus = async (number: string) =>
  (await t.pool.query('SELECT status_id FROM customer_orders WHERE customer_order_number = $1', [number])).rows[0]
    .status_id as number;

describe('customer order status', () => {
  it('the database derives the same status as deriveCustomerOrderStatus on every combination', async () => {
    const combinations = statusCombinations();
    expect(combinations.length).toBe(210);
    const { rows } = await t.pool.query<{ i: string; status: number }>(
      `SELECT i, derive_customer_order_status(string_to_array(s, ',')::smallint[]) AS status
         FROM unnest($1::text[]) WITH ORDINALITY AS c(s, i)`,
      [combinations.map((c) => c.join(','))],
    );
    for (const r of rows) {
      const statuses = combinations[Number(r.i) - 1];
      expect([statuses, r.status]).toEqual([statuses, deriveCustomerOrderStatus(statuses)]);
    }
  });

  it('two supplier orders of one order sent in concurrent transactions: the second derives with the first one sent', async () => {
    // Nothing configured for delivery: the worker leaves both in Created, the test moves them itself.
    const order = await placeOrder(t, [
      { offer: offers.nordbad, quantity: 1 },
      { offer: offers.aquatherm, quantity: 10 },
    ]);
    const [first, second] = order.supplierOrders;
    await t.pool.query('DELETE FROM supplier_order_transmissions WHERE supplier_order_id = ANY($1)', [
      [first.id, second.id],
    ]);
    const a = await t.pool.connect();
    const b = await t.pool.connect();
    try {
      await a.query('BEGIN');
      await b.query('BEGIN');
      expect(await changeSupplierOrderStatus(a, first.id, SupplierOrderStatus.Sent)).toBe(true);
      // b's snapshot still sees the first order Created; its refresh waits for a's lock and then reads it Sent.
      const secondDone = changeSupplierOrderStatus(b, second.id, SupplierOrderStatus.Sent);
      await eventually(async () => {
        const { rows } = await t.pool.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'`,
          [(b as unknown as { processID: number }).processID],
        );
        return rows[0].n === 1;
      }, 10_000);
      await a.query('COMMIT');
      expect(await secondDone).toBe(true);
      await b.query('COMMIT');
    } finally {
      a.release();
      b.release();
    }
    expect(await customerStatus(order.customerOrderNumber)).toBe(CustomerOrderStatus.AwaitingConfirmation);
  });

  it('the supplier orders of one checkout delivered at once all end Sent and the customer order awaits confirmation', async () => {
    await configureEmailSuppliers(t);
    const order = await placeOrder(t, [
      { offer: offers.nordbad, quantity: 2 },
      { offer: offers.aquatherm, quantity: 20 },
    ]);
    expect(order.supplierOrders).toHaveLength(2);
    for (const so of order.supplierOrders) await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
    expect(await customerStatus(order.customerOrderNumber)).toBe(CustomerOrderStatus.AwaitingConfirmation);
    const { rows } = await t.pool.query(
      `SELECT count(*)::int AS n FROM supplier_order_transmission_attempts
        WHERE supplier_order_id = ANY($1) AND outcome = 'sent'`,
      [order.supplierOrders.map((s) => s.id)],
    );
    expect(rows[0].n).toBe(2);
  });
});
