import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { eventually, startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { generateFile, type GenerateFileJob } from './generate-file.ts';
import { generateFileInWorker, stopReportThread } from './report-thread.ts';

/** Report files are written in a worker thread (report-thread.ts); what that changes is checked here. */
let t: TestApp;
let dir: string;
const sql = (text: string, params: unknown[] = []) => t.pool.query(text, params);
const admin = 'admin@example.com';
const job = (file: string, format: 'csv' | 'xlsx'): GenerateFileJob => ({
  connection: { connectionString: t.databaseUrl },
  reportTypeId: 1,
  format,
  startDate: '2025-06-01',
  endDate: '2025-06-30',
  file: path.join(dir, file),
});

beforeAll(async () => {
  t = await startTestApp();
  dir = fs.mkdtempSync(path.join(t.config.dataDir, 'worker-test-'));
  const { rows } = await sql(
    `INSERT INTO customer_orders (customer_order_number, bp_number, user_id, total_net, delivery_cost_total, customer_address, placed_at)
     VALUES ('WRK-1', '100001', '00000000-0000-4000-8000-000000000001', 0, 0, '{}', '2025-06-10T08:00:00Z') RETURNING id`,
  );
  // More rows than one FETCH, so the worker reads several batches.
  await sql(
    `INSERT INTO supplier_orders (supplier_order_number, customer_order_id, supplier_bp_number, buyer_bp_number, status_id,
       net_value, delivery_cost, placed_at, sent_at, confirmed_at)
     SELECT 'WRK-1-' || k, $1, '200001', '100001', 4, k + 0.5, 0, '2025-06-10T08:00:00Z'::timestamptz + k * interval '1 minute',
            '2025-06-10T08:00:00Z'::timestamptz + k * interval '1 minute', '2025-06-11T08:00:00Z'
       FROM generate_series(1, 2500) k`,
    [rows[0].id],
  );
}, 120_000);
afterAll(async () => {
  await stopReportThread();
  await t?.close();
});

// Starting the thread (exceljs and the report code load in it) takes up to ~30 s on a busy machine.
describe('report thread', { timeout: 120_000 }, () => {
  it('the worker thread writes the same CSV as the generation in this thread', async () => {
    expect(await generateFileInWorker(job('worker.csv', 'csv'))).toBe(2500);
    expect(await generateFile(job('inline.csv', 'csv'))).toBe(2500);
    const worker = fs.readFileSync(path.join(dir, 'worker.csv'));
    expect(worker.equals(fs.readFileSync(path.join(dir, 'inline.csv')))).toBe(true);
    expect(worker.toString('utf8').split('\r\n')[2]).toContain('WRK-1-2;WRK-1;200001');
  });

  it('the worker thread writes an XLSX with typed cells and German formats', async () => {
    expect(await generateFileInWorker(job('worker.xlsx', 'xlsx'))).toBe(2500);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.join(dir, 'worker.xlsx'));
    const ws = wb.worksheets[0];
    expect(ws.rowCount).toBe(2501);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const last = ws.getRow(2501);
    expect(last.getCell(1).value).toBe('WRK-1-2500');
    // 08:00 UTC + 2500 minutes = 12 June 2025 01:40 UTC = 03:40 in Berlin
    expect((last.getCell(8).value as Date).toISOString()).toBe('2025-06-12T03:40:00.000Z');
    expect(last.getCell(8).numFmt).toBe('dd.mm.yyyy hh:mm');
    expect(last.getCell(12).value).toBe(2500.5);
    expect(last.getCell(12).numFmt).toBe('#,##0.00 "€"');
    expect(last.getCell(11).type).toBe(ExcelJS.ValueType.String);
  });

  it('an abort (the attempt lost its lease) ends the worker thread and its database query', async () => {
    const locker = await t.pool.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE supplier_orders IN ACCESS EXCLUSIVE MODE');
      const abort = new AbortController();
      const running = generateFileInWorker(job('aborted.csv', 'csv'), abort.signal);
      // the worker's query waits for the lock
      await eventually(async () => {
        const { rows } = await sql(`SELECT 1 FROM pg_stat_activity WHERE query LIKE 'DECLARE report_cursor%'`);
        return rows.length ? true : null;
      }, 20_000);
      abort.abort();
      await expect(running).rejects.toThrow('report generation aborted');
      // A backend waiting for a lock does not watch its socket; once it has the lock it finds the client gone.
      await locker.query('ROLLBACK');
      await eventually(async () => {
        const { rows } = await sql(`SELECT 1 FROM pg_stat_activity WHERE query LIKE 'DECLARE report_cursor%'`);
        return rows.length ? null : true;
      }, 20_000);
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      locker.release();
    }
  });

  it('a database error inside the worker thread fails the report with its reason after the retries', async () => {
    await sql('ALTER TABLE search_zero_hits RENAME TO search_zero_hits_away');
    try {
      const r = await t.request('POST', '/v1/Reports/Generate', {
        as: admin,
        body: { reportType: 6, startDate: '2025-06-01', endDate: '2025-06-30', format: 'csv' },
      });
      expect(r.status).toBe(202);
      const done = await eventually(async () => {
        const list = await t.request('GET', '/v1/Reports?Page=1&PageSize=25', { as: admin });
        const item = list.body.items.find((i: { id: number }) => i.id === r.body.id);
        return item && item.reportGenerationStatusId >= 3 ? item : null;
      }, 60_000);
      expect(done.reportGenerationStatusId).toBe(4);
      expect(done.failureReason).toBe(
        'Der Bericht konnte nicht erzeugt werden. Die Datenbankabfrage ist fehlgeschlagen.',
      );
      const { rows } = await sql('SELECT attempts FROM reports WHERE id = $1', [r.body.id]);
      expect(rows[0].attempts).toBe(3);
    } finally {
      await sql('ALTER TABLE search_zero_hits_away RENAME TO search_zero_hits');
    }
  });
});
