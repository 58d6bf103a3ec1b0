import { expect } from 'vitest';
import { CommunicationProtocol, CommunicationDataFormat, SupplierOrderStatus } from '@shk/contracts';
import { offers } from '../support/cart-fixtures.ts';
import { eventually, type TestApp } from '../support/test-app.ts';
import { SecretBox } from '../../src/modules/transmission/secret-box.ts';
import { WorkflowsService, type WorkflowInput } from '../../src/modules/transmission/workflows.service.ts';

export { CommunicationProtocol as Protocol, CommunicationDataFormat as Format };
export const BUYER = 'einkauf@example.com';

export interface SupplierSetup {
  protocol: number;
  formats: number[];
  email?: string | null;
  folder?: string | null;
  workflowId?: number | null;
  as2Identifier?: string | null;
  as2Url?: string | null;
  status?: number;
}

/** Sets a demo supplier's outbound interface (the supplier settings an administrator maintains). */
export async function configureSupplier(t: TestApp, bp: string, s: SupplierSetup) {
  await t.pool.query(
    `UPDATE suppliers SET out_com_protocol_id = $2, out_data_formats = $3, out_email_address = $4, out_ftp_folder = $5,
            workflow_id = $6, out_as2_identifier = $7, out_as2_url = $8, supplier_status_id = $9 WHERE bp_number = $1`,
    [
      bp,
      s.protocol,
      s.formats,
      s.email ?? null,
      s.folder ?? null,
      s.workflowId ?? null,
      s.as2Identifier ?? null,
      s.as2Url ?? null,
      s.status ?? 1,
    ],
  );
}

export function workflowsOf(t: TestApp) {
  return new WorkflowsService(t.pool, SecretBox.of(t.config));
}

export async function createWorkflow(t: TestApp, input: WorkflowInput) {
  return workflowsOf(t).create(input);
}

/** Buyer 100001 orders the given offers through the real cart and checkout API; returns its supplier orders. */
export async function placeOrder(
  t: TestApp,
  items: { offer: string; quantity: number; comment?: string }[],
  options: { attachment?: { name: string; content: Buffer } } = {},
) {
  // The default cart: a partner may only keep a limited number of carts, and checkout empties it.
  const cart = await t.request('GET', '/v1/MultiCarts/Default', { as: BUYER });
  expect(cart.status).toBe(200);
  for (const item of items) {
    const res = await t.request('POST', '/v1/CartItems', {
      as: BUYER,
      body: { cartId: cart.body.id, productInstanceId: item.offer, quantity: item.quantity },
    });
    expect(res.status).toBeLessThan(300);
    const itemId = res.body.cartItemId;
    if (item.comment) await t.pool.query('UPDATE cart_items SET comment = $2 WHERE id = $1', [itemId, item.comment]);
    if (options.attachment) {
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(options.attachment.content)]), options.attachment.name);
      const up = await t.request('POST', `/v1/CartItems/${itemId}/attachments`, { as: BUYER, body: form });
      expect(up.status).toBe(200);
    }
  }
  const checkout = await t.request('POST', `/v1/MultiCarts/${cart.body.id}/checkout`, { as: BUYER });
  expect(checkout.status).toBe(200);
  const { rows } = await t.pool.query(
    `SELECT so.id, so.supplier_order_number, so.supplier_bp_number, so.status_id, so.is_test
       FROM supplier_orders so JOIN customer_orders co ON co.id = so.customer_order_id
      WHERE co.customer_order_number = $1 ORDER BY so.id`,
    [checkout.body.customerOrderNumber],
  );
  return {
    customerOrderNumber: checkout.body.customerOrderNumber as string,
    supplierOrders: rows.map((r) => ({
      id: Number(r.id),
      number: r.supplier_order_number as string,
      supplier: r.supplier_bp_number as string,
      isTest: r.is_test as boolean,
    })),
  };
}

export async function statusOf(t: TestApp, supplierOrderNumber: string): Promise<number> {
  const { rows } = await t.pool.query('SELECT status_id FROM supplier_orders WHERE supplier_order_number = $1', [
    supplierOrderNumber,
  ]);
  return rows[0].status_id;
}

export function waitForStatus(t: TestApp, supplierOrderNumber: string, status: number, timeoutMs = 20_000) {
  return eventually(async () => (await statusOf(t, supplierOrderNumber)) === status, timeoutMs);
}

/** Nordbad (200001) and AquaTherm (200003) receive their orders by e-mail as PDF, at bestellung@<bp>.example. */
export async function configureEmailSuppliers(t: TestApp) {
  for (const bp of ['200001', '200003'])
    await configureSupplier(t, bp, {
      protocol: CommunicationProtocol.Email,
      formats: [CommunicationDataFormat.Pdf],
      email: `bestellung@${bp}.example`,
    });
}

/**
 * The buyer orders 3 × 19,99 € + 1 × 100 € at Nordbad and 20 m at AquaTherm (250 €); waits until the transmission
 * worker has sent both supplier orders (configureEmailSuppliers first).
 */
export async function placeSentOrder(t: TestApp) {
  const order = await placeOrder(t, [
    { offer: offers.nordbad, quantity: 3 },
    { offer: offers.nordbadExpensive, quantity: 1 },
    { offer: offers.aquatherm, quantity: 20 },
  ]);
  const nordbad = order.supplierOrders.find((s) => s.supplier === '200001')!.number;
  const aqua = order.supplierOrders.find((s) => s.supplier === '200003')!.number;
  await waitForStatus(t, nordbad, SupplierOrderStatus.Sent);
  await waitForStatus(t, aqua, SupplierOrderStatus.Sent);
  return { customerOrderNumber: order.customerOrderNumber, nordbad, aqua };
}
