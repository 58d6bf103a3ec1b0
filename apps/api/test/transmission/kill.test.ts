import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SupplierOrderStatus } from '@shk/contracts';
import { startTestApp, eventually, type TestApp } from '../support/test-app.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import { startHttpPeer, type HttpPeer } from '../support/transmission-peers.ts';
import { Format, Protocol, configureSupplier, createWorkflow, placeOrder } from './order-fixtures.ts';

let t: TestApp;
let receiver: HttpPeer;
const children: ChildProcess[] = [];
const CHECKOUTS = 15;

beforeAll(async () => {
  receiver = await startHttpPeer();
  receiver.delayMs = 40;
  // The app process transmits nothing: the worker runs in child processes that the test kills.
  process.env.TRANSMISSION_WORKER = 'off';
  t = await startTestApp({ env: { TRANSMISSION_ALLOWED_HOSTS: '127.0.0.1' } });
  await insertTestOffers(t.pool);
}, 60_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await t?.close();
  await receiver?.close();
});

function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'worker-child.ts')], {
    cwd: path.resolve(import.meta.dirname, '../../../..'),
    env: {
      ...process.env,
      DATABASE_URL: t.databaseUrl,
      DATA_DIR: t.config.dataDir,
      TRANSMISSION_CONCURRENCY: '4',
      TRANSMISSION_LEASE_MS: '1500',
      TRANSMISSION_POLL_MS: '50',
      TRANSMISSION_RETRY_BASE_MS: '100',
      // The receiver runs on loopback, an internal address the operator allowlist must name.
      TRANSMISSION_ALLOWED_HOSTS: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child));
    child.on('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

it('a worker killed with SIGKILL mid-batch loses nothing: after a restart every order ends Sent, each delivered once', async () => {
  const workflow = await createWorkflow(t, {
    name: 'Kill-Test HTTP',
    communicationProtocol: Protocol.Http,
    baseUrl: receiver.url,
  });
  for (const bp of ['200001', '200003'])
    await configureSupplier(t, bp, { protocol: Protocol.Http, formats: [Format.Edi_96A], workflowId: workflow.id });
  const numbers: string[] = [];
  for (let i = 0; i < CHECKOUTS; i++) {
    const order = await placeOrder(t, [
      { offer: offers.nordbad, quantity: 1 + i },
      { offer: offers.aquatherm, quantity: 10 },
    ]);
    numbers.push(...order.supplierOrders.map((s) => s.number));
  }
  expect(numbers).toHaveLength(CHECKOUTS * 2);

  const first = await startWorker();
  await eventually(async () => receiver.requests.length >= 8, 30_000);
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  const sentAtKill = Number(
    (
      await t.pool.query(
        'SELECT count(*) FROM supplier_orders WHERE supplier_order_number = ANY($1) AND status_id = 2',
        [numbers],
      )
    ).rows[0].count,
  );
  expect(sentAtKill).toBeLessThan(numbers.length); // killed mid-batch

  await startWorker();
  await eventually(async () => {
    const { rows } = await t.pool.query(
      'SELECT count(*) FROM supplier_orders WHERE supplier_order_number = ANY($1) AND status_id = $2',
      [numbers, SupplierOrderStatus.Sent],
    );
    return Number(rows[0].count) === numbers.length;
  }, 60_000);

  // Exactly one stored delivery per order (the receiver keeps the first of each Idempotency-Key).
  const keys = [...receiver.stored.keys()].sort();
  expect(keys).toEqual(numbers.map((n) => `shk-${n}-2`).sort());
  // Only the documents in flight at the kill were posted a second time (at most the worker's concurrency).
  expect(receiver.requests.length - numbers.length).toBeLessThanOrEqual(4);
  const { rows } = await t.pool.query(
    `SELECT count(*) FILTER (WHERE state = 'sent') AS sent, count(*) AS total FROM supplier_order_transmissions t
       JOIN supplier_orders so ON so.id = t.supplier_order_id WHERE so.supplier_order_number = ANY($1)`,
    [numbers],
  );
  expect(Number(rows[0].sent)).toBe(numbers.length);
}, 180_000);
