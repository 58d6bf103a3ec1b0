import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { insertTestOffers, offers } from '../../../test/support/cart-fixtures.ts';
import { adjustQuantity } from './quick-order.service.ts';
import { parsePastedText } from './quick-order.parse.ts';

const BUYER = 'einkauf@example.com'; // partner 100001
let t: TestApp;
let cartId: number;

beforeAll(async () => {
  t = await startTestApp();
  await insertTestOffers(t.pool);
  // A second orderable offer of the Nordbad test product (TM-100), from AquaTherm, ordered in steps of 5.
  await t.pool.query(
    `INSERT INTO product_offers (product_instance_id, product_no, supplier_bp_number, supplier_pid, supplier_pid_norm, product_data_source,
       unit_code, net_price, price_basis, min_order_quantity, quantity_interval)
     VALUES ('200003~TEST-AT-9', 900001, '200003', 'TEST-AT-9', 'TESTAT9', 1, 'C62', 18.5, 1, 1, 5)`,
  );
  cartId = (await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Schnellerfassung' } })).body.id;
});
afterAll(async () => {
  await t?.close();
});

const quick = (body: unknown) => t.request('POST', `/v1/MultiCarts/${cartId}/QuickOrder`, { as: BUYER, body });
const items = async () =>
  (await t.request('GET', `/v1/MultiCarts/${cartId}`, { as: BUYER })).body.items.map((i: any) => [
    i.productInstanceId ?? i.product?.productInstanceId,
    i.quantity,
  ]);

describe('parsing pasted lines', () => {
  it('splits by tab, semicolon, comma or spaces and skips a header', () => {
    const lines = parsePastedText('Artikelnummer;Menge\nA-1\t2\nA-2;3,5;200001\nA-3, 4\nA-4 5\nA-5\n\nA-6;x');
    expect(lines.map((l) => [l.articleNumber, l.quantity, l.supplier, l.error])).toEqual([
      ['A-1', 2, null, null],
      ['A-2', 3.5, '200001', null],
      ['A-3', 4, null, null],
      ['A-4', 5, null, null],
      ['A-5', 1, null, null],
      ['A-6', null, null, 'Die Menge ist keine gültige Zahl.'],
    ]);
  });

  it('raises quantities to the minimum and the order interval', () => {
    expect(adjustQuantity(4, 10, null)).toBe(10);
    expect(adjustQuantity(7, 1, 5)).toBe(11);
    expect(adjustQuantity(6, 1, 5)).toBe(6);
    expect(adjustQuantity(3, 2, 2)).toBe(4);
  });
});

describe('POST /v1/MultiCarts/{id}/QuickOrder', () => {
  it('previews every line without adding anything', async () => {
    const res = await quick({
      text: [
        'TEST-NB-1;3',
        'TEST-AT-1 4',
        'TEST-WK-1,2',
        'UNBEKANNT-999\t1',
        '4000000000017;1',
        '4000000000017;2;200001',
        'TEST-AT-9;7',
      ].join('\n'),
    });
    expect(res.status).toBe(200);
    expect(res.body.confirmed).toBe(false);
    expect(res.body.lines.map((l: any) => [l.line, l.status, l.productInstanceId, l.quantity])).toEqual([
      [1, 'Added', offers.nordbad, 3],
      [2, 'QuantityAdjusted', offers.aquatherm, 10],
      [3, 'NotOrderable', null, null],
      [4, 'NotFound', null, null],
      [5, 'Ambiguous', null, null],
      [6, 'Added', offers.nordbad, 2],
      [7, 'QuantityAdjusted', '200003~TEST-AT-9', 11],
    ]);
    expect(res.body.lines[1].message).toBe('Menge auf 10 angepasst (Mindest- bzw. Staffelmenge).');
    expect(res.body.lines[2].message).toBe('Keine freigegebene Geschäftsbeziehung zu diesem Lieferanten.');
    expect(res.body.lines[4].candidates.map((c: any) => c.productInstanceId).sort()).toEqual([
      '200001~TEST-NB-1',
      '200003~TEST-AT-9',
    ]);
    // The offers of an ambiguous line come with their prices, the cheapest (per unit) first.
    const perUnit = res.body.lines[4].candidates.map((c: any) => c.unitPrice / c.priceBasis);
    expect(perUnit.every((p: number) => Number.isFinite(p))).toBe(true);
    expect(perUnit).toEqual([...perUnit].sort((a: number, b: number) => a - b));
    expect(await items()).toEqual([]);
  });

  it('adds all resolvable lines at once when confirmed, summing repeated articles', async () => {
    const res = await quick({
      confirm: true,
      lines: [
        { articleNumber: 'TEST-NB-1', quantity: 3 },
        { articleNumber: '4000000000017', quantity: 1, productInstanceId: '200003~TEST-AT-9' },
        { articleNumber: 'tm100', quantity: 2, supplierBusinessPartnerNo: '200001' },
        { articleNumber: 'UNBEKANNT', quantity: 1 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ confirmed: true, addedCount: 3 });
    expect(res.body.lines.map((l: any) => l.status)).toEqual(['Added', 'Added', 'Added', 'NotFound']);
    expect((await items()).sort()).toEqual([
      ['200001~TEST-NB-1', 5],
      ['200003~TEST-AT-9', 1],
    ]);
  });

  it('reads CSV and XLSX uploads', async () => {
    const csv = new FormData();
    csv.append(
      'file',
      new Blob(['Artikelnummer;Menge;Lieferant\nTEST-NB-2;4;200001\nTEST-AT-1;20\n'], { type: 'text/csv' }),
      'liste.csv',
    );
    const fromCsv = await t.request('POST', `/v1/MultiCarts/${cartId}/QuickOrder/File`, { as: BUYER, body: csv });
    expect(fromCsv.status).toBe(200);
    expect(fromCsv.body.lines.map((l: any) => [l.status, l.productInstanceId, l.quantity])).toEqual([
      ['Added', offers.nordbadExpensive, 4],
      ['Added', offers.aquatherm, 20],
    ]);

    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Bestellung');
    sheet.addRow(['Artikelnummer', 'Menge']);
    sheet.addRow(['TEST-NB-1', 6]);
    sheet.addRow(['4000000000048', 15]);
    const xlsx = new FormData();
    xlsx.append('file', new Blob([Buffer.from(await workbook.xlsx.writeBuffer())]), 'liste.xlsx');
    const fromXlsx = await t.request('POST', `/v1/MultiCarts/${cartId}/QuickOrder/File`, { as: BUYER, body: xlsx });
    expect(fromXlsx.body.lines.map((l: any) => [l.status, l.productInstanceId, l.quantity])).toEqual([
      ['Added', offers.nordbad, 6],
      ['Added', offers.aquatherm, 15],
    ]);

    const bad = new FormData();
    bad.append('file', new Blob([Buffer.from([0, 1, 2])], { type: 'application/octet-stream' }), 'bild.png');
    const rejected = await t.request('POST', `/v1/MultiCarts/${cartId}/QuickOrder/File`, { as: BUYER, body: bad });
    expect(rejected.status).toBe(400);
    expect(rejected.body.title).toBe('Bitte laden Sie eine CSV- oder XLSX-Datei hoch.');
  });

  it('answers 500 lines in one preview; another partner’s cart is a 404; empty input a 400', async () => {
    const text = Array.from({ length: 500 }, (_, k) => `${k % 2 ? 'TEST-NB-1' : 'NICHT-DA-' + k};${k + 1}`).join('\n');
    const res = await quick({ text });
    expect(res.body.lines).toHaveLength(500);
    expect(res.body.lines.filter((l: any) => l.status === 'Added')).toHaveLength(250);
    const other = await t.request('POST', '/v1/MultiCarts', { as: 'einkauf2@example.com', body: { name: 'Fremd' } });
    expect(
      (
        await t.request('POST', `/v1/MultiCarts/${other.body.id}/QuickOrder`, {
          as: BUYER,
          body: { text: 'TEST-NB-1;1' },
        })
      ).status,
    ).toBe(404);
    const empty = await quick({ text: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.title).toBe('Bitte geben Sie mindestens eine Zeile ein.');
  });
});
