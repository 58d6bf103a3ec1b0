import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { eventually, startTestApp, type TestApp } from '../../../test/support/test-app.ts';

/**
 * A report worker killed mid-report (SIGKILL, no cleanup): its pg-boss job stays active until pg-boss's
 * 15-minute expiry, but the report's lease runs out and the sweeper of another worker queues it again.
 * The worker runs in child processes; the app itself generates nothing (REPORT_WORKER=off).
 */
let t: TestApp;
const children: ChildProcess[] = [];
const sql = (text: string, params: unknown[] = []) => t.pool.query(text, params);
const admin = 'admin@example.com';

beforeAll(async () => {
  process.env.REPORT_WORKER = 'off';
  t = await startTestApp();
  const { rows } = await sql(
    `INSERT INTO customer_orders (customer_order_number, bp_number, user_id, total_net, delivery_cost_total, customer_address, placed_at)
     VALUES ('CRASH-1', '100001', '00000000-0000-4000-8000-000000000001', 30, 0, '{}', '2025-05-05T08:00:00Z') RETURNING id`,
  );
  for (const [n, net] of [
    ['CRASH-1-1', 10],
    ['CRASH-1-2', 20],
  ])
    await sql(
      `INSERT INTO supplier_orders (supplier_order_number, customer_order_id, supplier_bp_number, buyer_bp_number, status_id,
         net_value, delivery_cost, placed_at)
       VALUES ($1, $2, '200001', '100001', 1, $3, 0, '2025-05-05T08:00:00Z')`,
      [n, rows[0].id, net],
    );
}, 120_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await t?.close();
});

function startWorker(): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.resolve(import.meta.dirname, '../../../test/reports/report-worker-child.ts')],
    {
      cwd: path.resolve(import.meta.dirname, '../../../../..'),
      env: {
        ...process.env,
        DATABASE_URL: t.databaseUrl,
        DATA_DIR: t.config.dataDir,
        REPORT_WORKER: 'on',
        REPORT_LEASE_MS: '1500',
        REPORT_SWEEP_MS: '250',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child));
    child.on('exit', (code) => reject(new Error(`report worker exited with ${code}`)));
  });
}

const reportRow = async (id: number) =>
  (await sql('SELECT status_id, attempts, failure_reason, row_count::int FROM reports WHERE id = $1', [id])).rows[0];

it('a report whose worker is killed mid-way is retried promptly by another worker and completes', async () => {
  // Holds the report's query at its start (the worker has claimed the report and waits for this lock),
  // so the kill is certain to hit a running report.
  const locker = await t.pool.connect();
  let lockHeld = false;
  try {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE supplier_orders IN ACCESS EXCLUSIVE MODE');
    lockHeld = true;
    const first = await startWorker();
    const r = await t.request('POST', '/v1/Reports/Generate', {
      as: admin,
      body: { reportType: 1, startDate: '2025-05-01', endDate: '2025-05-31', format: 'csv' },
    });
    expect(r.status).toBe(202);
    const id = r.body.id as number;
    await eventually(async () => {
      const { rows } = await sql(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
            AND query ILIKE '%report_cursor%'`,
      );
      return rows.length > 0;
    }, 30_000);
    expect(await reportRow(id)).toMatchObject({ status_id: 2, attempts: 1 });
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    // Until it is retried the user is told that a report is being generated.
    const again = await t.request('POST', '/v1/Reports/Generate', {
      as: admin,
      body: { reportType: 1, startDate: '2025-05-01', endDate: '2025-05-31' },
    });
    expect(again.status).toBe(409);
    await locker.query('ROLLBACK');
    lockHeld = false;

    // The dead worker's pg-boss job is still active (it would expire after 15 minutes) …
    const { rows: jobs } = await sql(
      `SELECT state FROM pgboss.job WHERE name = 'report.generate' AND data->>'reportId' = $1`,
      [String(id)],
    );
    expect(jobs.map((j) => j.state)).toEqual(['active']);
    // … but a second worker's sweeper finds the expired lease and the report completes.
    await startWorker();
    const done = await eventually(async () => {
      const row = await reportRow(id);
      return row.status_id >= 3 ? row : null;
    }, 60_000);
    expect(done).toMatchObject({ status_id: 3, attempts: 2, failure_reason: null, row_count: 2 });
    const token = await t.token(admin);
    const file = await fetch(`${t.baseUrl}/v1/Reports/Download/${id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(file.status).toBe(200);
    const records = parse(Buffer.from(await file.arrayBuffer()), { bom: true, delimiter: ';' }) as string[][];
    expect(records.slice(1).map((x) => x[0])).toEqual(['CRASH-1-1', 'CRASH-1-2']);
    // No temporary file of the killed attempt is left behind.
    expect(fs.readdirSync(path.join(t.config.dataDir, 'reports')).filter((f) => f.endsWith('.part'))).toEqual([]);
    // And the user can generate the next report.
    const next = await t.request('POST', '/v1/Reports/Generate', {
      as: admin,
      body: { reportType: 1, startDate: '2025-05-01', endDate: '2025-05-31' },
    });
    expect(next.status).toBe(202);
    const nextDone = await eventually(async () => {
      const row = await reportRow(next.body.id);
      return row.status_id >= 3 ? row : null;
    }, 60_000);
    expect(nextDone).toMatchObject({ status_id: 3, attempts: 1 });
  } finally {
    if (lockHeld) await locker.query('ROLLBACK');
    locker.release();
  }
}, 180_000);

it('a report whose last attempt died ends Failed with a reason', async () => {
  // The state a worker leaves when it is killed during the third attempt: in progress, lease expired.
  const { rows } = await sql(
    `INSERT INTO reports (user_id, report_type_id, format, start_date, end_date, status_id, attempts, started_at, lease_until)
     SELECT id, 1, 'csv', '2025-05-01', '2025-05-31', 2, 3, now() - interval '1 minute', now() - interval '1 second'
       FROM users WHERE email = 'support@example.com' RETURNING id::int`,
  );
  const failed = await eventually(async () => {
    const row = await reportRow(rows[0].id);
    return row.status_id >= 3 ? row : null;
  }, 30_000);
  expect(failed).toMatchObject({
    status_id: 4,
    attempts: 3,
    failure_reason: 'Der Bericht konnte nicht erzeugt werden. Die Erzeugung wurde mehrmals abgebrochen.',
  });
  const list = await t.request('GET', '/v1/Reports?Page=1&PageSize=25', { as: 'support@example.com' });
  expect(list.body.items[0]).toMatchObject({ reportGenerationStatusId: 4 });
});
