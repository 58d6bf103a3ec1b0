import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomerOrderStatus, SupplierOrderStatus, businessToday } from '@shk/contracts';
import { eventually, startTestApp, type TestApp } from '../support/test-app.ts';
import { insertTestOffers } from '../support/cart-fixtures.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/transmission-peers.ts';
import { BUYER, Protocol, configureEmailSuppliers, placeSentOrder } from '../transmission/order-fixtures.ts';

const SELLER = 'verkauf@example.com'; // seller of supplier 200001 (Nordbad)
const STAFF = 'support@example.com';
let t: TestApp;
let smtp: SmtpPeer;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await startTestApp({ env: { SMTP_URL: smtp.url } });
  await insertTestOffers(t.pool);
  await configureEmailSuppliers(t);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const sentOrder = () => placeSentOrder(t);

const confirm = (no: string, status: number, body?: unknown, as = SELLER) =>
  t.request('POST', `/v1/SupplierOrders/${no}/Confirmation/${status}`, { as, body });

describe('seller overview and details', () => {
  it('lists only the own supplier orders with filters and search; another supplier order is a 404', async () => {
    const o = await sentOrder();
    const list = await t.request('GET', '/v1/SupplierOrders/overview', { as: SELLER });
    expect(list.status).toBe(200);
    expect(list.body.pageSize).toBe(25);
    const numbers = list.body.items.map((i: { supplierOrderNumber: string }) => i.supplierOrderNumber);
    expect(numbers).toContain(o.nordbad);
    expect(numbers).not.toContain(o.aqua);
    const row = list.body.items.find((i: { supplierOrderNumber: string }) => i.supplierOrderNumber === o.nordbad);
    expect(row).toMatchObject({ customerBpNumber: '100001', supplierOrderStatusId: SupplierOrderStatus.Sent });

    const searched = await t.request('GET', `/v1/SupplierOrders/overview?SearchTerm=${o.nordbad}`, { as: SELLER });
    expect(searched.body.items).toHaveLength(1);
    const byBuyer = await t.request('GET', '/v1/SupplierOrders/overview?SearchTerm=100001&Status=2', { as: SELLER });
    expect(byBuyer.body.items.length).toBeGreaterThanOrEqual(1);
    const confirmedOnly = await t.request('GET', '/v1/SupplierOrders/overview?Status=4', { as: SELLER });
    expect(confirmedOnly.body.items.map((i: { supplierOrderNumber: string }) => i.supplierOrderNumber)).not.toContain(
      o.nordbad,
    );
    const tooEarly = await t.request('GET', '/v1/SupplierOrders/overview?DateFrom=2023-12-31', { as: SELLER });
    expect(tooEarly.status).toBe(400);
    const reversed = await t.request('GET', '/v1/SupplierOrders/overview?DateFrom=2025-02-01&DateTo=2025-01-01', {
      as: SELLER,
    });
    expect(reversed.status).toBe(400);

    const details = await t.request('GET', `/v1/SupplierOrders/${o.nordbad}/Details`, { as: SELLER });
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({
      documentId: o.nordbad,
      supplierId: '200001',
      supplierOrderStatusId: SupplierOrderStatus.Sent,
      itemsConfirmation: null,
      attachments: [],
      confirmableInPortal: true, // e-mail inbound supplier, order in Sent
    });
    expect(details.body.contact.name).toBeTruthy();
    expect(details.body.lines).toHaveLength(2);

    expect((await t.request('GET', `/v1/SupplierOrders/${o.aqua}/Details`, { as: SELLER })).status).toBe(404);
    expect((await confirm(o.aqua, SupplierOrderStatus.Confirmed)).status).toBe(404);
    expect((await t.request('GET', `/v1/SupplierOrders/${o.aqua}/Details`, { as: STAFF })).status).toBe(200);
    const statuses = await t.request('GET', '/v1/SupplierOrderStatuses', { as: SELLER });
    expect(statuses.body).toContainEqual({ id: 5, name: 'Mit Änderungen bestätigt' });
  });
});

describe('staff supplier-order list', () => {
  it('filters by year, buyer name and status (and supplier); each filter narrows the list', async () => {
    const o = await sentOrder();
    // The Nordbad order becomes the last order of 2024 (Berlin time), the AquaTherm order SendingFailed.
    await t.pool.query(
      "UPDATE supplier_orders SET placed_at = '2024-12-31T22:58:00Z' WHERE supplier_order_number = $1",
      [o.nordbad],
    );
    await t.pool.query('UPDATE supplier_orders SET status_id = 3 WHERE supplier_order_number = $1', [o.aqua]);
    const list = async (query: string) => {
      const res = await t.request('GET', `/v1/PlatformOperator/SupplierOrders?PageSize=25&${query}`, { as: STAFF });
      expect(res.status).toBe(200);
      return res.body;
    };
    const numbers = (body: any) => body.items.map((i: any) => i.orderNumber);

    const y2024 = await list('Year=2024');
    expect(numbers(y2024)[0]).toBe(o.nordbad);
    expect(numbers(y2024)).not.toContain(o.aqua);
    expect(y2024.items.every((i: any) => i.orderDate < '2025-01-01')).toBe(true);
    const berlinYear = Number(businessToday().slice(0, 4));
    expect(y2024.availableOrderYears).toEqual(expect.arrayContaining([2024, berlinYear]));
    const thisYear = await list(`Year=${berlinYear}`);
    expect(numbers(thisYear)).toContain(o.aqua);
    expect(numbers(thisYear)).not.toContain(o.nordbad);

    const buyerName = y2024.items[0].buyerName as string;
    const byBuyer = await list(`BuyerName=${encodeURIComponent(buyerName)}&Year=2024`);
    expect(byBuyer.items.length).toBeGreaterThanOrEqual(1);
    expect(byBuyer.items.every((i: any) => i.buyerName === buyerName)).toBe(true);
    expect(numbers(byBuyer)).toContain(o.nordbad);
    const otherBuyer = await list(`BuyerName=${encodeURIComponent('Gibt es nicht GmbH')}`);
    expect(otherBuyer.items).toEqual([]);
    expect(otherBuyer.totalCount).toBe(0);

    const failed = await list('SupplierOrderStatusId=3');
    expect(numbers(failed)).toContain(o.aqua);
    expect(numbers(failed)).not.toContain(o.nordbad);
    expect(failed.items.every((i: any) => i.supplierOrderStatusId === 3)).toBe(true);
    const sent = await list('SupplierOrderStatusId=2&Year=2024');
    expect(numbers(sent)).toContain(o.nordbad);
    expect(sent.items.every((i: any) => i.supplierOrderStatusId === 2)).toBe(true);

    const combined = await list(`SupplierId=200003&SupplierOrderStatusId=3&BuyerName=${encodeURIComponent(buyerName)}`);
    expect(numbers(combined)).toContain(o.aqua);
    expect(combined.items.every((i: any) => i.supplierId === '200003')).toBe(true);
    const invalid = await t.request('GET', '/v1/PlatformOperator/SupplierOrders?SupplierOrderStatusId=9', {
      as: STAFF,
    });
    expect(invalid.status).toBe(400);
  });
});

describe('confirmation', () => {
  it('Confirmed: every line confirmed, customer order partially confirmed, buyer mailed', async () => {
    const o = await sentOrder();
    const res = await confirm(o.nordbad, SupplierOrderStatus.Confirmed);
    expect(res.status).toBe(200);
    expect(res.body.supplierOrderStatusId).toBe(SupplierOrderStatus.Confirmed);
    expect(res.body.confirmedAt).not.toBeNull();
    expect(res.body.itemsConfirmation.orderedAndConfirmed).toHaveLength(2);
    expect(res.body.confirmedTotal).toBe(res.body.orderedTotal);
    expect(res.body.confirmableInPortal).toBe(false); // no longer in Sent: displayed only
    const buyerView = await t.request('GET', `/v1/CustomerOrders/${o.customerOrderNumber}/Details`, { as: BUYER });
    expect(buyerView.body.customerOrderStatus).toBe(CustomerOrderStatus.PartiallyConfirmed);
    await eventually(async () =>
      smtp.messages.some((m) => m.to.includes(BUYER) && m.raw.toString().includes(o.nordbad)),
    );

    // A second confirmation: the order is no longer in Sent.
    const again = await confirm(o.nordbad, SupplierOrderStatus.Confirmed);
    expect(again.status).toBe(400);
    expect(again.body.title).toBe('Diese Bestellung kann nicht bestätigt werden.');
  });

  it('ConfirmedWithChanges: changed, replaced, removed and added lines with ordered and confirmed values', async () => {
    const o = await sentOrder();
    const res = await confirm(o.nordbad, SupplierOrderStatus.ConfirmedWithChanges, {
      lines: [
        { lineNo: 1, quantity: 2, deliveryDate: '2030-05-04' },
        { lineNo: 2, replacement: { articleNumber: 'NB-2-NEU', name: 'Nachfolgeartikel' }, unitPrice: 90 },
      ],
      addedLines: [{ articleNumber: 'NB-ZUB', name: 'Zubehörset', quantity: 1, unitPrice: 10 }],
    });
    expect(res.status).toBe(200);
    const ic = res.body.itemsConfirmation;
    expect(ic.orderedAndChanged).toHaveLength(1);
    expect(ic.orderedAndChanged[0].ordered.quantity).toBe(3);
    expect(ic.orderedAndChanged[0].confirmed).toMatchObject({ quantity: 2, deliveryDate: '2030-05-04' });
    expect(ic.orderedAndReplaced[0].confirmed).toMatchObject({ articleNumber: 'NB-2-NEU', unitPrice: 90 });
    expect(ic.orderedAndReplaced[0].ordered.articleNumber).not.toBe('NB-2-NEU');
    expect(ic.added).toEqual([
      expect.objectContaining({ articleNumber: 'NB-ZUB', name: 'Zubehörset', quantity: 1, unitPrice: 10 }),
    ]);
    // 2 × 19,99 + 1 × 90 + 1 × 10
    expect(res.body.confirmedTotal).toBeCloseTo(139.98, 2);
    expect(res.body.supplierOrderStatusId).toBe(SupplierOrderStatus.ConfirmedWithChanges);

    const buyerView = await t.request('GET', `/v1/CustomerOrders/${o.customerOrderNumber}/Details`, { as: BUYER });
    const so = buyerView.body.supplierOrdersDetails.find((s: { supplierId: string }) => s.supplierId === '200001');
    expect(so.lines.find((l: { lineNo: number }) => l.lineNo === 1).confirmation).toMatchObject({
      kind: 'changed',
      quantity: 2,
    });
  });

  it('rejects other statuses, unknown lines, empty changes, non-e-mail suppliers and unsent orders with German 400s', async () => {
    const o = await sentOrder();
    for (const status of [1, 2, 3, 6, 9]) {
      const r = await confirm(o.nordbad, status);
      expect(r.status).toBe(400);
      expect(r.body.title).toBe('Ungültiger Bestätigungsstatus.');
    }
    const unknown = await confirm(o.nordbad, 5, { lines: [{ lineNo: 99, quantity: 1 }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.title).toBe('Position 99 gehört nicht zu dieser Bestellung.');
    const empty = await confirm(o.nordbad, 5, { lines: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.title).toMatch(/mindestens eine Änderung/);
    const negative = await confirm(o.nordbad, 5, { lines: [{ lineNo: 1, quantity: -1 }] });
    expect(negative.status).toBe(400);

    await t.pool.query('UPDATE suppliers SET in_com_protocol_id = $2 WHERE bp_number = $1', ['200001', Protocol.Sftp]);
    try {
      // Electronic inbound channel: the details tell the seller's page not to offer the status form.
      const ediDetails = await t.request('GET', `/v1/SupplierOrders/${o.nordbad}/Details`, { as: SELLER });
      expect(ediDetails.body.supplierOrderStatusId).toBe(SupplierOrderStatus.Sent);
      expect(ediDetails.body.confirmableInPortal).toBe(false);
      const edi = await confirm(o.nordbad, SupplierOrderStatus.Confirmed);
      expect(edi.status).toBe(400);
      expect(edi.body.title).toBe('Diese Bestellung kann nicht bestätigt werden.');
    } finally {
      await t.pool.query('UPDATE suppliers SET in_com_protocol_id = $2 WHERE bp_number = $1', [
        '200001',
        Protocol.Email,
      ]);
    }
    await t.pool.query('UPDATE supplier_orders SET status_id = 3 WHERE supplier_order_number = $1', [o.nordbad]);
    expect((await confirm(o.nordbad, SupplierOrderStatus.Confirmed)).status).toBe(400);
    // Nothing was half-applied by the rejected calls.
    const { rows } = await t.pool.query(
      `SELECT count(*)::int AS n FROM order_lines l JOIN supplier_orders so ON so.id = l.supplier_order_id
        WHERE so.supplier_order_number = $1 AND l.confirmation_kind IS NOT NULL`,
      [o.nordbad],
    );
    expect(rows[0].n).toBe(0);
    expect((await confirm(o.nordbad, SupplierOrderStatus.Confirmed, undefined, BUYER)).status).toBe(403);
  });
});

describe('order documents', () => {
  // Known types must have their content (hardening): a real PDF where one is named, filler bytes otherwise.
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
  const form = (files: { name: string; size: number; content?: Buffer }[]) => {
    const f = new FormData();
    for (const file of files)
      f.append('files', new Blob([new Uint8Array(file.content ?? Buffer.alloc(file.size, 65))]), file.name);
    return f;
  };

  it('sellers upload several files, everyone in scope downloads, only sellers delete; limits from settings', async () => {
    const o = await sentOrder();
    const up = await t.request('POST', `/v1/SupplierOrders/${o.nordbad}/Attachments`, {
      as: SELLER,
      body: form([
        { name: 'Lieferschein.pdf', size: 10, content: pdf },
        { name: 'Maße Bad.dwg', size: 20 },
      ]),
    });
    expect(up.status).toBe(200);
    expect(up.body.map((d: { fileName: string }) => d.fileName)).toEqual(['Lieferschein.pdf', 'Maße Bad.dwg']);
    const id = up.body[1].id;
    for (const as of [SELLER, BUYER, STAFF]) {
      const dl = await t.request('GET', `/v1/SupplierOrders/${o.nordbad}/Attachments/${id}`, { as });
      expect(dl.status).toBe(200);
      expect(dl.headers.get('content-disposition')).toContain("filename*=UTF-8''Ma%C3%9Fe%20Bad.dwg");
    }
    expect(
      (
        await t.request('POST', `/v1/SupplierOrders/${o.aqua}/Attachments`, {
          as: SELLER,
          body: form([{ name: 'a.pdf', size: 1 }]),
        })
      ).status,
    ).toBe(404);
    expect((await t.request('DELETE', `/v1/SupplierOrders/${o.nordbad}/Attachments/${id}`, { as: BUYER })).status).toBe(
      403,
    );
    expect(
      (await t.request('DELETE', `/v1/SupplierOrders/${o.nordbad}/Attachments/${id}`, { as: SELLER })).status,
    ).toBe(204);
    expect((await t.request('GET', `/v1/SupplierOrders/${o.nordbad}/Attachments/${id}`, { as: SELLER })).status).toBe(
      404,
    );

    // An administrator lowers the limits (custom parameters override the spec's defaults).
    for (const [key, value] of [
      ['SupplierOrderDocumentsMaxFilesCount', '2'],
      ['SupplierOrderDocumentsMaxFileSize', '1'],
    ]) {
      await t.pool.query(
        `INSERT INTO custom_parameters (key, description, type_id, max_value_count, is_public) VALUES ($1, '', 1, 1, true)
         ON CONFLICT (key) DO NOTHING`,
        [key],
      );
      await t.pool.query('DELETE FROM custom_parameter_values WHERE key = $1', [key]);
      await t.pool.query('INSERT INTO custom_parameter_values (key, value) VALUES ($1, $2)', [key, value]);
    }
    const tooMany = await t.request('POST', `/v1/SupplierOrders/${o.nordbad}/Attachments`, {
      as: SELLER,
      body: form([
        { name: 'b.pdf', size: 1 },
        { name: 'c.pdf', size: 1 },
      ]),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.title).toBe('Bitte verwenden Sie nicht mehr als 2 Dateien, jeweils nicht größer als 1 MB.');
    const tooLarge = await t.request('POST', `/v1/SupplierOrders/${o.nordbad}/Attachments`, {
      as: SELLER,
      body: form([{ name: 'gross.pdf', size: 1024 * 1024 + 1 }]),
    });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.title).toBe('Bitte verwenden Sie nicht mehr als 2 Dateien, jeweils nicht größer als 1 MB.');
  });
});
