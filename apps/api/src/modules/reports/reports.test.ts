import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { relationStatusLabels } from '@shk/contracts';
import { eventually, startTestApp, type TestApp } from '../../../test/support/test-app.ts';

let t: TestApp;
const sql = (text: string, params: unknown[] = []) => t.pool.query(text, params);
const admin = 'admin@example.com';
const support = 'support@example.com';
const operator = 'betrieb@example.com';

async function generate(as: string, body: Record<string, unknown>) {
  return t.request('POST', '/v1/Reports/Generate', { as, body });
}
async function finished(as: string, id: number) {
  return eventually(async () => {
    const list = await t.request('GET', '/v1/Reports?Page=1&PageSize=25', { as });
    const r = list.body.items.find((i: any) => i.id === id);
    return r && r.reportGenerationStatusId >= 3 ? r : null;
  }, 90_000);
}
async function download(as: string, id: number) {
  const token = await t.token(as);
  const res = await fetch(`${t.baseUrl}/v1/Reports/Download/${id}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

beforeAll(async () => {
  t = await startTestApp();
  const { rows } = await sql(
    // Status as derived from its supplier orders below (one confirmed, the others not): set here, because the
    // transmission worker of the test app derives it again only when it happens to transmit REP-1-3 first.
    `INSERT INTO customer_orders (customer_order_number, bp_number, user_id, total_net, delivery_cost_total, customer_address, placed_at, status_id)
     VALUES ('REP-1', '100001', '00000000-0000-4000-8000-000000000001', 1234.5, 4.9, '{}', '2025-03-30T08:00:00Z', 3) RETURNING id`,
  );
  const insert = `INSERT INTO supplier_orders (supplier_order_number, customer_order_id, supplier_bp_number, buyer_bp_number,
      supplier_customer_number, status_id, net_value, delivery_cost, placed_at, sent_at, confirmed_at)
    VALUES ($1, $2, $3, '100001', $4, $5, $6, $7, $8, $9, $10)`;
  await sql(insert, [
    'REP-1-1',
    rows[0].id,
    '200001',
    '=HYPERLINK("http://x")',
    4,
    1234.5,
    4.9,
    '2025-03-30T08:00:00Z',
    '2025-03-30T08:05:00Z',
    '2025-03-31T10:05:00Z',
  ]);
  await sql(insert, ['REP-1-2', rows[0].id, '200002', 'K-7', 3, 99.99, 0, '2025-03-31T21:30:00Z', null, null]);
  // outside the range
  await sql(insert, ['REP-1-3', rows[0].id, '200002', 'K-8', 1, 5, 0, '2025-04-01T22:30:00Z', null, null]);
  // Order lines of REP-1-1 (type 2).
  const { rows: so } = await sql(
    `SELECT id, supplier_order_number FROM supplier_orders WHERE supplier_order_number LIKE 'REP-1-%'`,
  );
  const idOf = (n: string) => so.find((r: any) => r.supplier_order_number === n).id;
  const line = `INSERT INTO order_lines (supplier_order_id, line_no, product_instance_id, article_number, name, quantity,
      unit_code, unit_price, quantity_price, delivery_date) VALUES ($1, $2, 'pi', $3, $4, $5, $6, $7, $8, $9)`;
  await sql(line, [idOf('REP-1-1'), 1, 'ART-1', 'Kugelhahn DN50', 10, 'STK', 100, 1000, '2025-04-15']);
  await sql(line, [idOf('REP-1-1'), 2, '+SUM(A1)', 'Dichtung', 2.5, 'MTR', 93.8, 234.5, null]);
  // Transmission attempts of REP-1-2 (type 5): a failure, an abandoned attempt and a success that is not reported.
  const attempt = `INSERT INTO supplier_order_transmission_attempts (supplier_order_id, attempt_no, protocol_id, started_at,
      finished_at, outcome, error) VALUES ($1, $2, $3, $4, $4, $5, $6)`;
  await sql(attempt, [idOf('REP-1-2'), 1, 4, '2025-03-31T21:35:00Z', 'failed', 'HTTP 503: Service Unavailable']);
  await sql(attempt, [idOf('REP-1-2'), 2, 4, '2025-03-31T21:45:00Z', 'abandoned', 'Abgebrochen (Prozess beendet)']);
  await sql(attempt, [idOf('REP-1-1'), 1, 2, '2025-03-30T08:05:00Z', 'sent', null]);
  // An order in SendingFailed from before the attempt log (placed outside the range, failed inside it).
  await sql(insert, ['REP-1-4', rows[0].id, '200003', 'K-9', 3, 42, 0, '2025-03-01T10:00:00Z', null, null]);
  await sql(
    `UPDATE supplier_orders SET status_changed_at = '2025-03-31T06:00:00Z' WHERE supplier_order_number = 'REP-1-4'`,
  );
  // A supplier-customer relation changed in the range (type 4).
  await sql(
    `UPDATE supplier_customers SET created_at = '2024-05-01T10:00:00Z', updated_at = '2025-03-31T09:15:00Z'
      WHERE supplier_bp_number = '200001' AND buyer_bp_number = '100001'`,
  );
  await sql(
    `INSERT INTO search_zero_hits (term, created_at) VALUES ('Wärmepumpe XL', '2025-03-30T10:00:00Z'), ('wärmepumpe xl', '2025-03-31T10:00:00Z')`,
  );
  await sql(
    `INSERT INTO feedbacks (user_id, is_positive, comment, url, created_at)
     VALUES ('00000000-0000-4000-8000-000000000001', false, 'nichts gefunden', '/suche?term=Kugelh%C3%A4hne+DN50', '2025-03-30T12:00:00Z')`,
  );
}, 120_000);
afterAll(async () => t?.close());

// Each test may start the report thread (after 30 s idle it ends): loading exceljs and the report code in it
// takes up to ~30 s on a machine busy with other test runs.
describe('reports', { timeout: 120_000 }, () => {
  it('lists the report types', async () => {
    const r = await t.request('GET', '/v1/Reports/ReportTypes', { as: admin });
    expect(r.status).toBe(200);
    expect(r.body.map((x: any) => x.name)).toEqual([
      'Lieferantenbestellungen',
      'Positionen der Lieferantenbestellungen',
      'Kundenbestellungen',
      'Lieferanten-Kunden-Beziehungen',
      'Übertragungsfehler',
      'Suchbegriffe ohne Treffer',
    ]);
  });

  it('validates type and dates with German messages', async () => {
    const early = await generate(admin, { reportType: 1, startDate: '2023-12-31', endDate: '2024-01-31' });
    expect(early.status).toBe(400);
    expect(early.body.errors.map((e: any) => e.message)).toContain('Das Datum darf nicht vor dem 01.01.2024 liegen.');
    const reversed = await generate(admin, { reportType: 1, startDate: '2025-02-01', endDate: '2025-01-01' });
    expect(reversed.body.errors.map((e: any) => e.message)).toContain(
      'Das Startdatum darf nicht nach dem Enddatum liegen.',
    );
    const unknown = await generate(admin, { reportType: 99, startDate: '2025-01-01', endDate: '2025-01-02' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.map((e: any) => e.message)).toContain('Unbekannter Berichtstyp.');
  });

  it('fails after its retries with a reason when the file cannot be written', async () => {
    const dir = path.join(t.config.dataDir, 'reports');
    fs.writeFileSync(dir, 'kein Verzeichnis');
    try {
      const r = await generate(operator, { reportType: 1, startDate: '2025-03-30', endDate: '2025-03-31' });
      expect(r.status).toBe(202);
      expect(r.body.reportGenerationStatusId).toBe(1);
      const done = await finished(operator, r.body.id);
      expect(done.reportGenerationStatusId).toBe(4);
      expect(done.failureReason).toBe(
        'Der Bericht konnte nicht erzeugt werden. Die Berichtsdatei konnte nicht gespeichert werden.',
      );
      const { rows } = await sql('SELECT attempts FROM reports WHERE id = $1', [r.body.id]);
      expect(rows[0].attempts).toBe(3);
      expect((await download(operator, r.body.id)).status).toBe(404);
    } finally {
      fs.rmSync(dir, { force: true });
    }
  });

  let xlsxId = 0;
  it('generates a supplier order report as XLSX: typed cells, German formats, frozen header, auto filter', async () => {
    const r = await generate(admin, { reportType: 1, startDate: '2025-03-30', endDate: '2025-03-31', format: 'xlsx' });
    expect(r.status).toBe(202);
    xlsxId = r.body.id;
    const done = await finished(admin, xlsxId);
    expect(done.reportGenerationStatusId).toBe(3);
    expect(done.rowCount).toBe(2);
    const file = await download(admin, xlsxId);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('Lieferantenbestellungen_2025-03-30_2025-03-31.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.bytes as any);
    const ws = wb.worksheets[0];
    expect(ws.name).toBe('Lieferantenbestellungen');
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.autoFilter).toBeTruthy();
    expect(ws.getRow(1).getCell(1).value).toBe('Lieferantenbestellung');
    expect(ws.rowCount).toBe(3);
    const row = ws.getRow(2);
    expect(row.getCell(1).value).toBe('REP-1-1');
    expect(row.getCell(7).value).toBe('=HYPERLINK("http://x")'); // a string cell, not a formula
    expect(row.getCell(7).type).toBe(ExcelJS.ValueType.String);
    // 08:00 UTC on 30 March 2025 is 10:00 in Berlin (summer time began that night)
    expect((row.getCell(8).value as Date).toISOString()).toBe('2025-03-30T10:00:00.000Z');
    expect(row.getCell(8).numFmt).toBe('dd.mm.yyyy hh:mm');
    expect(row.getCell(11).value).toBe('Bestätigt');
    expect(row.getCell(12).value).toBe(1234.5);
    expect(row.getCell(12).numFmt).toBe('#,##0.00 "€"');
    expect(row.getCell(14).value).toBe(26);
    expect(ws.getRow(3).getCell(11).value).toBe('Versand fehlgeschlagen');
  });

  it('generates CSV with BOM, semicolons, German numbers and formula-safe text', async () => {
    const r = await generate(admin, { reportType: 1, startDate: '2025-03-30', endDate: '2025-03-31', format: 'csv' });
    const done = await finished(admin, r.body.id);
    expect(done.reportGenerationStatusId).toBe(3);
    const file = await download(admin, r.body.id);
    expect(file.headers.get('content-type')).toContain('text/csv');
    expect([...file.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parse(file.bytes, { bom: true, delimiter: ';' }) as string[][];
    expect(records[0][0]).toBe('Lieferantenbestellung');
    expect(records[1][6]).toBe(`'=HYPERLINK("http://x")`);
    expect(records[1][7]).toBe('30.03.2025 10:00');
    expect(records[1][11]).toBe('1234,50');
    expect(records[2][11]).toBe('99,99');
    expect(records).toHaveLength(3);
  });

  it('reports search terms without hits from the log and negative feedback', async () => {
    const r = await generate(admin, { reportType: 6, startDate: '2025-03-30', endDate: '2025-03-31', format: 'csv' });
    expect((await finished(admin, r.body.id)).reportGenerationStatusId).toBe(3);
    const records = parse((await download(admin, r.body.id)).bytes, { bom: true, delimiter: ';' }) as string[][];
    expect(records.slice(1).map((x) => [x[0], x[1], x[2], x[4]])).toEqual([
      ['wärmepumpe xl', 'Suche ohne Treffer', '2', ''],
      ['kugelhähne dn50', 'Negatives Feedback', '1', 'nichts gefunden'],
    ]);
  });

  const csvOf = async (reportType: number, startDate = '2025-03-30', endDate = '2025-03-31') => {
    const r = await generate(admin, { reportType, startDate, endDate, format: 'csv' });
    expect(r.status).toBe(202);
    const done = await finished(admin, r.body.id);
    expect(done.reportGenerationStatusId).toBe(3);
    const records = parse((await download(admin, r.body.id)).bytes, { bom: true, delimiter: ';' }) as string[][];
    expect(done.rowCount).toBe(records.length - 1);
    return records;
  };
  const xlsxOf = async (reportType: number, startDate = '2025-03-30', endDate = '2025-03-31') => {
    const r = await generate(admin, { reportType, startDate, endDate, format: 'xlsx' });
    const done = await finished(admin, r.body.id);
    expect(done.reportGenerationStatusId).toBe(3);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await download(admin, r.body.id)).bytes as any);
    return wb.worksheets[0];
  };
  const partnerName = async (bp: string) =>
    (await sql('SELECT name FROM business_partners WHERE bp_number = $1', [bp])).rows[0].name as string;

  it('type 2: one row per order line, with its order; typed cells in XLSX', async () => {
    const records = await csvOf(2);
    expect(records[0]).toEqual([
      'Lieferantenbestellung',
      'Bestellt am',
      'Lieferant',
      'Käufer',
      'Position',
      'Artikelnummer',
      'Bezeichnung',
      'Menge',
      'Einheit',
      'Einzelpreis',
      'Positionswert',
      'Lieferdatum',
      'Bestätigung',
      'Menge bestellt',
      'Positionswert bestellt',
    ]);
    expect(records.slice(1)).toEqual([
      [
        'REP-1-1',
        '30.03.2025 10:00',
        await partnerName('200001'),
        await partnerName('100001'),
        '1',
        'ART-1',
        'Kugelhahn DN50',
        '10',
        'STK',
        '100,00',
        '1000,00',
        '15.04.2025',
        '',
        '10',
        '1000,00',
      ],
      [
        'REP-1-1',
        '30.03.2025 10:00',
        await partnerName('200001'),
        await partnerName('100001'),
        '2',
        "'+SUM(A1)",
        'Dichtung',
        '2,5',
        'MTR',
        '93,80',
        '234,50',
        '',
        '',
        '2,5',
        '234,50',
      ],
    ]);
    const ws = await xlsxOf(2);
    expect(ws.rowCount).toBe(3);
    const row = ws.getRow(3);
    expect(row.getCell(5).value).toBe(2);
    expect(row.getCell(6).value).toBe('+SUM(A1)');
    expect(row.getCell(6).type).toBe(ExcelJS.ValueType.String);
    expect(row.getCell(8).value).toBe(2.5);
    expect(row.getCell(11).value).toBe(234.5);
    expect(row.getCell(11).numFmt).toBe('#,##0.00 "€"');
    expect((ws.getRow(2).getCell(12).value as Date).toISOString()).toBe('2025-04-15T00:00:00.000Z');
    expect(ws.getRow(2).getCell(12).numFmt).toBe('dd.mm.yyyy');
  });

  it('type 3: one row per customer order with status, number of supplier orders and totals', async () => {
    const records = await csvOf(3);
    expect(records[0]).toEqual([
      'Kundenbestellung',
      'Bestellt am',
      'Käufer Nr.',
      'Käufer',
      'Warenkorb',
      'Status',
      'Lieferantenbestellungen',
      'Nettowert',
      'Lieferkosten',
      'Nettowert bestellt',
    ]);
    expect(records.slice(1)).toEqual([
      [
        'REP-1',
        '30.03.2025 10:00',
        '100001',
        await partnerName('100001'),
        '',
        'Teilweise bestätigt',
        '4',
        '1234,50',
        '4,90',
        '1234,50',
      ],
    ]);
    const ws = await xlsxOf(3);
    expect(ws.getRow(2).getCell(7).value).toBe(4);
    expect(ws.getRow(2).getCell(8).value).toBe(1234.5);
  });

  it('type 4: supplier-customer relations created or changed in the range, with their status', async () => {
    const { rows } = await sql(
      `SELECT relation_status_id, supplier_customer_number, is_active FROM supplier_customers
        WHERE supplier_bp_number = '200001' AND buyer_bp_number = '100001'`,
    );
    const records = await csvOf(4);
    expect(records[0]).toEqual([
      'Lieferant Nr.',
      'Lieferant',
      'Kunde Nr.',
      'Kunde',
      'Kundennummer',
      'Status',
      'Aktiv',
      'Angelegt am',
      'Geändert am',
    ]);
    expect(records.slice(1)).toEqual([
      [
        '200001',
        await partnerName('200001'),
        '100001',
        await partnerName('100001'),
        rows[0].supplier_customer_number ?? '',
        relationStatusLabels[rows[0].relation_status_id],
        rows[0].is_active ? 'ja' : 'nein',
        '01.05.2024 12:00',
        '31.03.2025 11:15',
      ],
    ]);
    const ws = await xlsxOf(4);
    expect((ws.getRow(2).getCell(9).value as Date).toISOString()).toBe('2025-03-31T11:15:00.000Z');
  });

  it('type 5: transmission failures from the attempt log (channel, time, error) and failed orders without one', async () => {
    const records = await csvOf(5);
    expect(records[0]).toEqual([
      'Lieferantenbestellung',
      'Lieferant Nr.',
      'Lieferant',
      'Käufer',
      'Bestellt am',
      'Versuch',
      'Übertragungsweg',
      'Versuch am',
      'Ergebnis',
      'Fehler',
      'Status der Bestellung',
      'Nettowert',
    ]);
    const buyer = await partnerName('100001');
    expect(records.slice(1)).toEqual([
      [
        'REP-1-4',
        '200003',
        await partnerName('200003'),
        buyer,
        '01.03.2025 11:00',
        '',
        '',
        '31.03.2025 08:00',
        '',
        'Versand fehlgeschlagen (kein Übertragungsversuch protokolliert)',
        'Versand fehlgeschlagen',
        '42,00',
      ],
      [
        'REP-1-2',
        '200002',
        await partnerName('200002'),
        buyer,
        '31.03.2025 23:30',
        '1',
        'HTTP',
        '31.03.2025 23:35',
        'fehlgeschlagen',
        'HTTP 503: Service Unavailable',
        'Versand fehlgeschlagen',
        '99,99',
      ],
      [
        'REP-1-2',
        '200002',
        await partnerName('200002'),
        buyer,
        '31.03.2025 23:30',
        '2',
        'HTTP',
        '31.03.2025 23:45',
        'abgebrochen',
        'Abgebrochen (Prozess beendet)',
        'Versand fehlgeschlagen',
        '99,99',
      ],
    ]);
    // An attempt on 1 April (Berlin) is outside a range ending on 31 March.
    expect((await csvOf(5, '2025-04-01', '2025-04-30')).slice(1)).toEqual([]);
    const ws = await xlsxOf(5);
    expect(ws.getRow(3).getCell(6).value).toBe(1);
    expect((ws.getRow(3).getCell(8).value as Date).toISOString()).toBe('2025-03-31T23:35:00.000Z');
    expect(ws.getRow(3).getCell(8).numFmt).toBe('dd.mm.yyyy hh:mm');
  });

  it('logs searches without hits from the product search', async () => {
    const r = await t.request('POST', '/v1/Product/Search', {
      as: 'einkauf@example.com',
      body: { searchTerm: 'Qxzyplörk', page: 1, pageSize: 25 },
    });
    expect(r.status).toBe(200);
    expect(r.body.hitCount).toBe(0);
    const row = await eventually(async () => {
      const { rows } = await sql(`SELECT term, bp_number FROM search_zero_hits WHERE term = 'Qxzyplörk'`);
      return rows[0];
    });
    expect(row.bp_number).toBe('100001');
  });

  it('refuses a second generation while one is pending', async () => {
    await sql(
      `INSERT INTO reports (user_id, report_type_id, start_date, end_date, status_id)
       SELECT id, 1, '2025-01-01', '2025-01-31', 2 FROM users WHERE email = $1`,
      [support],
    );
    const r = await generate(support, { reportType: 1, startDate: '2025-03-30', endDate: '2025-03-31' });
    expect(r.status).toBe(409);
    expect(r.body.title).toBe('Es wird bereits ein Bericht erzeugt. Bitte warten Sie, bis er fertig ist.');
  });

  it("another user's report is a 404 and is not listed", async () => {
    expect((await download(support, xlsxId)).status).toBe(404);
    const list = await t.request('GET', '/v1/Reports?Page=1&PageSize=25', { as: support });
    expect(list.body.items.map((i: any) => i.id)).not.toContain(xlsxId);
    expect((await t.request('GET', '/v1/Reports', { as: 'verkauf@example.com' })).status).toBe(403);
  });

  it('removes files and rows after the retention period', async () => {
    const { rows } = await sql('SELECT stored_as FROM reports WHERE id = $1', [xlsxId]);
    const file = path.join(t.config.dataDir, 'reports', rows[0].stored_as);
    expect(fs.existsSync(file)).toBe(true);
    await sql(`UPDATE reports SET expires_at = now() - interval '1 minute' WHERE id = $1`, [xlsxId]);
    const r = await generate(admin, { reportType: 3, startDate: '2025-03-30', endDate: '2025-03-31' });
    expect((await finished(admin, r.body.id)).reportGenerationStatusId).toBe(3);
    expect(fs.existsSync(file)).toBe(false);
    expect((await download(admin, xlsxId)).status).toBe(404);
  });
});
