import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupplierOrderStatus } from '@shk/contracts';
import { eventually, startTestApp, type TestApp } from '../support/test-app.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/transmission-peers.ts';
import { configureEmailSuppliers, placeOrder, statusOf, waitForStatus } from './order-fixtures.ts';

/**
 * The transmission worker records its successful attempts in batches after the delivery (sent-recorder.ts). When the
 * recording cannot be written, the delivery that happened must neither be reported failed nor sent again: the worker
 * writes it again until it succeeds.
 */

let t: TestApp;
let smtp: SmtpPeer;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  process.env.TRANSMISSION_POLL_MS = '50';
  t = await startTestApp({
    env: { SMTP_URL: smtp.url, TRANSMISSION_RETRY_BASE_MS: '100', TRANSMISSION_RETRY_MAX_MS: '200' },
  });
  await insertTestOffers(t.pool);
  await configureEmailSuppliers(t);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const mailsOf = (supplierOrderNumber: string) =>
  smtp.messages.filter(
    (m) => m.raw.includes(`Bestellung_${supplierOrderNumber}.pdf`) && m.to[0]?.startsWith('bestellung@'),
  );

describe('recording a delivery', () => {
  it('a recording the database refuses is written again: the order is sent once and ends Sent, no failed attempt', async () => {
    // Until the constraint is dropped, no attempt can be closed as 'sent' (the database refuses the recording).
    await t.pool.query(
      `ALTER TABLE supplier_order_transmission_attempts ADD CONSTRAINT refuse_sent CHECK (outcome <> 'sent') NOT VALID`,
    );
    let order: Awaited<ReturnType<typeof placeOrder>>;
    try {
      order = await placeOrder(t, [
        { offer: offers.nordbad, quantity: 2 },
        { offer: offers.aquatherm, quantity: 20 },
      ]);
      // Both mails go out; their recording fails (and is retried) for a while, far longer than the retry backoff.
      for (const so of order.supplierOrders) await eventually(async () => mailsOf(so.number).length === 1, 20_000);
      await sleep(2500);
      for (const so of order.supplierOrders) expect(await statusOf(t, so.number)).toBe(SupplierOrderStatus.Created);
    } finally {
      await t.pool.query('ALTER TABLE supplier_order_transmission_attempts DROP CONSTRAINT refuse_sent');
    }
    for (const so of order.supplierOrders) await waitForStatus(t, so.number, SupplierOrderStatus.Sent);

    for (const so of order.supplierOrders) {
      expect(mailsOf(so.number), so.number).toHaveLength(1);
      const { rows } = await t.pool.query<{ attempt_no: number; outcome: string }>(
        'SELECT attempt_no, outcome FROM supplier_order_transmission_attempts WHERE supplier_order_id = $1 ORDER BY attempt_no',
        [so.id],
      );
      expect(rows).toEqual([{ attempt_no: 1, outcome: 'sent' }]);
    }
    const state = await t.pool.query<{ state: string; attempts: number }>(
      'SELECT state, attempts FROM supplier_order_transmissions WHERE supplier_order_id = ANY($1) ORDER BY supplier_order_id',
      [order.supplierOrders.map((so) => so.id)],
    );
    expect(state.rows).toEqual(order.supplierOrders.map(() => ({ state: 'sent', attempts: 1 })));
  });
});
