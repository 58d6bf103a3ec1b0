import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanFileName, isAcceptedFile, verifyFileContent } from '../../src/lib/file-types.ts';
import { neutraliseCsvCell, neutraliseCsvFile } from '../../src/lib/uploads/csv-safe.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import { placeOrder } from '../transmission/order-fixtures.ts';
import { loadAttachmentContents } from '../../src/modules/transmission/transmission.repo.ts';
import { checkTemplate } from '../../src/modules/suppliers/supplier-files.ts';
import { fileStorage } from '../../src/modules/storage/index.ts';

const storageOf = (t: TestApp) => fileStorage({ config: t.config, pool: t.pool });

const ALL = ['pdf', 'png', 'jpg', 'jpeg', 'xls', 'xlsx', 'csv'];
const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const html = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>');

describe('content must match the extension', () => {
  it('refuses an HTML page named .csv, a PDF with HTML after it, and renamed binaries', async () => {
    for (const [name, content] of [
      ['liste.csv', html],
      ['liste.csv', Buffer.from('Artikel;Menge\n<script>alert(1)</script>;1\n')],
      ['rechnung.pdf', Buffer.concat([pdf, html])],
      ['rechnung.pdf', Buffer.from('%PDF-1.4 kein Ende')],
      ['bild.pdf', png],
      ['tabelle.xlsx', Buffer.from('PK\u0003\u0004 nur ein Zip-Kopf')],
      ['bild.png', pdf],
      ['programm.exe', Buffer.from('MZ')],
    ] as const) {
      expect(isAcceptedFile(name, content, [...ALL, 'exe']), name).toBe(false);
      expect(await verifyFileContent(name, content, [...ALL, 'exe']), name).toBe(false);
    }
  });

  it('accepts the real thing (file-type and the structural check agree)', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Liste').addRow(['Artikel', 'Menge']);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    for (const [name, content] of [
      ['rechnung.pdf', pdf],
      ['bild.png', png],
      ['tabelle.xlsx', xlsx],
      ['liste.csv', Buffer.from('Artikel;Menge\nTM-100;3\n')],
    ] as const) {
      expect(await verifyFileContent(name, content, ALL), name).toBe(true);
    }
  });
});

describe('file names', () => {
  it('lose path parts, control, bidi and invisible characters', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\x\\angebot.pdf')).toBe('angebot.pdf');
    expect(cleanFileName('rechnung\u202Efdp.exe')).toBe('rechnungfdp.exe');
    expect(cleanFileName('a\u0000b\u0007c.pdf')).toBe('abc.pdf');
    expect(cleanFileName('\u200Bunsichtbar\u2066.pdf')).toBe('unsichtbar.pdf');
    expect(cleanFileName('.htaccess')).toBe('htaccess');
    expect(cleanFileName('...')).toBe('datei');
    const long = cleanFileName(`${'x'.repeat(300)}.pdf`);
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long.endsWith('.pdf')).toBe(true);
  });
});

describe('CSV formula injection', () => {
  it('neutralises cells starting with = + - @ tab or CR, keeps numbers', () => {
    expect(neutraliseCsvCell('=HYPERLINK("http://x","klick")')).toBe(`'=HYPERLINK("http://x","klick")`);
    expect(neutraliseCsvCell('+49 221')).toBe(`'+49 221`);
    expect(neutraliseCsvCell('@SUMME(A1)')).toBe(`'@SUMME(A1)`);
    expect(neutraliseCsvCell('\t=1+1')).toBe(`'\t=1+1`);
    expect(neutraliseCsvCell('\r=1')).toBe(`'\r=1`);
    expect(neutraliseCsvCell('-3,5')).toBe('-3,5');
    expect(neutraliseCsvCell('+12')).toBe('+12');
    expect(neutraliseCsvCell('Rohr 22 mm')).toBe('Rohr 22 mm');
    expect(neutraliseCsvCell(42)).toBe(42);
  });

  it('neutralises a whole file in its own delimiter', async () => {
    const out = (await neutraliseCsvFile(Buffer.from('Artikel;Menge;Notiz\nTM-100;-2;=cmd|calc\n'))).toString();
    expect(out).toBe(`Artikel;Menge;Notiz\r\nTM-100;-2;'=cmd|calc\r\n`);
  });

  it('keeps the encoding of an ISO-8859-1 file and leaves a harmless file byte for byte', async () => {
    const latin1 = Buffer.from('Artikel;Notiz\nTM-100;Maße =SUMME\nTM-200;@Größe\n', 'latin1');
    expect((await neutraliseCsvFile(latin1)).toString('latin1')).toBe(
      "Artikel;Notiz\r\nTM-100;Maße =SUMME\r\nTM-200;'@Größe\r\n",
    );
    const harmless = Buffer.from('\uFEFFArtikel,Menge\nTM-100,-3\n');
    expect((await neutraliseCsvFile(harmless)).equals(harmless)).toBe(true);
  });
});

describe('onboarding template', () => {
  it('refuses a PDF with an HTML page appended', async () => {
    await expect(checkTemplate('vorlage.pdf', Buffer.concat([pdf, html]))).rejects.toMatchObject({ status: 400 });
    await expect(checkTemplate('vorlage.pdf', pdf)).resolves.toMatchObject({ fileName: 'vorlage.pdf' });
  });
});

describe('uploads through the API', () => {
  let t: TestApp;
  let itemId: number;
  beforeAll(async () => {
    t = await startTestApp({ env: {} });
    await insertTestOffers(t.pool);
    const cart = await t.request('POST', '/v1/MultiCarts', { as: 'einkauf@example.com', body: { name: 'Upload' } });
    const item = await t.request('POST', '/v1/CartItems', {
      as: 'einkauf@example.com',
      body: { cartId: cart.body.id, productInstanceId: offers.nordbad, quantity: 1 },
    });
    itemId = item.body.cartItemId;
  });
  afterAll(async () => {
    await t?.close();
  });

  const upload = (name: string, content: Buffer) => {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(content)]), name);
    return t.request('POST', `/v1/CartItems/${itemId}/attachments`, { as: 'einkauf@example.com', body: form });
  };

  it('refuses an HTML page named .csv and a PDF with HTML appended; stores a clean name', async () => {
    expect((await upload('liste.csv', html)).status).toBe(400);
    expect((await upload('rechnung.pdf', Buffer.concat([pdf, html]))).status).toBe(400);
    const ok = await upload('../x/rech\u202Enung.pdf', pdf);
    expect(ok.status).toBe(200);
    expect(ok.body.map((a: { fileName: string }) => a.fileName)).toContain('rechnung.pdf');
  });

  it("refuses files beyond the partner's storage quota with a German 413 problem", async () => {
    // Fill the partner's storage up to just below the quota (500 MB by default) with a stored row.
    const [{ id }] = (
      await t.pool.query(
        `INSERT INTO cart_item_attachments (cart_item_id, file_name, content_type, size_bytes, content)
         VALUES ($1, 'gross.pdf', 'application/pdf', $2, '\\x00') RETURNING id`,
        [itemId, 500 * 1024 * 1024 - 10],
      )
    ).rows;
    const res = await upload('klein.pdf', pdf);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ status: 413, title: 'Der Speicherplatz ist aufgebraucht.' });
    await t.pool.query('DELETE FROM cart_item_attachments WHERE id = $1', [id]);
  });

  const formulaCsv = Buffer.from('Artikel;Menge;Notiz\nTM-100;2;=HYPERLINK("http://x.example","klick")\n');
  const safeCsv = `Artikel;Menge;Notiz\r\nTM-100;2;"'=HYPERLINK(""http://x.example"",""klick"")"\r\n`;

  it('neutralises a CSV attachment before it is stored and forwarded to the supplier with the order', async () => {
    const up = await upload('liste.csv', formulaCsv);
    expect(up.status).toBe(200);
    const stored = up.body.find((a: { fileName: string }) => a.fileName === 'liste.csv');
    const download = await t.request('GET', `/v1/CartItems/${itemId}/attachments/${stored.id}`, {
      as: 'einkauf@example.com',
    });
    expect(download.text).toBe(safeCsv);

    // What the supplier's order mail carries: the attachments of the order lines.
    const order = await placeOrder(t, [{ offer: offers.nordbad, quantity: 1 }], {
      attachment: { name: 'bestellung.csv', content: formulaCsv },
    });
    const forwarded = await loadAttachmentContents(t.pool, order.supplierOrders[0].id, storageOf(t));
    const csv = forwarded.find((f) => f.fileName === 'bestellung.csv');
    expect(csv?.content.toString()).toBe(safeCsv);
  });

  it('neutralises CSV attachments stored by any other path when they are forwarded to the supplier', async () => {
    // A row that did not pass the upload route (older data): the transmission still forwards it neutralised.
    const order = await placeOrder(t, [{ offer: offers.nordbad, quantity: 1 }]);
    await t.pool.query(
      `INSERT INTO order_line_attachments (order_line_id, file_name, content_type, size_bytes, content)
       SELECT id, 'alt.csv', 'text/csv', $2, $3 FROM order_lines WHERE supplier_order_id = $1 LIMIT 1`,
      [order.supplierOrders[0].id, formulaCsv.length, formulaCsv],
    );
    const forwarded = await loadAttachmentContents(t.pool, order.supplierOrders[0].id, storageOf(t));
    expect(forwarded.find((f) => f.fileName === 'alt.csv')?.content.toString()).toBe(safeCsv);
  });

  describe('supplier order documents', () => {
    const SELLER = 'verkauf@example.com';
    let orderNumber: string;
    beforeAll(async () => {
      const order = await placeOrder(t, [{ offer: offers.nordbad, quantity: 1 }]);
      orderNumber = order.supplierOrders[0].number;
    });
    const uploadDocument = (name: string, content: Buffer) => {
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(content)]), name);
      return t.request('POST', `/v1/SupplierOrders/${orderNumber}/Attachments`, { as: SELLER, body: form });
    };

    it('refuses known types whose content does not match, keeps other formats, neutralises CSV', async () => {
      for (const [name, content] of [
        ['lieferschein.pdf', Buffer.concat([pdf, html])],
        ['liste.csv', html],
        ['foto.png', pdf],
      ] as const) {
        const res = await uploadDocument(name, content);
        expect(res.status, name).toBe(400);
        expect(res.body.title, name).toBe('Bitte überprüfen Sie das Format Ihrer Datei.');
      }
      expect((await uploadDocument('zeichnung.dwg', Buffer.from('AC1032 Zeichnung'))).status).toBe(200);
      const csv = await uploadDocument('positionen.csv', formulaCsv);
      expect(csv.status).toBe(200);
      const doc = csv.body.find((d: { fileName: string }) => d.fileName === 'positionen.csv');
      const download = await t.request('GET', `/v1/SupplierOrders/${orderNumber}/Attachments/${doc.id}`, {
        as: 'einkauf@example.com',
      });
      expect(download.text).toBe(safeCsv);
    });

    it("count in the supplier's storage quota", async () => {
      const [{ id }] = (
        await t.pool.query(
          `INSERT INTO supplier_order_documents (supplier_order_id, file_name, content_type, size_bytes, content)
           SELECT id, 'gross.pdf', 'application/pdf', $2, '\\x00' FROM supplier_orders WHERE supplier_order_number = $1
           RETURNING id`,
          [orderNumber, 500 * 1024 * 1024 - 10],
        )
      ).rows;
      const res = await uploadDocument('klein.pdf', pdf);
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ status: 413, title: 'Der Speicherplatz ist aufgebraucht.' });
      await t.pool.query('DELETE FROM supplier_order_documents WHERE id = $1', [id]);
    });
  });
});
