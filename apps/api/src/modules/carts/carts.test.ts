import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, eventually, type TestApp } from '../../../test/support/test-app.ts';
import { insertTestOffers, offers } from '../../../test/support/cart-fixtures.ts';
import { businessToday, earliestDeliveryDate } from '@shk/contracts';
import { pdfDocument } from '../../lib/pdf.ts';
import { fileStorage } from '../storage/index.ts';
import { CartItemsService } from './cart-items.service.ts';

let t: TestApp;
const BUYER = 'einkauf@example.com';
const OTHER = 'einkauf2@example.com';

beforeAll(async () => {
  t = await startTestApp();
  await insertTestOffers(t.pool);
});
afterAll(async () => {
  await t?.close();
});

async function newCart(name: string, as = BUYER) {
  const res = await t.request('POST', '/v1/MultiCarts', { as, body: { name } });
  expect(res.status).toBe(201);
  return res.body.id as number;
}
async function add(cartId: number, productInstanceId: string, quantity: number, as = BUYER) {
  return t.request('POST', '/v1/CartItems', { as, body: { cartId, productInstanceId, quantity } });
}
function upload(itemId: number, files: { name: string; content: Buffer; type?: string }[], as = BUYER) {
  const form = new FormData();
  for (const f of files)
    form.append('files', new Blob([new Uint8Array(f.content)], { type: f.type ?? 'application/octet-stream' }), f.name);
  return t.request('POST', `/v1/CartItems/${itemId}/attachments`, { as, body: form });
}

describe('carts', () => {
  it('the first cart is the default; names are validated and unique per partner', async () => {
    const first = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Baustelle (Süd)_1' } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ name: 'Baustelle (Süd)_1', isDefault: true, items: [] });
    const second = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Lager' } });
    expect(second.body.isDefault).toBe(false);

    const dup = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'lager' } });
    expect(dup.status).toBe(400);
    expect(dup.body).toMatchObject({
      type: 'entity-already-exists',
      title: 'Ein Warenkorb mit diesem Namen existiert bereits.',
    });
    const bad = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Lager/2!' } });
    expect(bad.body.errors[0].message).toBe(
      'Der Name darf nur Buchstaben, Zahlen, Bindestriche, Unterstriche und Klammern enthalten.',
    );
    expect(
      (await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'x'.repeat(51) } })).body.errors[0].message,
    ).toBe('Maximal 50 Zeichen');
    expect(
      (await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: '  ' } })).body.errors[0].message,
    ).toBe('Pflichtfeld');

    const renamed = await t.request('PUT', `/v1/MultiCarts/${second.body.id}/name`, {
      as: BUYER,
      body: { name: 'Lager Nord' },
    });
    expect(renamed.body.name).toBe('Lager Nord');
    expect(
      (
        await t.request('PUT', `/v1/MultiCarts/${second.body.id}/name`, {
          as: BUYER,
          body: { name: 'BAUSTELLE (SÜD)_1' },
        })
      ).body.type,
    ).toBe('entity-already-exists');

    const list = await t.request('GET', '/v1/MultiCarts', { as: BUYER });
    expect(list.body.map((c: any) => [c.name, c.isDefault, c.itemCount])).toEqual([
      ['Baustelle (Süd)_1', true, 0],
      ['Lager Nord', false, 0],
    ]);

    // Deleting the default promotes the next one.
    expect((await t.request('DELETE', `/v1/MultiCarts/${first.body.id}`, { as: BUYER })).status).toBe(204);
    expect((await t.request('GET', '/v1/MultiCarts', { as: BUYER })).body).toMatchObject([
      { name: 'Lager Nord', isDefault: true },
    ]);
  });

  it('refuses more carts than MaxCartCount', async () => {
    await t.pool.query("UPDATE custom_parameter_values SET value = '3' WHERE key = 'MaxCartCount'");
    const existing = (await t.request('GET', '/v1/MultiCarts', { as: BUYER })).body.length;
    for (let i = existing; i < 3; i++) await newCart(`Voll ${i}`);
    const over = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Zu viel' } });
    expect(over.status).toBe(400);
    expect(over.body.title).toBe('Maximale Anzahl von 3 Warenkörben erreicht.');
    await t.pool.query("UPDATE custom_parameter_values SET value = '10' WHERE key = 'MaxCartCount'");
  });
});

describe('cart items', () => {
  let cartId: number;
  beforeAll(async () => {
    cartId = await newCart('Positionen');
  });

  it('adds only orderable offers with at least the minimum quantity', async () => {
    const ok = await add(cartId, offers.nordbad, 2);
    expect(ok.status).toBe(201);
    expect(ok.body.productInstanceId).toBe(offers.nordbad);
    expect((await add(cartId, offers.waermekontor, 1)).body.title).toBe('Dieses Produkt ist aktuell nicht verfügbar.');
    expect((await add(cartId, offers.nordbadBadUnit, 1)).status).toBe(400);
    expect((await add(cartId, '200001~GIBTESNICHT', 1)).status).toBe(404);
    const below = await add(cartId, offers.aquatherm, 5);
    expect(below.status).toBe(400);
    expect(below.body.errors[0].message).toBe('Bitte beachten Sie die minimale Bestellmenge von 10');
    const fraction = await t.request('POST', '/v1/CartItems', {
      as: BUYER,
      body: { cartId, productInstanceId: offers.nordbad, quantity: 1.5 },
    });
    expect(fraction.body.errors[0].message).toBe('Bitte ganze Zahlen größer 0 angeben.');
    expect(
      (
        await t.request('POST', '/v1/CartItems', {
          as: BUYER,
          body: { cartId, productInstanceId: offers.nordbad, quantity: 0 },
        })
      ).status,
    ).toBe(400);
    // Adding the same offer again raises the quantity.
    await add(cartId, offers.nordbad, 1);
    const cart = await t.request('GET', `/v1/MultiCarts/${cartId}`, { as: BUYER });
    expect(cart.body.items).toHaveLength(1);
    expect(cart.body.items[0]).toMatchObject({
      quantity: 3,
      netValue: 59.97,
      supplierName: 'Nordbad Großhandel',
      productOrderableStatus: 1,
    });
  });

  it('gives each item the product id parts and the catalogue picture URL the front end links and shows', async () => {
    const cart = (await t.request('GET', `/v1/MultiCarts/${cartId}`, { as: BUYER })).body;
    expect(cart.items[0]).toMatchObject({
      manufacturerId: 'TESTM',
      manufacturerPid: 'TM-100',
      imageUrl: '/v1/Media/Products/900001/test.svg',
    });
  });

  it('groups by supplier with delivery cost until the free-delivery threshold', async () => {
    await add(cartId, offers.aquatherm, 20); // 125 € / 100 × 10 × 20 = 250 €
    let cart = (await t.request('GET', `/v1/MultiCarts/${cartId}`, { as: BUYER })).body;
    const nordbad = cart.supplierGroups.find((g: any) => g.supplierBusinessPartnerNo === '200001');
    expect(nordbad).toMatchObject({
      itemCount: 1,
      totalValue: 59.97,
      deliveryCost: 9.9,
      freeDeliveryThreshold: 250,
      missingForFreeDelivery: 190.03,
    });
    expect(cart.supplierGroups.find((g: any) => g.supplierBusinessPartnerNo === '200003')).toMatchObject({
      totalValue: 250,
      deliveryCost: 0,
    });
    expect(cart.totalNetValue).toBe(309.97);

    await add(cartId, offers.nordbadExpensive, 2); // 59.97 + 200 = 259.97 ≥ 250 → free
    cart = (await t.request('GET', `/v1/MultiCarts/${cartId}`, { as: BUYER })).body;
    expect(cart.supplierGroups.find((g: any) => g.supplierBusinessPartnerNo === '200001')).toMatchObject({
      totalValue: 259.97,
      deliveryCost: 0,
      missingForFreeDelivery: 0,
    });

    // The overview counts and values the same orderable lines as the cart view.
    const overview = (await t.request('GET', '/v1/MultiCarts', { as: BUYER })).body.find((c: any) => c.id === cartId);
    expect(overview).toMatchObject({ itemCount: cart.items.length, totalNetValue: 509.97 });

    const costs = await t.request('POST', '/v1/MultiCarts/deliveryCost', {
      as: BUYER,
      body: {
        supplierOrderValues: [
          { supplierBusinessPartnerNo: '200001', orderValue: 249.99 },
          { supplierBusinessPartnerNo: '200001', orderValue: 250 },
        ],
      },
    });
    expect(costs.body.map((c: any) => c.deliveryCost)).toEqual([9.9, 0]);
  });

  it('updates item details; empty values become null; dates must be in the future', async () => {
    const cart = (await t.request('GET', `/v1/MultiCarts/${cartId}`, { as: BUYER })).body;
    const item = cart.items[0];
    const project = (await t.request('POST', '/v1/Projects', { as: BUYER, body: { code: 'Objekt Ring 5' } })).body;
    const address = (
      await t.request('POST', '/v1/DeliveryAddresses', {
        as: BUYER,
        body: { companyName: 'Baustelle', streetName: 'Ring', houseNumber: '5', postalCode: '50667', city: 'Köln' },
      })
    ).body;
    const tomorrow = earliestDeliveryDate();
    const ok = await t.request('PUT', `/v1/CartItems/${item.id}/properties`, {
      as: BUYER,
      body: {
        id: item.id,
        quantity: 4,
        projectId: project.id,
        deliveryDate: tomorrow,
        deliveryAddressId: address.id,
        comment: 'Bitte anrufen',
      },
    });
    expect(ok.status).toBe(200);
    let updated = (await t.request('GET', `/v1/MultiCarts/${cartId}`, { as: BUYER })).body.items.find(
      (i: any) => i.id === item.id,
    );
    expect(updated).toMatchObject({
      quantity: 4,
      projectId: project.id,
      deliveryDate: tomorrow,
      deliveryAddressId: address.id,
      comment: 'Bitte anrufen',
    });

    const today = businessToday();
    const early = await t.request('PUT', `/v1/CartItems/${item.id}/properties`, {
      as: BUYER,
      body: { quantity: 4, deliveryDate: today },
    });
    expect(early.status).toBe(400);
    expect(
      (
        await t.request('PUT', `/v1/CartItems/${item.id}/properties`, {
          as: BUYER,
          body: { quantity: 4, comment: 'x'.repeat(501) },
        })
      ).body.errors[0].message,
    ).toBe('Maximal 500 Zeichen');

    await t.request('PUT', `/v1/CartItems/${item.id}/properties`, {
      as: BUYER,
      body: { quantity: 4, projectId: null, deliveryDate: null, comment: '' },
    });
    updated = (await t.request('GET', `/v1/MultiCarts/${cartId}`, { as: BUYER })).body.items.find(
      (i: any) => i.id === item.id,
    );
    expect(updated).toMatchObject({
      projectId: null,
      deliveryDate: null,
      comment: null,
      deliveryAddressId: address.id,
    });

    // A project of another partner cannot be used.
    const foreign = (await t.request('POST', '/v1/Projects', { as: OTHER, body: { code: 'Fremd' } })).body;
    expect(
      (
        await t.request('PUT', `/v1/CartItems/${item.id}/properties`, {
          as: BUYER,
          body: { quantity: 4, projectId: foreign.id },
        })
      ).status,
    ).toBe(400);
  });

  it('hides unorderable items and removes them in one step', async () => {
    const id = (await add(cartId, offers.nordbad, 1)).body.cartItemId;
    // The relation to Nordbad ends: its items become unavailable.
    await t.pool.query(
      "UPDATE supplier_customers SET is_active = false WHERE buyer_bp_number = '100001' AND supplier_bp_number = '200001'",
    );
    const cart = (await t.request('GET', `/v1/MultiCarts/${cartId}`, { as: BUYER })).body;
    expect(cart.unavailableItemIds).toContain(id);
    expect(cart.supplierGroups.map((g: any) => g.supplierBusinessPartnerNo)).toEqual(['200003']);
    const query = cart.unavailableItemIds.map((i: number) => `id=${i}`).join('&');
    expect((await t.request('DELETE', `/v1/CartItems?cartId=${cartId}&${query}`, { as: BUYER })).status).toBe(204);
    expect((await t.request('GET', `/v1/MultiCarts/${cartId}`, { as: BUYER })).body.unavailableItemIds).toEqual([]);
    await t.pool.query(
      "UPDATE supplier_customers SET is_active = true WHERE buyer_bp_number = '100001' AND supplier_bp_number = '200001'",
    );
  });
});

describe('attachments', () => {
  let itemId: number;
  beforeAll(async () => {
    const cartId = await newCart('Anhänge');
    itemId = (await add(cartId, offers.nordbad, 1)).body.cartItemId;
  });

  it('stores a PDF and serves it with its original name; a second file replaces the first', async () => {
    const pdf = pdfDocument({ title: 'Aufmaß', lines: ['Raum 1: 3 Heizkörper'] });
    const res = await upload(itemId, [{ name: 'Aufmaß Küche.pdf', content: pdf }]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: expect.any(Number), fileName: 'Aufmaß Küche.pdf', size: pdf.length }]);
    const download = await fetch(`${t.baseUrl}/v1/CartItems/${itemId}/attachments/${res.body[0].id}`, {
      headers: { authorization: `Bearer ${await t.token(BUYER)}` },
    });
    expect(download.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('Aufmaß Küche.pdf')}`,
    );
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);

    const second = await upload(itemId, [
      { name: 'plan.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]) },
    ]);
    expect(second.body.map((a: any) => a.fileName)).toEqual(['plan.png']);
    expect(
      (
        await fetch(`${t.baseUrl}/v1/CartItems/${itemId}/attachments/${res.body[0].id}`, {
          headers: { authorization: `Bearer ${await t.token(BUYER)}` },
        })
      ).status,
    ).toBe(404);
  });

  it('refuses wrong formats by extension and by content, too many and too large files', async () => {
    const exe = await upload(itemId, [{ name: 'virus.exe', content: Buffer.from('MZ') }]);
    expect(exe.status).toBe(400);
    expect(exe.body.title).toBe('Bitte überprüfen Sie das Format Ihrer Datei.');
    const fakePdf = await upload(itemId, [{ name: 'rechnung.pdf', content: Buffer.from('not a pdf at all') }]);
    expect(fakePdf.body.type).toBe('fileFormat');
    const two = await upload(itemId, [
      { name: 'a.csv', content: Buffer.from('a;b') },
      { name: 'b.csv', content: Buffer.from('c;d') },
    ]);
    expect(two.status).toBe(400);
    expect(two.body.type).toBe('maxFileCount');
    await t.pool.query("UPDATE custom_parameter_values SET value = '1' WHERE key = 'AttachmentsMaxFileSize'");
    const big = await upload(itemId, [{ name: 'gross.csv', content: Buffer.alloc(1024 * 1024 + 10, 0x41) }]);
    expect(big.status).toBe(400);
    expect(big.body).toMatchObject({
      type: 'maxFileSize',
      title: 'Bitte überprüfen Sie die Dateigröße. Maximal 1 MB sind erlaubt.',
    });
    await t.pool.query("UPDATE custom_parameter_values SET value = '25' WHERE key = 'AttachmentsMaxFileSize'");
  });
});

describe('scoping', () => {
  it("another partner's cart, item, attachment and order are 404", async () => {
    const cartId = await newCart('Geheim');
    const itemId = (await add(cartId, offers.nordbad, 1)).body.cartItemId;
    const attachment = (await upload(itemId, [{ name: 'x.csv', content: Buffer.from('1;2') }])).body[0];
    const calls: [string, string, unknown?][] = [
      ['GET', `/v1/MultiCarts/${cartId}`],
      ['PUT', `/v1/MultiCarts/${cartId}`, { projectId: null }],
      ['PUT', `/v1/MultiCarts/${cartId}/name`, { name: 'Meins' }],
      ['PUT', `/v1/MultiCarts/${cartId}/items`, { items: [] }],
      ['POST', `/v1/MultiCarts/${cartId}/checkout`],
      ['DELETE', `/v1/MultiCarts/${cartId}`],
      ['PUT', `/v1/CartItems/${itemId}/properties`, { quantity: 2 }],
      ['DELETE', `/v1/CartItems/${itemId}`],
      ['DELETE', `/v1/CartItems?cartId=${cartId}&id=${itemId}`],
      ['GET', `/v1/CartItems/${itemId}/attachments/${attachment.id}`],
      ['DELETE', `/v1/CartItems/${itemId}/attachments/${attachment.id}`],
    ];
    for (const [method, url, body] of calls) {
      const res = await t.request(method, url, { as: OTHER, body });
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    expect(
      (
        await t.request('POST', '/v1/CartItems', {
          as: OTHER,
          body: { cartId, productInstanceId: offers.nordbad, quantity: 1 },
        })
      ).status,
    ).toBe(404);
    expect((await t.request('GET', `/v1/MultiCarts/${cartId}`, { as: BUYER })).body.items).toHaveLength(1);
  });
});

describe('checkout', () => {
  it('creates one customer order and one supplier order per supplier, empties the cart and queues transmission', async () => {
    const cartId = await newCart('Bestellung 1');
    const project = (
      await t.request('POST', '/v1/Projects', { as: BUYER, body: { code: 'Schule Nord', description: 'Sanierung' } })
    ).body;
    const nb = (await add(cartId, offers.nordbad, 3)).body.cartItemId;
    await add(cartId, offers.aquatherm, 10);
    await t.request('PUT', `/v1/CartItems/${nb}/properties`, {
      as: BUYER,
      body: { quantity: 3, projectId: project.id, comment: 'Vormittags liefern', deliveryDate: earliestDeliveryDate() },
    });
    const sketch = pdfDocument({ title: 'Skizze', lines: ['x'] });
    await upload(nb, [{ name: 'Skizze.pdf', content: sketch }]);

    const res = await t.request('POST', `/v1/MultiCarts/${cartId}/checkout`, { as: BUYER });
    expect(res.status).toBe(200);
    const number = res.body.customerOrderNumber;
    expect(number).toMatch(/^KB-\d{4}-\d+$/);
    expect((await t.request('GET', `/v1/MultiCarts/${cartId}`, { as: BUYER })).body.items).toEqual([]);

    const details = (await t.request('GET', `/v1/CustomerOrders/${number}/Details`, { as: BUYER })).body;
    expect(details).toMatchObject({ customerOrderNumber: number, orderTotal: 184.97, deliveryCostTotal: 9.9 });
    expect(details.supplierOrdersDetails).toHaveLength(2);
    const nordbad = details.supplierOrdersDetails.find((s: any) => s.supplierId === '200001');
    expect(nordbad).toMatchObject({ orderedTotal: 59.97, deliveryCost: 9.9, supplierCustomerId: 'K-10001' });
    expect(nordbad.lines[0]).toMatchObject({
      articleNumber: 'TEST-NB-1',
      name: 'Thermostatventil Testserie DN15',
      quantity: 3,
      unitPrice: 19.99,
      quantityPrice: 59.97,
      projectCode: 'Schule Nord',
      comment: 'Vormittags liefern',
      deliveryDate: earliestDeliveryDate(),
    });
    expect(nordbad.lines[0].attachments[0].fileName).toBe('Skizze.pdf');
    const aquatherm = details.supplierOrdersDetails.find((s: any) => s.supplierId === '200003');
    expect(aquatherm).toMatchObject({ orderedTotal: 125, deliveryCost: 0 });

    // Transmission by e-mail sets the supplier orders to Sent and the customer order to AwaitingConfirmation.
    await eventually(
      async () =>
        (await t.request('GET', `/v1/CustomerOrders/${number}/Details`, { as: BUYER })).body.customerOrderStatus === 2,
    );
    const mail = await eventually(
      async () =>
        (
          await t.pool.query(
            "SELECT * FROM mail_outbox WHERE to_address = 'auftraege@nordbad.example' AND status = 'sent'",
          )
        ).rows[0],
    );
    expect(mail.subject).toContain(nordbad.supplierOrderNumber);
    expect(mail.body_text).toContain('TEST-NB-1');

    // The order line names the stored file the cart item had: the cart is empty now, and the sweep of attachment files
    // no row names (run as if hours had passed) keeps it.
    const attachmentUrl = `/v1/SupplierOrders/${nordbad.supplierOrderNumber}/lines/${nordbad.lines[0].lineId}/attachments/${nordbad.lines[0].attachments[0].id}`;
    const ordered = await fetch(`${t.baseUrl}${attachmentUrl}`, {
      headers: { authorization: `Bearer ${await t.token(BUYER)}` },
    });
    expect(ordered.status, `${attachmentUrl} ${JSON.stringify(nordbad.lines[0])}`).toBe(200);
    expect(Buffer.from(await ordered.arrayBuffer()).equals(sketch)).toBe(true);
    const sweeper = new CartItemsService(t.db, undefined as never, fileStorage(t));
    const orphan = 'files/cart-attachments/0/verwaist';
    await fileStorage(t).put(orphan, Buffer.from('x'));
    await sweeper.removeUnreferencedAttachments(Date.now() + 3 * 3_600_000);
    const kept = await fetch(`${t.baseUrl}${attachmentUrl}`, {
      headers: { authorization: `Bearer ${await t.token(BUYER)}` },
    });
    expect(kept.status).toBe(200);
    expect(await fileStorage(t).stat(orphan)).toBeNull();
    expect(Buffer.from(await kept.arrayBuffer()).equals(sketch)).toBe(true);

    const list = (await t.request('GET', '/v1/CustomerOrders?PageSize=10&Page=1', { as: BUYER })).body;
    expect(list.items[0]).toMatchObject({
      orderNumber: number,
      totalValueExcludingVat: 184.97,
      customerOrderStatusId: 2,
    });
    expect(list.availableOrderYears).toContain(Number(businessToday().slice(0, 4)));
    expect((await t.request('GET', `/v1/CustomerOrders/${number}/Details`, { as: OTHER })).status).toBe(404);
    expect((await t.request('GET', '/v1/CustomerOrders', { as: OTHER })).body.totalCount).toBe(0);

    // Staff see it in both lists.
    const staffCustomer = (
      await t.request('GET', '/v1/PlatformOperator/CustomerOrders?BuyerName=Sanit%C3%A4r%20M%C3%BCller%20GmbH', {
        as: 'admin@example.com',
      })
    ).body;
    expect(staffCustomer.items.map((i: any) => i.orderNumber)).toContain(number);
    const staffSupplier = (
      await t.request('GET', '/v1/PlatformOperator/SupplierOrders?SupplierId=200003', { as: 'support@example.com' })
    ).body;
    expect(staffSupplier.items[0]).toMatchObject({ customerOrderNumber: number, supplierName: 'AquaTherm Armaturen' });
  });

  it('a repeated checkout returns the same order; concurrent checkouts create exactly one', async () => {
    const cartId = await newCart('Doppelklick');
    await add(cartId, offers.nordbad, 1);
    const [a, b] = await Promise.all([
      t.request('POST', `/v1/MultiCarts/${cartId}/checkout`, { as: BUYER }),
      t.request('POST', `/v1/MultiCarts/${cartId}/checkout`, { as: BUYER }),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.customerOrderNumber).toBe(b.body.customerOrderNumber);
    const retry = await t.request('POST', `/v1/MultiCarts/${cartId}/checkout`, { as: BUYER });
    expect(retry.body.customerOrderNumber).toBe(a.body.customerOrderNumber);
    const { rows } = await t.pool.query('SELECT count(*)::int AS n FROM customer_orders WHERE cart_id = $1', [cartId]);
    expect(rows[0].n).toBe(1);
  });

  it('a checkout that fails half way leaves no order and keeps the cart', async () => {
    const cartId = await newCart('Fehlschlag');
    await add(cartId, offers.nordbad, 1);
    await add(cartId, offers.aquatherm, 10);
    const before = (await t.pool.query('SELECT count(*)::int AS n FROM customer_orders')).rows[0].n;
    // The second supplier order's lines fail to insert.
    await t.pool.query(`CREATE FUNCTION fail_aquatherm() RETURNS trigger AS $$ BEGIN
      IF NEW.product_instance_id = '${offers.aquatherm}' THEN RAISE EXCEPTION 'simulated failure'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql;
      CREATE TRIGGER fail_aquatherm BEFORE INSERT ON order_lines FOR EACH ROW EXECUTE FUNCTION fail_aquatherm();`);
    try {
      const res = await t.request('POST', `/v1/MultiCarts/${cartId}/checkout`, { as: BUYER });
      expect(res.status).toBe(500);
      expect(res.body.title).toBe('Es ist ein interner Fehler aufgetreten.');
    } finally {
      await t.pool.query('DROP TRIGGER fail_aquatherm ON order_lines; DROP FUNCTION fail_aquatherm();');
    }
    expect((await t.pool.query('SELECT count(*)::int AS n FROM customer_orders')).rows[0].n).toBe(before);
    expect(
      (
        await t.pool.query(
          'SELECT count(*)::int AS n FROM supplier_orders WHERE customer_order_id NOT IN (SELECT id FROM customer_orders)',
        )
      ).rows[0].n,
    ).toBe(0);
    expect((await t.request('GET', `/v1/MultiCarts/${cartId}`, { as: BUYER })).body.items).toHaveLength(2);
  });

  it('an empty cart cannot be ordered; emptying a cart is a 204', async () => {
    const cartId = await newCart('Leer');
    await add(cartId, offers.nordbad, 1);
    expect((await t.request('PUT', `/v1/MultiCarts/${cartId}/items`, { as: BUYER, body: { items: [] } })).status).toBe(
      204,
    );
    const res = await t.request('POST', `/v1/MultiCarts/${cartId}/checkout`, { as: BUYER });
    expect(res.status).toBe(400);
    expect(res.body.title).toBe('Der Warenkorb ist leer.');
  });
});

describe('adding to a cart', () => {
  it('adding an offer marks the cart changed; the same offer again raises its one line', async () => {
    const cartId = await newCart('Geändert', OTHER);
    const stamp = async () =>
      (await t.pool.query<{ at: Date }>('SELECT updated_at AS at FROM carts WHERE id = $1', [cartId])).rows[0].at;
    const before = await stamp();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await add(cartId, offers.nordbad, 1, OTHER)).status).toBeLessThan(300);
    const afterFirst = await stamp();
    expect(afterFirst.getTime()).toBeGreaterThan(before.getTime());
    expect((await add(cartId, offers.nordbad, 2, OTHER)).status).toBeLessThan(300);
    const { rows } = await t.pool.query('SELECT quantity FROM cart_items WHERE cart_id = $1', [cartId]);
    expect(rows.map((r) => Number(r.quantity))).toEqual([3]);
  });
});
