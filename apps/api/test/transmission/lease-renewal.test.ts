/**
 * A transmission that takes longer than the lease stays with the worker that claimed it: the worker renews the leases
 * of the attempts it runs, so no worker (this one included) claims the row again and sends the order twice. A worker
 * that died renews nothing (kill.test.ts: its claims are taken over once the lease ran out).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupplierOrderStatus } from '@shk/contracts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import { startHttpPeer, type HttpPeer } from '../support/transmission-peers.ts';
import { Format, Protocol, configureSupplier, createWorkflow, placeOrder, waitForStatus } from './order-fixtures.ts';

let t: TestApp;
let receiver: HttpPeer;
const AQUATHERM = '200003';
const LEASE_MS = 900;

beforeAll(async () => {
  receiver = await startHttpPeer();
  t = await startTestApp({
    env: {
      TRANSMISSION_ALLOWED_HOSTS: '127.0.0.1',
      TRANSMISSION_LEASE_MS: String(LEASE_MS),
      TRANSMISSION_POLL_MS: '50',
    },
  });
  await insertTestOffers(t.pool);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe('transmission lease', () => {
  it('an attempt slower than three leases is sent once: its lease is renewed while it runs', async () => {
    const workflow = await createWorkflow(t, {
      name: 'AquaTherm langsam',
      communicationProtocol: Protocol.Api,
      baseUrl: receiver.url,
      password: 'api-token-langsam',
    });
    await configureSupplier(t, AQUATHERM, { protocol: Protocol.Api, formats: [Format.Pdf], workflowId: workflow.id });
    receiver.delayMs = LEASE_MS * 3;
    const [so] = (await placeOrder(t, [{ offer: offers.aquatherm, quantity: 10 }])).supplierOrders;
    await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
    const key = `shk-${so.number}`;
    expect(receiver.requests.filter((r) => r.headers['idempotency-key'] === key)).toHaveLength(1);
    const { rows } = await t.pool.query(
      'SELECT attempt_no, outcome FROM supplier_order_transmission_attempts WHERE supplier_order_id = $1 ORDER BY attempt_no',
      [so.id],
    );
    expect(rows).toEqual([{ attempt_no: 1, outcome: 'sent' }]);
  });
});
