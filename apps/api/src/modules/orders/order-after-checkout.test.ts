/**
 * What the buyer does with an order beyond placing it: a reference and note for the whole order (stored, limited,
 * sent to the supplier in the EDIFACT message and the PDF, shown in the order views), 'Erneut bestellen' into a cart
 * of the buyer's choice, the printable order PDF, and searching the order list by number, article and project.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessToday, cartMessages, limits } from '@shk/contracts';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { insertTestOffers, offers } from '../../../test/support/cart-fixtures.ts';
import { parseWithTsEdifact } from '../../../test/support/edifact-directory.ts';
import { ensureDebianPackage } from '../../../test/support/debian-peers.ts';
import { loadOrder } from '../transmission/transmission.repo.ts';
import { ordersMessage } from '../transmission/formats/edifact-orders.ts';

const BUYER = 'einkauf@example.com';
const SELLER = 'verkauf@example.com'; // supplier 200001 (Nordbad)
const OTHER_BUYER_PARTNER = '100003';
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  await insertTestOffers(t.pool);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** A new cart of the buyer with the given lines; returns its id. */
async function cartWith(name: string, lines: { offer: string; quantity: number; comment?: string }[]) {
  const cart = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name } });
  expect(cart.status).toBe(201);
  for (const line of lines) {
    const added = await t.request('POST', '/v1/CartItems', {
      as: BUYER,
      body: { cartId: cart.body.id, productInstanceId: line.offer, quantity: line.quantity, comment: line.comment },
    });
    expect(added.status).toBeLessThan(300);
  }
  return Number(cart.body.id);
}

async function placeOrder(cartId: number, body?: unknown): Promise<string> {
  const placed = await t.request('POST', `/v1/MultiCarts/${cartId}/checkout`, { as: BUYER, body });
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  return placed.body.customerOrderNumber;
}

const supplierOrderOf = async (customerOrderNumber: string, supplierBp = '200001') =>
  (
    await t.pool.query<{ id: string; supplier_order_number: string }>(
      `SELECT so.id, so.supplier_order_number FROM supplier_orders so JOIN customer_orders co ON co.id = so.customer_order_id
        WHERE co.customer_order_number = $1 AND so.supplier_bp_number = $2`,
      [customerOrderNumber, supplierBp],
    )
  ).rows[0];

const pdfText = (bytes: Buffer) =>
  execFileSync('pdftotext', ['-', '-'], { input: bytes }).toString().replaceAll('\u00a0', ' ');

describe('reference and note for the whole order', () => {
  const reference = 'Kommission Müller+Söhne 4711'; // a service character of EDIFACT inside
  const note = "Bitte vor Anlieferung anrufen: 0221/123456. Zufahrt über Tor 3, nicht über den Hof ('Hinterhaus').";
  let orderNumber: string;

  beforeAll(async () => {
    const cartId = await cartWith('Kommission', [{ offer: offers.nordbad, quantity: 2 }]);
    orderNumber = await placeOrder(cartId, { orderReference: `  ${reference} `, orderNote: note });
  });

  it('are stored with the order and shown in the buyer’s and the seller’s order views', async () => {
    const details = await t.request('GET', `/v1/CustomerOrders/${orderNumber}/Details`, { as: BUYER });
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({ orderReference: reference, orderNote: note });
    const so = await supplierOrderOf(orderNumber);
    const seller = await t.request('GET', `/v1/SupplierOrders/${so.supplier_order_number}/Details`, { as: SELLER });
    expect(seller.status).toBe(200);
    expect(seller.body).toMatchObject({ orderReference: reference, orderNote: note });
  });

  it('reach the supplier in the EDIFACT ORDERS message: RFF+CR for the reference, FTX+PUR for the note', async () => {
    const so = await supplierOrderOf(orderNumber);
    const order = (await loadOrder(t.pool, Number(so.id)))!;
    for (const version of ['96A', '97A'] as const) {
      const segments = parseWithTsEdifact(ordersMessage(order, { version, platformGln: '4399902421007' }));
      const rff = segments.filter((s) => s.name === 'RFF').map((s) => s.elements[0]);
      expect(rff).toContainEqual(['CR', reference]);
      const ftx = segments.filter((s) => s.name === 'FTX' && s.elements[0][0] === 'PUR');
      expect(ftx.flatMap((s) => s.elements[3]).join(' ')).toBe(note);
      // Header segments: before the first line group.
      const firstLin = segments.findIndex((s) => s.name === 'LIN');
      expect(segments.indexOf(ftx[0])).toBeLessThan(firstLin);
    }
  });

  it('are printed on the order PDF, which the buyer can download from the order detail', async () => {
    const so = await supplierOrderOf(orderNumber);
    const pdf = await fetch(
      `${t.baseUrl}/v1/CustomerOrders/${orderNumber}/SupplierOrders/${so.supplier_order_number}/Pdf`,
      { headers: { authorization: `Bearer ${await t.token(BUYER)}` } },
    );
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const skip = ensureDebianPackage('/usr/bin/pdftotext', 'poppler-utils');
    if (skip) return console.warn(`PDF-Text nicht geprüft: ${skip}`);
    const text = pdfText(bytes);
    expect(text).toContain(`Bestellung ${so.supplier_order_number}`);
    expect(text).toContain(`${cartMessages.orderReferenceLabel}: ${reference}`);
    expect(text.replace(/\s+/g, ' ')).toContain(`${cartMessages.orderNoteLabel}: ${note}`);
  });

  it('another partner’s order PDF and an unknown supplier order are a 404', async () => {
    const so = await supplierOrderOf(orderNumber);
    await t.pool.query('UPDATE customer_orders SET bp_number = $2 WHERE customer_order_number = $1', [
      orderNumber,
      OTHER_BUYER_PARTNER,
    ]);
    try {
      const foreign = await t.request(
        'GET',
        `/v1/CustomerOrders/${orderNumber}/SupplierOrders/${so.supplier_order_number}/Pdf`,
        { as: BUYER },
      );
      expect(foreign.status).toBe(404);
    } finally {
      await t.pool.query(`UPDATE customer_orders SET bp_number = '100001' WHERE customer_order_number = $1`, [
        orderNumber,
      ]);
    }
    const unknown = await t.request('GET', `/v1/CustomerOrders/${orderNumber}/SupplierOrders/LB-999999/Pdf`, {
      as: BUYER,
    });
    expect(unknown.status).toBe(404);
  });

  it('a reference or note over its limit is refused (400) and the cart keeps its lines', async () => {
    const cartId = await cartWith('Zu lang', [{ offer: offers.nordbad, quantity: 1 }]);
    for (const body of [
      { orderReference: 'x'.repeat(limits.orderReference + 1) },
      { orderNote: 'x'.repeat(limits.orderNote + 1) },
    ]) {
      const refused = await t.request('POST', `/v1/MultiCarts/${cartId}/checkout`, { as: BUYER, body });
      expect(refused.status).toBe(400);
    }
    const cart = await t.request('GET', `/v1/MultiCarts/${cartId}`, { as: BUYER });
    expect(cart.body.items).toHaveLength(1);
    // Blank texts are stored as none; a checkout without a body still works.
    const plain = await placeOrder(cartId, { orderReference: '   ', orderNote: '' });
    const details = await t.request('GET', `/v1/CustomerOrders/${plain}/Details`, { as: BUYER });
    expect(details.body).toMatchObject({ orderReference: null, orderNote: null });
  });
});

describe('Erneut bestellen', () => {
  let orderNumber: string;

  beforeAll(async () => {
    const cartId = await cartWith('Altbestellung', [
      { offer: offers.nordbad, quantity: 3, comment: 'Bad OG' },
      { offer: offers.nordbadExpensive, quantity: 1 },
      { offer: offers.aquatherm, quantity: 20 },
    ]);
    orderNumber = await placeOrder(cartId);
  });

  it('puts the lines into a new cart and names the ones no longer available', async () => {
    // Since the order, AquaTherm's offer changed to a unit the portal does not support.
    await t.pool.query(`UPDATE product_offers SET unit_code = 'XYZ' WHERE product_instance_id = $1`, [
      offers.aquatherm,
    ]);
    try {
      const result = await t.request('POST', `/v1/CustomerOrders/${orderNumber}/Reorder`, {
        as: BUYER,
        body: { newCartName: 'Nachbestellung' },
      });
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      expect(result.body.cartName).toBe('Nachbestellung');
      expect(result.body.added.map((l: { articleNumber: string }) => l.articleNumber).sort()).toEqual([
        'TEST-NB-1',
        'TEST-NB-2',
      ]);
      expect(result.body.unavailable).toEqual([
        expect.objectContaining({ articleNumber: 'TEST-AT-1', reason: cartMessages.reorderReasons[5] }),
      ]);
      const cart = await t.request('GET', `/v1/MultiCarts/${result.body.cartId}`, { as: BUYER });
      const items = cart.body.items.map((i: { productInstanceId: string; quantity: number; comment: string }) => [
        i.productInstanceId,
        i.quantity,
        i.comment,
      ]);
      expect(items).toEqual(
        expect.arrayContaining([
          [offers.nordbad, 3, 'Bad OG'],
          [offers.nordbadExpensive, 1, null],
        ]),
      );
      expect(items).toHaveLength(2);
    } finally {
      await t.pool.query(`UPDATE product_offers SET unit_code = 'MTR' WHERE product_instance_id = $1`, [
        offers.aquatherm,
      ]);
    }
  });

  it('adds to an existing cart of the buyer (the same article again raises its quantity)', async () => {
    const cartId = await cartWith('Bestehend', [{ offer: offers.nordbad, quantity: 1 }]);
    const result = await t.request('POST', `/v1/CustomerOrders/${orderNumber}/Reorder`, {
      as: BUYER,
      body: { cartId },
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ cartId, unavailable: [] });
    const cart = await t.request('GET', `/v1/MultiCarts/${cartId}`, { as: BUYER });
    const nordbad = cart.body.items.find((i: { productInstanceId: string }) => i.productInstanceId === offers.nordbad);
    expect(nordbad.quantity).toBe(4);
    expect(cart.body.items).toHaveLength(3);
  });

  it('refuses a cart of another partner, another partner’s order, a missing target, and sellers', async () => {
    const [foreignCart] = (
      await t.pool.query<{ id: string }>(
        `INSERT INTO carts (bp_number, name, is_default) VALUES ($1, 'Fremder Warenkorb', false) RETURNING id`,
        [OTHER_BUYER_PARTNER],
      )
    ).rows;
    const reorder = (body: unknown, number = orderNumber, as = BUYER) =>
      t.request('POST', `/v1/CustomerOrders/${number}/Reorder`, { as, body });
    expect((await reorder({ cartId: Number(foreignCart.id) })).status).toBe(404);
    expect((await reorder({})).status).toBe(400);
    expect((await reorder({ cartId: 1, newCartName: 'Beides' })).status).toBe(400);
    expect((await reorder({ newCartName: 'Fremd' }, 'KB-1900-1')).status).toBe(404);
    expect((await reorder({ newCartName: 'Verkäufer' }, orderNumber, SELLER)).status).toBe(403);
  });
});

describe('searching the order list', () => {
  let withProject: string;
  let plain: string;

  beforeAll(async () => {
    const project = await t.request('POST', '/v1/Projects', {
      as: BUYER,
      body: { code: 'Suchprojekt-Lindenhof', description: 'Neubau Lindenhof' },
    });
    expect(project.status).toBeLessThan(300);
    const projectCart = await cartWith('Mit Projekt', [{ offer: offers.aquatherm, quantity: 10 }]);
    const updated = await t.request('PUT', `/v1/MultiCarts/${projectCart}`, {
      as: BUYER,
      body: { projectId: project.body.id, deliveryAddressId: null, deliveryDate: null },
    });
    expect(updated.status).toBeLessThan(300);
    withProject = await placeOrder(projectCart);
    plain = await placeOrder(await cartWith('Ohne Projekt', [{ offer: offers.nordbadExpensive, quantity: 1 }]));
  });

  const search = async (term: string) => {
    const list = await t.request('GET', `/v1/CustomerOrders?PageSize=100&Search=${encodeURIComponent(term)}`, {
      as: BUYER,
    });
    expect(list.status).toBe(200);
    return list.body.items.map((o: { orderNumber: string }) => o.orderNumber) as string[];
  };

  it('finds orders by order number, article number, article name and project', async () => {
    expect(await search(withProject)).toEqual([withProject]);
    expect(await search('lindenhof')).toEqual([withProject]);
    expect(await search('TEST-AT-1')).toContain(withProject);
    expect(await search('TEST-AT-1')).not.toContain(plain);
    expect(await search('wärmepumpe')).toContain(plain);
    expect(await search('wärmepumpe')).not.toContain(withProject);
    // LIKE's wildcards are taken literally.
    expect(await search('%')).toEqual([]);
  });

  it('combines with the year, finds only the partner’s own orders, and refuses an overlong term', async () => {
    const year = Number(businessToday().slice(0, 4));
    const list = await t.request('GET', `/v1/CustomerOrders?Year=${year - 5}&Search=lindenhof`, { as: BUYER });
    expect(list.body.items).toEqual([]);
    const staff = await t.request('GET', `/v1/PlatformOperator/CustomerOrders?Search=lindenhof`, {
      as: 'betrieb@example.com',
    });
    expect(staff.body.items.map((o: { orderNumber: string }) => o.orderNumber)).toEqual([withProject]);
    const tooLong = await t.request('GET', `/v1/CustomerOrders?Search=${'x'.repeat(limits.orderSearch + 1)}`, {
      as: BUYER,
    });
    expect(tooLong.status).toBe(400);
  });
});
